#include "daemon/exporter/sample_series.hpp"

#include <utility>

namespace opticsd::exporter_detail {
namespace {

using prometheus::MetricType;

// Catalogue keys in a prefixed unit that Prometheus wants in its base unit
// (promtool refuses "milli"/"pico" + a base unit in a name).
struct UnitRename {
  std::string_view suffix;
  std::string_view base_suffix;
  double scale;
  std::string_view prefix;  // as written in the catalogue's help text
};
constexpr std::array<UnitRename, 3> kUnitRenames{{
    {"_milliamperes", "_amperes", 1e-3, "milli"},
    {"_picoseconds_squared", "_seconds_squared", 1e-24, "pico"},
    {"_picoseconds", "_seconds", 1e-12, "pico"},
}};

ExportedKey exportedKey(std::string_view key) {
  for (const auto& r : kUnitRenames) {
    if (key.ends_with(r.suffix)) {
      return {std::string(key.substr(0, key.size() - r.suffix.size())) + std::string(r.base_suffix), r.scale, r.prefix};
    }
  }
  return {std::string(key), 1.0, {}};
}

template <std::size_t N>
std::array<ExportedKey, N> exportedKeys(const std::array<MetricInfo, N>& catalogue) {
  std::array<ExportedKey, N> out;
  for (std::size_t i = 0; i < N; ++i) out[i] = exportedKey(catalogue[i].key);
  return out;
}

}  // namespace

const std::array<ExportedKey, kModuleMetricCount>& moduleKeys() {
  static const auto keys = exportedKeys(kModuleMetricInfo);
  return keys;
}

const std::array<ExportedKey, kLaneMetricCount>& laneKeys() {
  static const auto keys = exportedKeys(kLaneMetricInfo);
  return keys;
}

namespace {

FamilySpec family(std::string name, std::string help, MetricType type) {
  return {std::move(name), std::move(help), type};
}

}  // namespace

const std::vector<FamilySpec>& familySpecs() {
  static const std::vector<FamilySpec> specs = [] {
    std::vector<FamilySpec> t(kFamilyCount);
    const auto gauge = MetricType::Gauge;
    const auto counter = MetricType::Counter;
    // A scaled value is in the base unit: the catalogue's "in milliamperes"
    // would tell a reader to expect mA, so the unit's prefix is dropped.
    const auto help = [](const MetricInfo& m, const ExportedKey& k) {
      std::string text(m.help);
      if (k.scale == 1.0) return text;
      if (const auto at = text.find(k.unit_prefix); at != std::string::npos) text.erase(at, k.unit_prefix.size());
      return text;
    };
    for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
      const std::string& key = moduleKeys()[i].key;
      t[kModuleValueBase + i] = family("opticsd_module_" + key, help(kModuleMetricInfo[i], moduleKeys()[i]), gauge);
      t[kModuleThresholdBase + i] =
          family("opticsd_module_threshold_" + key,
                 "Module-advertised " + key + " threshold by level, where the module advertises it.", gauge);
    }
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
      const std::string& key = laneKeys()[i].key;
      t[kLaneValueBase + i] = family("opticsd_lane_" + key, help(kLaneMetricInfo[i], laneKeys()[i]), gauge);
      t[kLaneThresholdBase + i] =
          family("opticsd_lane_threshold_" + key,
                 "Module-advertised " + key + " threshold by level, applying to every lane of the module.", gauge);
    }
    for (std::size_t i = 0; i < kLaneStatus.size(); ++i) {
      t[kLaneStatusBase + i] =
          family("opticsd_lane_" + std::string(kLaneStatus[i].key), std::string(kLaneStatus[i].help), gauge);
    }
    t[kModuleAlarmFlag] =
        family("opticsd_module_alarm_flag",
               "Latched module alarm/warning flag per metric and level; present (1) only while raised.", gauge);
    t[kLaneAlarmFlag] =
        family("opticsd_lane_alarm_flag",
               "Latched lane alarm/warning flag per metric and level; present (1) only while raised.", gauge);
    t[kLaneDataPathState] =
        family("opticsd_lane_data_path_state", "CMIS data path state code of the lane (4 = activated).", gauge);
    t[kFecCorrectedBlocks] =
        family("opticsd_fec_corrected_blocks_total", "FEC codewords corrected on the port, as reported.", counter);
    t[kFecUncorrectableBlocks] =
        family("opticsd_fec_uncorrectable_blocks_total",
               "FEC codewords that could not be corrected on the port (post-FEC errors).", counter);
    // "bit_errors", not "bits": promtool reads a "bits" name part as a data size that should be bytes.
    t[kFecCorrectedBits] =
        family("opticsd_fec_corrected_bit_errors_total", "Bit errors corrected by FEC on the port.", counter);
    t[kLaneFecCorrectedBits] =
        family("opticsd_lane_fec_corrected_bit_errors_total", "Bit errors corrected by FEC on the lane.", counter);
    t[kLinkUp] = family("opticsd_link_up", "Link operational state of the port (1 = up).", gauge);
    t[kLinkDownEvents] = family("opticsd_link_down_events_total",
                                "Link down transitions of the port, as counted by the device.", counter);
    t[kLinkSpeed] = family("opticsd_link_speed_bytes_per_second",
                           "Negotiated link speed of the port in bytes per second (base unit; x8 for bit/s).", gauge);
    t[kPortFecTail] =
        family("opticsd_port_fec_tail_symbols",
               "FEC tail: the highest codeword bin (symbol errors) that grew since the previous poll.", gauge);
    t[kPortFecMargin] =
        family("opticsd_port_fec_margin_symbols",
               "Symbols the active RS code could still correct beyond the FEC tail (15 for RS(544,514)).", gauge);
    t[kLaneFecTail] = family("opticsd_lane_fec_tail_symbols",
                             "FEC tail of the lane, where the device counts the histogram per lane.", gauge);
    t[kLaneFecMargin] = family("opticsd_lane_fec_margin_symbols",
                               "FEC margin of the lane, where the device counts the histogram per lane.", gauge);
    t[kPortFecCodewords] =
        family("opticsd_port_fec_codewords_total",
               "FEC codewords received with low..high symbol errors (the codeword histogram bin).", counter);
    t[kLaneFecCodewords] =
        family("opticsd_lane_fec_codewords_total",
               "FEC codewords of the lane with low..high symbol errors, where counted per lane.", counter);
    t[kLinkDownReason] = family("opticsd_port_link_down_reason",
                                "Why the link is down, as the device says (Linux link extended state); present (1) "
                                "only while down.",
                                gauge);
    t[kModuleMaintenance] = family("opticsd_module_maintenance",
                                   "The module is in maintenance (firmware flashing, a CMIS CDB command, or paused by "
                                   "config); present (1) only then.",
                                   gauge);
    t[kModulePresent] =
        family("opticsd_module_present", "Whether a module is plugged into the port (1 = present).", gauge);
    t[kModuleInfo] = family("opticsd_module_info",
                            "Module identity; always 1. Join on target and port to label other series.", gauge);
    return t;
  }();
  return specs;
}

}  // namespace opticsd::exporter_detail
