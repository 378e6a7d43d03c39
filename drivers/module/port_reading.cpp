#include "drivers/module/port_reading.hpp"

#include <linux/ethtool.h>

#include "drivers/eeprom/decoder.hpp"

namespace opticsd::module {

Sample sampleFromReading(const std::string& target, std::int64_t timestamp_ms, const PortReading& reading) {
  Sample sample;
  sample.target = target;
  sample.port = reading.port;
  sample.timestamp_ms = timestamp_ms;
  sample.module_present = reading.module_present;
  // A busy module (firmware flashing) gave no pages on purpose: nothing to decode, nothing wrong.
  if (reading.module_present && !reading.maintenance) eeprom::decodeModule(reading.memory, sample);
  sample.issues.insert(sample.issues.end(), reading.issues.begin(), reading.issues.end());
  sample.fec = reading.fec;
  sample.link = reading.link;
  sample.maintenance = reading.maintenance;
  return sample;
}

std::optional<std::uint16_t> correctableSymbols(std::optional<std::uint32_t> active_fec_bit, const LinkState& link) {
  if (!active_fec_bit || *active_fec_bit != ETHTOOL_LINK_MODE_FEC_RS_BIT) return std::nullopt;
  double lane_gbps = 0;
  if (link.speed_gbps && link.lanes && *link.lanes > 0) lane_gbps = *link.speed_gbps / *link.lanes;
  if (lane_gbps == 0) return std::nullopt;  // cannot tell RS(528) from RS(544)
  return lane_gbps >= 50 ? 15 : 7;
}

std::optional<std::uint64_t> bitsPerCorrectedBlock(std::optional<std::uint32_t> active_fec_bit, const LinkState& link) {
  const auto t = correctableSymbols(active_fec_bit, link);
  if (!t) return std::nullopt;
  return std::uint64_t{*t} * 5;  // 10-bit symbols, about half their bits wrong
}

}  // namespace opticsd::module
