#include "daemon/web/page_json.hpp"

#include <nlohmann/json.hpp>

namespace opticsd::web {
namespace {

using nlohmann::json;

// Device strings may hold bytes that are not UTF-8; dump() replaces them
// instead of throwing.
std::string text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

void put(json& j, const char* key, const std::optional<double>& v) {
  if (v) j[key] = *v;
}

json endpointJson(const Endpoint& e) {
  json j = json::object();
  auto add = [&](const char* k, const std::string& v) {
    if (!v.empty()) j[k] = v;
  };
  add("host", e.host);
  add("nic", e.nic);
  add("gpu", e.gpu);
  add("rail", e.rail);
  add("peer_target", e.peer_target);
  add("peer_port", e.peer_port);
  return j;
}

json findingJson(const Finding& f) {
  json j{{"target", f.target},
         {"port", f.port},
         {"rule", f.rule},
         {"severity", toString(f.severity)},
         {"active", f.active()}};
  if (f.lane != 0) j["lane"] = f.lane;
  if (f.start_ms != 0) j["start_ms"] = f.start_ms;
  if (f.end_ms) j["end_ms"] = *f.end_ms;
  put(j, "value", f.value);
  if (!f.detail.empty()) j["detail"] = f.detail;
  return j;
}

json suspectJson(const SuspectRow& s) {
  json j{{"target", s.target}, {"port", s.port}, {"score", s.score}, {"reason", s.reason}};
  if (!s.endpoint.empty()) j["endpoint"] = endpointJson(s.endpoint);
  return j;
}

json measuredJson(const Measured& m) {
  json j = json::object();
  put(j, "value", m.value);
  if (!m.state.empty()) j["state"] = m.state;
  put(j, "margin", m.margin);
  if (!m.margin_text.empty()) j["margin_text"] = m.margin_text;
  if (m.thresholds) {
    json t = json::object();
    auto add = [&](const char* k, const Reading& r) {
      if (r) t[k] = *r;
    };
    add("high_alarm", m.thresholds->high_alarm);
    add("high_warning", m.thresholds->high_warning);
    add("low_warning", m.thresholds->low_warning);
    add("low_alarm", m.thresholds->low_alarm);
    j["thresholds"] = t;
  }
  return j;
}

}  // namespace

std::string fleetJson(const FleetOverview& f) {
  json j{{"now_ms", f.now_ms},
         {"modules", f.modules},
         {"modules_warning", f.modules_warning},
         {"modules_critical", f.modules_critical},
         {"suspects_total", f.suspects_total}};
  json targets = json::array();
  for (const auto& t : f.targets) {
    json x{{"name", t.name},
           {"driver", t.driver},
           {"stale", t.stale},
           {"modules", t.modules},
           {"has_samples", t.has_samples}};
    if (t.last_success_ms) x["last_success_ms"] = *t.last_success_ms;
    targets.push_back(std::move(x));
  }
  j["targets"] = std::move(targets);
  json suspects = json::array();
  for (const auto& s : f.suspects) suspects.push_back(suspectJson(s));
  j["suspects"] = std::move(suspects);
  json findings = json::array();
  for (const auto& x : f.findings) findings.push_back(findingJson(x));
  j["findings"] = std::move(findings);
  if (!f.history_error.empty()) j["history_error"] = f.history_error;
  return text(j);
}

std::string opticJson(const OpticStory& s) {
  json j{{"target", s.target},    {"port", s.port},  {"now_ms", s.now_ms},
         {"range", s.range_name}, {"live", s.live},  {"module_present", s.module_present},
         {"stale", s.stale},      {"score", s.score}};
  if (!s.reason.empty()) j["reason"] = s.reason;
  if (s.sampled_ms) j["sampled_ms"] = *s.sampled_ms;
  json identity = json::object();
  for (const auto& [k, v] : s.identity) identity[k] = v;
  j["identity"] = std::move(identity);
  if (s.endpoint) j["endpoint"] = endpointJson(*s.endpoint);
  j["temperature_celsius"] = measuredJson(s.temperature_c);
  j["supply_voltage_volts"] = measuredJson(s.supply_v);
  put(j, "pre_fec_ber", s.pre_fec_ber);
  put(j, "ber_warning", s.ber_warning);
  put(j, "ber_critical", s.ber_critical);
  put(j, "fec_tail_symbols", s.fec_tail_symbols);
  put(j, "fec_margin_symbols", s.fec_margin_symbols);
  put(j, "fec_correctable_symbols", s.fec_correctable_symbols);
  if (s.bucket_ms > 0) j["series_bucket_ms"] = s.bucket_ms;  // each point: a bucket's lowest, highest or last
  if (s.link_up) j["link_up"] = *s.link_up;
  json lanes = json::array();
  for (const auto& l : s.lanes) {
    json x{{"lane", l.lane},
           {"rx_power_dbm", measuredJson(l.rx_power_dbm)},
           {"tx_power_dbm", measuredJson(l.tx_power_dbm)},
           {"tx_bias_milliamperes", measuredJson(l.tx_bias_ma)},
           {"flags", l.flags}};
    put(x, "pre_fec_ber", l.pre_fec_ber);
    put(x, "fec_tail_symbols", l.fec_tail_symbols);
    put(x, "fec_margin_symbols", l.fec_margin_symbols);
    put(x, "baseline_rx_dbm", l.baseline_rx_dbm);
    put(x, "baseline_tx_dbm", l.baseline_tx_dbm);
    put(x, "baseline_bias_milliamperes", l.baseline_bias_ma);
    lanes.push_back(std::move(x));
  }
  j["lanes"] = std::move(lanes);
  json findings = json::array();
  for (const auto& f : s.findings) {
    json x = findingJson(f.finding);
    x["next_action"] = {{"step", f.action.step}, {"why", f.action.why}};
    findings.push_back(std::move(x));
  }
  j["findings"] = std::move(findings);
  json series = json::array();
  for (const auto& x : s.series) {
    json pts = json::array();
    for (const auto& p : x.points) pts.push_back({p.ts_ms, p.value});
    json one{{"key", x.key}, {"points", std::move(pts)}};
    if (x.lane != 0) one["lane"] = x.lane;
    series.push_back(std::move(one));
  }
  j["series"] = std::move(series);
  json swaps = json::array();
  for (const auto& i : s.swaps) {
    swaps.push_back({{"serial", i.serial},
                     {"vendor", i.vendor},
                     {"part_number", i.part},
                     {"first_seen_ms", i.first_seen_ms},
                     {"last_seen_ms", i.last_seen_ms}});
  }
  j["modules_at_port"] = std::move(swaps);
  json seen = json::array();
  for (const auto& x : s.serial_elsewhere) {
    seen.push_back(
        {{"target", x.target}, {"port", x.port}, {"first_seen_ms", x.first_seen_ms}, {"last_seen_ms", x.last_seen_ms}});
  }
  j["serial_seen_elsewhere"] = std::move(seen);
  if (s.far_end) {
    const auto& f = *s.far_end;
    json x{{"target", f.target}, {"port", f.port}, {"where", f.where}, {"reachable", f.reachable}};
    if (!f.page_url.empty()) x["page_url"] = f.page_url;
    if (!f.error.empty()) x["error"] = f.error;
    put(x, "score", f.their_score);
    json pairs = json::array();
    for (const auto& l : f.lanes) {
      json p{{"lane", l.lane}};
      put(p, "their_tx_dbm", l.their_tx_dbm);
      put(p, "our_rx_dbm", l.our_rx_dbm);
      put(p, "our_tx_dbm", l.our_tx_dbm);
      put(p, "their_rx_dbm", l.their_rx_dbm);
      pairs.push_back(std::move(p));
    }
    x["lanes"] = std::move(pairs);
    j["far_end"] = std::move(x);
  }
  if (!s.history_error.empty()) j["history_error"] = s.history_error;
  if (!s.history_warning.empty()) j["history_warning"] = s.history_warning;
  return text(j);
}

std::string triageJson(const Triage& t) {
  json rows = json::array();
  for (const auto& r : t.rows) {
    json x{{"near", suspectJson(r.near)}};
    if (r.far) x["far"] = suspectJson(*r.far);
    rows.push_back(std::move(x));
  }
  json q{{"hosts", t.query.hosts}};
  if (!t.query.gpu.empty()) q["gpu"] = t.query.gpu;
  if (!t.query.rail.empty()) q["rail"] = t.query.rail;
  if (!t.query.target.empty()) q["target"] = t.query.target;
  return text(json{{"query", q}, {"links", std::move(rows)}});
}

}  // namespace opticsd::web
