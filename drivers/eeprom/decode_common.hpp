#pragma once
// Conversions and small helpers every family decoder shares, so that the
// units (SFF-8472 rev 12.4 section 9.2 / SFF-8636 rev 2.10a section 6.2.4 /
// CMIS 5.2 section 8.2.5, all alike) and the zero-light rule live in one place.

#include <cstdint>
#include <optional>
#include <string_view>

#include "drivers/eeprom/page_window.hpp"
#include "drivers/sample.hpp"
#include "drivers/units.hpp"

namespace opticsd::eeprom {

// Raw monitor encodings shared by SFF-8472 A2h, SFF-8636 and CMIS.
inline double temperatureFromRaw(std::int16_t raw) { return raw / 256.0; }          // signed 1/256 degC
inline double voltageFromRaw(std::uint16_t raw) { return raw * 100e-6; }             // 100 uV
inline double biasMilliampsFromRaw(std::uint16_t raw) { return raw * 2e-3; }         // 2 uA
inline double powerMilliwattsFromRaw(std::uint16_t raw) { return raw * 1e-4; }       // 0.1 uW
inline double powerDbmFromRaw(std::uint16_t raw) { return opticalPowerFromMilliwatts(powerMilliwattsFromRaw(raw)).dbm; }

// Four consecutive 16-bit thresholds in spec order high alarm, low alarm,
// high warning, low warning, starting at window byte `offset`, each turned
// into the metric's unit by `convert(raw)`. nullopt when any is missing.
template <typename Convert>
std::optional<Thresholds> readThresholds(const PageWindow& window, std::size_t offset, Convert convert) {
  if (!window.has(offset, 8)) return std::nullopt;
  Thresholds t;
  t.high_alarm = convert(window.rawU16(offset));
  t.low_alarm = convert(window.rawU16(offset + 2));
  t.high_warning = convert(window.rawU16(offset + 4));
  t.low_warning = convert(window.rawU16(offset + 6));
  return t;
}

// Sets an optical power lane value in dBm and its no-light status.
inline void setLanePower(Lane& lane, LaneMetric metric, double milliwatts) {
  const OpticalPower p = opticalPowerFromMilliwatts(milliwatts);
  lane.values.set(metric, p.dbm);
  if (metric == LaneMetric::kTxPowerDbm) lane.status.tx_no_light = p.no_light;
  if (metric == LaneMetric::kRxPowerDbm) lane.status.rx_no_light = p.no_light;
}

inline AlarmFlags makeFlags(bool high_alarm, bool low_alarm, bool high_warning, bool low_warning) {
  AlarmFlags f;
  f.high_alarm = high_alarm;
  f.low_alarm = low_alarm;
  f.high_warning = high_warning;
  f.low_warning = low_warning;
  return f;
}

inline bool bit(std::uint8_t value, int n) { return ((value >> n) & 1u) != 0; }

// Appends "<what>" to sample.issues (allocates: only on the problem path).
void addIssue(Sample& sample, std::string_view what);

// Ensures `count` lanes numbered 1..count exist and are empty.
void resetLanes(Sample& sample, std::size_t count);

// Fills the common identity bits of a family from the identifier byte.
void setIdentifier(Sample& sample, std::uint8_t identifier, ModuleFamily family);

}  // namespace opticsd::eeprom
