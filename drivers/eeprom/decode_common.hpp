#pragma once
// Conversions and small helpers every family decoder shares, so that the
// units (SFF-8472 rev 12.4 section 9.2 / SFF-8636 rev 2.10a section 6.2.4 /
// CMIS 5.2 section 8.2.5, all alike) and the zero-light rule live in one place.

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "drivers/eeprom/page_window.hpp"
#include "drivers/sample.hpp"
#include "drivers/units.hpp"

namespace opticsd::eeprom {

// Raw monitor encodings shared by SFF-8472 A2h, SFF-8636 and CMIS.
inline double temperatureFromRaw(std::int16_t raw) { return raw / 256.0; }  // signed 1/256 degC
// Divided by exact step counts: the double nearest the register's decimal
// (3.2931 V, not 3.2931000000000004), so every output prints it short.
inline double voltageFromRaw(std::uint16_t raw) { return raw / 10'000.0; }     // 100 uV
inline double biasMilliampsFromRaw(std::uint16_t raw) { return raw / 500.0; }  // 2 uA

namespace detail {
// log2(1 + i/64), i = 0..63, as the nearest doubles (shortest round-trip form).
// clang-format off
inline constexpr double kLog2Steps[64] = {
    0.0, 0.02236781302845451, 0.044394119358453436, 0.06608919045777244,
    0.0874628412503394, 0.10852445677816905, 0.12928301694496647, 0.14974711950468206,
    0.16992500144231237, 0.18982455888001723, 0.20945336562894978, 0.22881869049588088,
    0.2479275134435855, 0.2667865406949014, 0.28540221886224837, 0.30378074817710293,
    0.32192809488736235, 0.33985000288462475, 0.3575520046180837, 0.37503943134692475,
    0.3923174227787603, 0.4093909361377018, 0.42626475470209796, 0.4429434958487283,
    0.45943161863729726, 0.47573343096639775, 0.4918530963296747, 0.5077946401986962,
    0.5235619560570128, 0.5391588111080314, 0.5545888516776374, 0.5698556083309478,
    0.5849625007211562, 0.5999128421871277, 0.6147098441152082, 0.6293566200796096,
    0.6438561897747247, 0.6582114827517948, 0.6724253419714956, 0.6865005271832184,
    0.7004397181410922, 0.7142455176661227, 0.7279204545631992, 0.7414669864011469,
    0.7548875021634686, 0.7681843247769263, 0.7813597135246596, 0.794415866350106,
    0.8073549220576041, 0.8201789624151877, 0.8328900141647416, 0.8454900509443752,
    0.8579809951275721, 0.8703647195834046, 0.8826430493618412, 0.8948177633079435,
    0.9068905956085185, 0.9188632372745945, 0.9307373375628862, 0.9425145053392399,
    0.9541963103868752, 0.965784284662087, 0.9772799234999164, 0.9886846867721658,
};
// clang-format on
// 1 / (1 + i/64), i = 0..63.
inline constexpr auto kInverseSteps = [] {
  std::array<double, 64> t{};
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = 1.0 / (1.0 + static_cast<double>(i) / 64);
  return t;
}();
}  // namespace detail

// log2(x) for a finite x >= 2^-1022 (a normal double), to within 1e-13
// absolute: x = 2^e m with m in [1, 2), m = c (1 + r) with c = 1 + i/64 from
// the top mantissa bits and r in [0, 1/64), then log2(1 + r) by its series to
// r^7. Inline and branch-free; a third of the cost of glibc's log2 call.
inline double log2Normal(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  const auto i = static_cast<std::size_t>((bits >> 46) & 0x3f);  // top 6 mantissa bits
  const double m = std::bit_cast<double>((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  const double r = m * detail::kInverseSteps[i] - 1.0;
  // ln(1 + r) = r - r^2/2 + r^3/3 - ... ; truncation error < r^8/8 < 2e-15.
  // Summed in pairs (Estrin) rather than nested (Horner): the same terms, but
  // three dependent multiply-adds instead of seven, which was most of a
  // 16-lane CMIS decode's time.
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double low = (1.0 - r / 2) + r2 * (1.0 / 3 - r / 4);
  const double high = (1.0 / 5 - r / 6) + r2 * (1.0 / 7);
  const double ln1p = r * (low + r4 * high);
  constexpr double kLog2e = 1.4426950408889634074;
  return e + detail::kLog2Steps[i] + ln1p * kLog2e;
}

// Optical power given in the modules' unit of 0.1 uW (a raw value, or an
// SFF-8472 externally calibrated one) as dBm, with the floor and no-light
// rule of units.hpp: at or below 1 unit (0.0001 mW) the lane is dark.
// 10 log10(units x 1e-4 mW) = 10 log10(2) x log2(units) - 40; glibc's log10
// was the largest single cost of a decode.
inline OpticalPower opticalPowerFromTenthMicrowatts(double units) {
  constexpr double kDbPerOctave = 3.0102999566398119521;                         // 10 log10(2)
  if (!(units > 1.0 && units <= std::numeric_limits<double>::max())) return {};  // also NaN and +inf
  // Rounded as every dBm is (units.hpp roundedDbm), far above the log's error,
  // so a register holding exactly 1 mW reads 0 dBm, not 7e-15.
  return {roundedDbm(kDbPerOctave * log2Normal(units) + kNoLightFloorDbm), false};
}

// The dBm of every 16-bit power register (0.1 uW), in steps of 0.0001 dB, as
// opticalPowerFromTenthMicrowatts gives it: built once (256 KiB), then a
// lookup instead of a log for the two or three powers of every lane.
const std::int32_t* powerRegisterSteps();

// A raw power register (0.1 uW) as dBm, the floor when dark: the same value
// as opticalPowerFromTenthMicrowatts(raw).dbm, read from the table.
inline double powerDbmFromRaw(std::uint16_t raw) {
  return raw <= 1 ? kNoLightFloorDbm : powerRegisterSteps()[raw] / kDbmStepsPerDb + 0.0;
}

// Sets an optical power lane value from its raw register (0.1 uW) as dBm and
// its no-light status; the same values as setLanePower below.
inline void setLanePowerRegister(Lane& lane, LaneMetric metric, std::uint16_t raw) {
  const bool dark = raw <= 1;
  lane.values.set(metric, powerDbmFromRaw(raw));
  if (metric == LaneMetric::kTxPowerDbm) lane.status.tx_no_light = dark;
  if (metric == LaneMetric::kRxPowerDbm) lane.status.rx_no_light = dark;
}

// Sets an optical power lane value (in 0.1 uW units) as dBm and its no-light status.
inline void setLanePower(Lane& lane, LaneMetric metric, double tenth_microwatts) {
  const OpticalPower p = opticalPowerFromTenthMicrowatts(tenth_microwatts);
  lane.values.set(metric, p.dbm);
  if (metric == LaneMetric::kTxPowerDbm) lane.status.tx_no_light = p.no_light;
  if (metric == LaneMetric::kRxPowerDbm) lane.status.rx_no_light = p.no_light;
}

// Four consecutive 16-bit thresholds in spec order high alarm, low alarm,
// high warning, low warning, starting at window byte `offset`, each turned
// into the metric's unit by `convert(raw)`. Written in place (no copy
// of the optional); reset when any is missing or all four are zero.
template <typename Convert>
void readThresholds(const PageWindow& window, std::size_t offset, Convert convert, std::optional<Thresholds>& out) {
  // All four zero: the module has no thresholds for this metric (0 raw would
  // otherwise read as limits of 0 degC, 0 V, -40 dBm).
  if (!window.has(offset, 8) || (window.rawU16(offset) == 0 && window.rawU16(offset + 2) == 0 &&
                                 window.rawU16(offset + 4) == 0 && window.rawU16(offset + 6) == 0)) {
    out.reset();
    return;
  }
  Thresholds& t = out.emplace();
  t.high_alarm = convert(window.rawU16(offset));
  t.low_alarm = convert(window.rawU16(offset + 2));
  t.high_warning = convert(window.rawU16(offset + 4));
  t.low_warning = convert(window.rawU16(offset + 6));
}

// Where a page keeps the five standard threshold sets (each 8 bytes: HA, LA,
// HW, LW) and which of them the module has: SFF-8472 A2h bytes 0-39,
// SFF-8636 page 03h bytes 128-199, CMIS page 02h bytes 128-199.
struct ThresholdLayout {
  std::size_t temperature = 0, vcc = 0, tx_bias = 0, tx_power = 0, rx_power = 0;
};
// Which of the five the module has (its monitors); the rest are left unset.
struct ThresholdSupport {
  bool temperature = true, vcc = true, tx_bias = true, tx_power = true, rx_power = true;
};

// The internal-calibration encoding, with CMIS's Tx bias multiplier.
struct RawScale {
  double bias_scale = 1;
  double temperature(std::uint16_t r) const { return temperatureFromRaw(static_cast<std::int16_t>(r)); }
  double vcc(std::uint16_t r) const { return voltageFromRaw(r); }
  double txBias(std::uint16_t r) const { return biasMilliampsFromRaw(r) * bias_scale; }
  double txPowerDbm(std::uint16_t r) const { return powerDbmFromRaw(r); }
  double rxPowerDbm(std::uint16_t r) const { return powerDbmFromRaw(r); }
};

// Reads the threshold sets `layout` names into `sample`, converting with
// `scale` (RawScale or any type with the same five methods).
template <typename Scale>
void readStandardThresholds(const PageWindow& w, const ThresholdLayout& layout, const ThresholdSupport& has,
                            const Scale& scale, Sample& sample) {
  auto set = [&](auto metric, bool wanted, std::size_t offset, auto convert) {
    if (wanted) readThresholds(w, offset, convert, sample.mutableThresholds(metric));
  };
  set(ModuleMetric::kTemperatureCelsius, has.temperature, layout.temperature,
      [&](std::uint16_t r) { return scale.temperature(r); });
  set(ModuleMetric::kSupplyVoltageVolts, has.vcc, layout.vcc, [&](std::uint16_t r) { return scale.vcc(r); });
  set(LaneMetric::kTxBiasMilliamperes, has.tx_bias, layout.tx_bias, [&](std::uint16_t r) { return scale.txBias(r); });
  set(LaneMetric::kTxPowerDbm, has.tx_power, layout.tx_power, [&](std::uint16_t r) { return scale.txPowerDbm(r); });
  set(LaneMetric::kRxPowerDbm, has.rx_power, layout.rx_power, [&](std::uint16_t r) { return scale.rxPowerDbm(r); });
}

// Window offsets of the vendor fields (ASCII, space padded), which every
// family has in the same order but at its own bytes.
struct VendorFieldLayout {
  std::size_t name = 0;  // 16 bytes
  std::size_t oui = 0;   // 3 bytes
  std::size_t part = 0;  // 16 bytes
  std::size_t revision = 0;
  std::size_t revision_length = 0;
  std::size_t serial = 0;  // 16 bytes
  std::size_t date = 0;    // 8 bytes YYMMDDLL
};
void decodeVendorFields(const PageWindow& w, const VendorFieldLayout& layout, ModuleIdentity& id);

// Nominal per-lane data rate from the nominal signalling rate byte (100 MBd
// units; 0xFF: the extended byte, 250 MBd units), SFF-8472 rev 12.4 bytes
// 12/66 and SFF-8636 rev 2.10a bytes 140/222. Rates below 9.5 GBd give 1 Gb/s
// when `with_1g` (SFP), nullopt otherwise.
std::optional<double> laneRateFromSignallingRate(std::optional<std::uint8_t> nominal,
                                                 std::optional<std::uint8_t> extended, bool with_1g);

// Nominal signalling rate in GBd from the same bytes (absent when 0).
std::optional<double> signallingRateGbaud(std::optional<std::uint8_t> nominal, std::optional<std::uint8_t> extended);

// `byte` x `metres_per_unit`, or nothing when the byte is absent or 0 ("not given").
inline std::optional<double> lengthMetres(std::optional<std::uint8_t> byte, double metres_per_unit) {
  if (!byte || *byte == 0) return std::nullopt;
  return *byte * metres_per_unit;
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

// The lane numbered `number` (1-based), or nullptr when the Sample has no such
// lane. Lanes are kept in number order and are usually 1..n.
inline Lane* laneNumbered(Sample& sample, std::size_t number) {
  if (number >= 1 && number <= sample.lanes.size() && sample.lanes[number - 1].number == number) {
    return &sample.lanes[number - 1];
  }
  for (Lane& lane : sample.lanes) {
    if (lane.number == number) return &lane;
  }
  return nullptr;
}

// Ensures `count` lanes numbered 1..count exist and are empty.
void resetLanes(Sample& sample, std::size_t count);

// Fills the common identity bits of a family from the identifier byte.
void setIdentifier(Sample& sample, std::uint8_t identifier, ModuleFamily family);

// The SFF-8024 connector name and the spec revision named by `revision_name`,
// each empty when its byte was not read; no firmware version (CMIS only).
void setConnectorAndRevision(ModuleIdentity& id, std::optional<std::uint8_t> connector,
                             std::optional<std::uint8_t> revision, std::string_view (*revision_name)(std::uint8_t));

// Writes "<major>.<minor>" (decimal) into `out` without allocating beyond its capacity.
void assignVersion(std::string& out, std::string_view prefix, unsigned major, unsigned minor);

}  // namespace opticsd::eeprom
