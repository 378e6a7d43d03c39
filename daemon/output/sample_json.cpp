#include "daemon/output/sample_json.hpp"

#include <cmath>

#include "drivers/link_down_reason.hpp"

namespace opticsd {
namespace {

using nlohmann::json;

void putString(json& j, const char* key, const std::string& value) {
  if (!value.empty()) j[key] = value;
}

template <typename T>
void putOptional(json& j, const char* key, const std::optional<T>& value) {
  if (!value) return;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(*value)) return;
  }
  j[key] = *value;
}

void putOptional(json& j, const char* key, const Reading& value) {
  putOptional(j, key, static_cast<std::optional<double>>(value));
}

// putOptional for each KEY, VALUE pair of the argument list.
template <typename Value, typename... Rest>
void putOptionals(json& j, const char* key, const Value& value, const Rest&... rest) {
  putOptional(j, key, value);
  if constexpr (sizeof...(rest) > 0) putOptionals(j, rest...);
}

json thresholdsToJson(const Thresholds& t) {
  json j = json::object();
  putOptionals(j, "high_alarm", t.high_alarm, "high_warning", t.high_warning, "low_warning", t.low_warning, "low_alarm",
               t.low_alarm);
  return j;
}

json flagsToJson(const AlarmFlags& f) {
  return json{{"high_alarm", f.high_alarm},
              {"low_alarm", f.low_alarm},
              {"high_warning", f.high_warning},
              {"low_warning", f.low_warning}};
}

json identityToJson(const ModuleIdentity& id) {
  json j = json::object();
  j["family"] = std::string(toString(id.family));
  if (id.sff8024_identifier) j["sff8024_identifier"] = *id.sff8024_identifier;
  putString(j, "form_factor", id.form_factor);
  putString(j, "media", id.media);
  putString(j, "vendor", id.vendor);
  putString(j, "vendor_oui", id.vendor_oui);
  putString(j, "part_number", id.part_number);
  putString(j, "revision", id.revision);
  putString(j, "serial", id.serial);
  putString(j, "date_code", id.date_code);
  putString(j, "connector", id.connector);
  putString(j, "firmware_version", id.firmware_version);
  putString(j, "spec_revision", id.spec_revision);
  putOptional(j, "wavelength_nm", id.wavelength_nm);
  putOptional(j, "cable_length_m", id.cable_length_m);
  putOptional(j, "power_class", id.power_class);
  putOptional(j, "max_power_watts", id.max_power_watts);
  if (id.modulation != Modulation::kUnknown) j["modulation"] = std::string(toString(id.modulation));
  putOptional(j, "lane_rate_gbps", id.lane_rate_gbps);
  putOptional(j, "has_diagnostics", id.has_diagnostics);
  putOptional(j, "passive_copper", id.passive_copper);
  putOptional(j, "cmis_media_type", id.cmis_media_type);
  if (!id.applications.empty()) {
    json apps = json::array();
    for (const ModuleApplication& a : id.applications) {
      json o{{"app_sel", a.app_sel},
             {"host_interface_id", a.host_interface_id},
             {"media_interface_id", a.media_interface_id},
             {"host_lane_count", a.host_lane_count},
             {"media_lane_count", a.media_lane_count},
             {"host_lane_assignment", a.host_lane_assignment}};
      putOptional(o, "media_lane_assignment", a.media_lane_assignment);
      apps.push_back(std::move(o));
    }
    j["applications"] = std::move(apps);
  }
  if (!id.data_paths.empty()) {
    json paths = json::array();
    for (const ModuleDataPath& d : id.data_paths) {
      paths.push_back({{"app_sel", d.app_sel},
                       {"first_host_lane", d.first_host_lane},
                       {"host_lane_count", d.host_lane_count},
                       {"first_media_lane", d.first_media_lane},
                       {"media_lane_count", d.media_lane_count}});
    }
    j["data_paths"] = std::move(paths);
  }
  putOptionals(j, "default_application", id.default_application, "host_lane_count", id.host_lane_count,
               "media_lane_count", id.media_lane_count);
  putString(j, "hardware_revision", id.hardware_revision);
  putOptional(j, "nominal_signalling_rate_gbaud", id.nominal_signalling_rate_gbaud);
  putString(j, "encoding", id.encoding);
  putString(j, "media_technology", id.media_technology);
  json lengths = json::object();
  const LinkLengths& len = id.link_lengths;
  putOptionals(lengths, "smf_m", len.smf_m, "om1_m", len.om1_m, "om2_m", len.om2_m, "om3_m", len.om3_m, "om4_m",
               len.om4_m, "om5_m", len.om5_m);
  if (!lengths.empty()) j["link_lengths"] = std::move(lengths);
  putOptional(j, "vdm_supported", id.vdm_supported);
  return j;
}

json laneToJson(const Lane& lane) {
  json j = json::object();
  j["lane"] = lane.number;
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    const auto m = static_cast<LaneMetric>(i);
    if (const auto& v = lane.values[m]; v && std::isfinite(*v)) j[std::string(info(m).key)] = *v;
  }
  json status = json::object();
  const LaneStatus& st = lane.status;
  putOptionals(status, "rx_los", st.rx_los, "tx_los", st.tx_los, "rx_lol", st.rx_lol, "tx_lol", st.tx_lol, "tx_fault",
               st.tx_fault, "tx_no_light", st.tx_no_light, "rx_no_light", st.rx_no_light, "data_path_state",
               st.data_path_state);
  if (!status.empty()) j["status"] = std::move(status);
  json flags = json::object();
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (lane.flags[i]) flags[std::string(kLaneMetricInfo[i].key)] = flagsToJson(*lane.flags[i]);
  }
  if (!flags.empty()) j["flags"] = std::move(flags);
  return j;
}

}  // namespace

nlohmann::json sampleToJson(const Sample& sample) {
  json j = json::object();
  putString(j, "target", sample.target);
  putString(j, "port", sample.port);
  if (sample.timestamp_ms != 0) j["timestamp_ms"] = sample.timestamp_ms;
  j["module_present"] = sample.module_present;
  if (sample.module_present) j["identity"] = identityToJson(sample.identity());

  json module = json::object();
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    const auto m = static_cast<ModuleMetric>(i);
    if (const auto& v = sample.module[m]; v && std::isfinite(*v)) module[std::string(info(m).key)] = *v;
  }
  if (!module.empty()) j["module"] = std::move(module);

  json thresholds = json::object();
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (sample.shared_thresholds->module[i] && sample.shared_thresholds->module[i]->any()) {
      thresholds[std::string(kModuleMetricInfo[i].key)] = thresholdsToJson(*sample.shared_thresholds->module[i]);
    }
  }
  json lane_thresholds = json::object();
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (sample.shared_thresholds->lane[i] && sample.shared_thresholds->lane[i]->any()) {
      lane_thresholds[std::string(kLaneMetricInfo[i].key)] = thresholdsToJson(*sample.shared_thresholds->lane[i]);
    }
  }
  if (!thresholds.empty()) j["module_thresholds"] = std::move(thresholds);
  if (!lane_thresholds.empty()) j["lane_thresholds"] = std::move(lane_thresholds);

  json module_flags = json::object();
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (sample.module_flags[i])
      module_flags[std::string(kModuleMetricInfo[i].key)] = flagsToJson(*sample.module_flags[i]);
  }
  if (!module_flags.empty()) j["module_flags"] = std::move(module_flags);

  json lanes = json::array();
  for (const auto& lane : sample.lanes) lanes.push_back(laneToJson(lane));
  if (!lanes.empty()) j["lanes"] = std::move(lanes);

  const FecCounters& fec = sample.fec;
  if (!fec.empty()) {
    json f = json::object();
    putOptionals(f, "corrected_blocks_total", fec.corrected_blocks_total, "uncorrectable_blocks_total",
                 fec.uncorrectable_blocks_total, "corrected_bits_total", fec.corrected_bits_total, "bits_per_block",
                 fec.bits_per_block);
    if (!fec.lane_corrected_bits_total.empty()) {
      json per_lane = json::array();
      for (const auto& v : fec.lane_corrected_bits_total) per_lane.push_back(v ? json(*v) : json(nullptr));
      f["lane_corrected_bits_total"] = std::move(per_lane);
    }
    putOptional(f, "correctable_symbols", fec.correctable_symbols);
    // The codeword histogram as the device counts it: each bin's bounds
    // (symbol errors, inclusive) and cumulative count, per lane where given.
    if (!fec.histogram.empty()) {
      json bins = json::array();
      for (const FecHistogramBin& bin : fec.histogram) {
        json b{{"low", bin.low}, {"high", bin.high}};
        putOptional(b, "codewords_total", bin.codewords_total);
        if (!bin.lane_codewords_total.empty()) b["lane_codewords_total"] = bin.lane_codewords_total;
        bins.push_back(std::move(b));
      }
      f["histogram"] = std::move(bins);
    }
    // The tail of the poll window (absent on a first poll: no window yet).
    putOptional(f, "tail_symbols", fec.tail.symbols);
    putOptional(f, "margin_symbols", fec.margin(fec.tail.symbols));
    if (!fec.tail.lane_symbols.empty()) {
      json tails = json::array();
      json margins = json::array();
      for (const auto& t : fec.tail.lane_symbols) {
        tails.push_back(t ? json(*t) : json(nullptr));
        const auto m = fec.margin(t);
        margins.push_back(m ? json(*m) : json(nullptr));
      }
      f["lane_tail_symbols"] = std::move(tails);
      f["lane_margin_symbols"] = std::move(margins);
    }
    j["fec"] = std::move(f);
  }
  json link = json::object();
  const LinkState& l = sample.link;
  putOptionals(link, "up", l.up, "down_events_total", l.down_events_total, "speed_gbps", l.speed_gbps, "lanes", l.lanes,
               "lane_line_rate_gbps", l.lane_line_rate_gbps);
  if (l.down_reason) link["down_reason"] = linkDownReasonName(*l.down_reason);
  if (l.last_down_reason) link["last_down_reason"] = linkDownReasonName(*l.last_down_reason);
  if (!link.empty()) j["link"] = std::move(link);
  if (sample.maintenance) j["maintenance"] = sample.maintenance->reason;

  if (!sample.issues.empty()) j["issues"] = sample.issues;
  return j;
}

}  // namespace opticsd
