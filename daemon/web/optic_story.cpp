#include "daemon/web/optic_story.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "daemon/web/html_escape.hpp"

namespace opticsd::web {
namespace {

constexpr std::int64_t kHourMs = 3'600'000;

std::optional<double> opt(const Reading& r) { return r ? std::optional<double>(*r) : std::nullopt; }

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The keys plotted, per lane and for the module.
constexpr std::string_view kLaneKeys[] = {"rx_power_dbm",      "tx_power_dbm",     "tx_bias_milliamperes",
                                          "pre_fec_ber_ratio", "fec_tail_symbols", "fec_margin_symbols"};
constexpr std::string_view kModuleKeys[] = {"temperature_celsius", "pre_fec_ber_ratio", "fec_tail_symbols",
                                            "fec_margin_symbols"};
// A plot is 572 pixels wide (svg_plot.cpp): one bucket a pixel column.
constexpr int kPlotBuckets = 572;

std::optional<double> symbols(const std::optional<std::uint16_t>& v) {
  return v ? std::optional<double>(*v) : std::nullopt;
}

void addIdentity(OpticStory& story, std::string label, const std::string& value) {
  if (!value.empty()) story.identity.emplace_back(std::move(label), value);
}

std::string activeApplication(const ModuleIdentity& id) {
  std::string out;
  for (const auto& dp : id.data_paths) {
    if (!out.empty()) out += "; ";
    out += "AppSel " + std::to_string(dp.app_sel) + ": host lanes " + std::to_string(dp.first_host_lane) + "-" +
           std::to_string(dp.first_host_lane + dp.host_lane_count - 1) + ", media lanes " +
           std::to_string(dp.first_media_lane) + "-" + std::to_string(dp.first_media_lane + dp.media_lane_count - 1);
  }
  if (id.default_application.value_or(false)) out += out.empty() ? "default application" : " (default)";
  return out;
}

void fromLive(OpticStory& story, const Sample& s, const TargetRulesView::PortRow* row) {
  story.live = true;
  story.module_present = s.module_present;
  story.sampled_ms = s.timestamp_ms;
  const auto& id = s.identity();
  story.serial = id.serial;
  addIdentity(story, "Vendor", id.vendor);
  addIdentity(story, "Part number", id.part_number);
  addIdentity(story, "Revision", id.revision);
  addIdentity(story, "Serial", id.serial);
  addIdentity(story, "Date code", id.date_code);
  addIdentity(story, "Firmware", id.firmware_version);
  addIdentity(story, "Form factor", id.form_factor);
  addIdentity(story, "Media", id.media);
  addIdentity(story, "Active application", activeApplication(id));
  addIdentity(story, "Connector", id.connector);
  addIdentity(story, "Spec", id.spec_revision);
  if (id.wavelength_nm) addIdentity(story, "Wavelength", fixed(*id.wavelength_nm, 0) + " nm");
  story.temperature_c =
      measure(s.module[ModuleMetric::kTemperatureCelsius], s.thresholds(ModuleMetric::kTemperatureCelsius), "C");
  story.supply_v =
      measure(s.module[ModuleMetric::kSupplyVoltageVolts], s.thresholds(ModuleMetric::kSupplyVoltageVolts), "V");
  story.pre_fec_ber = opt(s.module[ModuleMetric::kPreFecBerRatio]);
  story.link_up = s.link.up;
  story.fec_tail_symbols = symbols(s.fec.tail.symbols);
  story.fec_margin_symbols = symbols(s.fec.margin(s.fec.tail.symbols));
  story.fec_correctable_symbols = symbols(s.fec.correctable_symbols);
  for (const auto& lane : s.lanes) {
    LaneNow now;
    now.lane = lane.number;
    now.rx_power_dbm = measure(lane.values[LaneMetric::kRxPowerDbm], s.thresholds(LaneMetric::kRxPowerDbm), "dB");
    now.tx_power_dbm = measure(lane.values[LaneMetric::kTxPowerDbm], s.thresholds(LaneMetric::kTxPowerDbm), "dB");
    now.tx_bias_ma =
        measure(lane.values[LaneMetric::kTxBiasMilliamperes], s.thresholds(LaneMetric::kTxBiasMilliamperes), "mA");
    now.pre_fec_ber = opt(lane.values[LaneMetric::kPreFecBerRatio]);
    for (const auto& flag : kLaneFlagInfo) {
      if ((lane.status.*flag.member).value_or(false)) now.flags.emplace_back(flag.key);
    }
    const auto i = static_cast<std::size_t>(lane.number - 1);
    if (lane.number >= 1 && i < s.fec.tail.lane_symbols.size()) {
      now.fec_tail_symbols = symbols(s.fec.tail.lane_symbols[i]);
      now.fec_margin_symbols = symbols(s.fec.margin(s.fec.tail.lane_symbols[i]));
    }
    story.lanes.push_back(std::move(now));
  }
  if (row != nullptr) {
    story.ber_warning = row->ber_warning;
    story.ber_critical = row->ber_critical;
  }
}

// Without a live Sample (the daemon does not poll it now, or the CLI): the
// last stored value of each series (the last point of its last bucket) stands for "now".
void fromHistory(OpticStory& story, const SeriesResult& h) {
  if (!h.identities.empty()) {
    for (const auto& [column, value] : h.identities.back().fields) {
      if (column == "serial") story.serial = value;
      static const std::pair<std::string_view, std::string_view> kLabels[] = {
          {"vendor", "Vendor"}, {"part_number", "Part number"}, {"serial", "Serial"}, {"firmware_version", "Firmware"},
          {"media", "Media"},   {"form_factor", "Form factor"}};
      for (const auto& [key, label] : kLabels) {
        if (column == key) addIdentity(story, std::string(label), value);
      }
    }
  }
  story.sampled_ms = h.last_row_ms;
  story.module_present = h.last_row_ms.has_value();
  std::map<int, LaneNow> lanes;
  for (const auto& x : h.series) {
    const double last = x.points.back().value;
    if (x.lane == 0) {
      if (x.key == "temperature_celsius") story.temperature_c.value = last;
      if (x.key == "pre_fec_ber_ratio") story.pre_fec_ber = last;
      if (x.key == "fec_tail_symbols") story.fec_tail_symbols = last;
      if (x.key == "fec_margin_symbols") story.fec_margin_symbols = last;
      continue;
    }
    auto& lane = lanes[x.lane];
    lane.lane = x.lane;
    if (x.key == "rx_power_dbm") lane.rx_power_dbm.value = last;
    if (x.key == "tx_power_dbm") lane.tx_power_dbm.value = last;
    if (x.key == "tx_bias_milliamperes") lane.tx_bias_ma.value = last;
    if (x.key == "pre_fec_ber_ratio") lane.pre_fec_ber = last;
    if (x.key == "fec_tail_symbols") lane.fec_tail_symbols = last;
    if (x.key == "fec_margin_symbols") lane.fec_margin_symbols = last;
  }
  for (auto& [n, lane] : lanes) story.lanes.push_back(std::move(lane));
}

SeriesRequest seriesRequest(const OpticStory& story) {
  SeriesRequest r;
  r.target = story.target;
  r.port = story.port;
  r.module_keys.assign(std::begin(kModuleKeys), std::end(kModuleKeys));
  r.lane_keys.assign(std::begin(kLaneKeys), std::end(kLaneKeys));
  r.since_ms = story.now_ms - story.range_ms;
  r.until_ms = story.now_ms;
  r.buckets = kPlotBuckets;
  return r;
}

void addBaselines(OpticStory& story, const std::vector<BiasBaseline>& baselines) {
  for (const auto& b : baselines) {
    if (!story.serial.empty() && b.serial != story.serial) continue;
    for (auto& lane : story.lanes) {
      const auto i = static_cast<std::size_t>(lane.lane - 1);
      if (i < b.lanes_ma.size() && b.lanes_ma[i] > 0) lane.baseline_bias_ma = b.lanes_ma[i];
      if (i < b.lanes_rx_dbm.size()) lane.baseline_rx_dbm = b.lanes_rx_dbm[i];
      if (i < b.lanes_tx_dbm.size()) lane.baseline_tx_dbm = b.lanes_tx_dbm[i];
    }
  }
}

void addFarEnd(const PageData& data, OpticStory& story, const FarEndResolver* remote) {
  if (!story.endpoint || story.endpoint->peer_target.empty()) return;
  FarEnd far;
  far.target = story.endpoint->peer_target;
  far.port = story.endpoint->peer_port;
  if (auto samples = data.samples(far.target)) {
    far.where = "this instance";
    far.page_url = opticPath(far.target, far.port);
    if (const Sample* s = findPort(*samples, far.port)) {
      far.reachable = true;
      for (const auto& our : story.lanes) {
        FarEnd::LanePair pair;
        pair.lane = our.lane;
        pair.our_rx_dbm = our.rx_power_dbm.value;
        pair.our_tx_dbm = our.tx_power_dbm.value;
        for (const auto& lane : s->lanes) {
          if (lane.number != our.lane) continue;
          pair.their_tx_dbm = opt(lane.values[LaneMetric::kTxPowerDbm]);
          pair.their_rx_dbm = opt(lane.values[LaneMetric::kRxPowerDbm]);
        }
        far.lanes.push_back(pair);
      }
    } else {
      far.error = "no module is reported at that port";
    }
    if (auto view = data.rules(far.target)) {
      if (const auto* row = findPortRow(*view, far.port)) far.their_score = row->score;
    }
  } else if (remote != nullptr) {
    remote->resolve(far, story);
  } else {
    far.where = "not polled by this instance";
    far.error = "no instance is configured for it (instances: in the config)";
  }
  story.far_end = std::move(far);
}

}  // namespace

Measured measure(const Reading& value, const std::optional<Thresholds>& thresholds, std::string_view unit) {
  Measured m;
  m.value = opt(value);
  m.thresholds = thresholds;
  if (!m.value || !thresholds || !thresholds->any()) return m;
  const double v = *m.value;
  const auto& t = *thresholds;
  if ((t.high_alarm && v >= *t.high_alarm) || (t.low_alarm && v <= *t.low_alarm)) {
    m.state = "alarm";
  } else if ((t.high_warning && v >= *t.high_warning) || (t.low_warning && v <= *t.low_warning)) {
    m.state = "warning";
  } else {
    m.state = "ok";
  }
  // The nearer warning bound (or alarm bound where no warning is given); past
  // an alarm, how far past it.
  const bool alarm = m.state == "alarm";
  const bool use_high_alarm = t.high_alarm && (!t.high_warning || (alarm && v >= *t.high_alarm));
  const bool use_low_alarm = t.low_alarm && (!t.low_warning || (alarm && v <= *t.low_alarm));
  const Reading high = use_high_alarm ? t.high_alarm : t.high_warning;
  const Reading low = use_low_alarm ? t.low_alarm : t.low_warning;
  const char* high_name = use_high_alarm ? "high alarm" : "high warning";
  const char* low_name = use_low_alarm ? "low alarm" : "low warning";
  std::optional<double> to_high = high ? std::optional<double>(*high - v) : std::nullopt;
  std::optional<double> to_low = low ? std::optional<double>(v - *low) : std::nullopt;
  const bool use_low = to_low && (!to_high || *to_low < *to_high);
  const double margin = use_low ? *to_low : to_high.value_or(0);
  if (!to_low && !to_high) return m;
  m.margin = margin;
  const std::string amount = fixed(std::fabs(margin), unit == "mA" || unit == "C" ? 1 : 2) + " " + std::string(unit);
  if (margin >= 0) {
    m.margin_text = amount + (use_low ? " above the " : " below the ") + (use_low ? low_name : high_name);
  } else {
    m.margin_text = amount + (use_low ? " below the " : " above the ") + (use_low ? low_name : high_name);
  }
  return m;
}

Result<std::int64_t> rangeMs(std::string_view name) {
  if (name == "1h") return kHourMs;
  if (name == "24h") return 24 * kHourMs;
  if (name == "14d") return 14 * 24 * kHourMs;
  return fail("range must be 1h, 24h or 14d");
}

std::string opticPath(std::string_view target, std::string_view port) {
  return "/optic?target=" + urlComponent(target) + "&port=" + urlComponent(port);
}

std::optional<OpticStory> buildOpticStory(const PageData& data, const StoryRequest& request,
                                          const FarEndResolver* remote) {
  OpticStory story;
  story.target = request.target;
  story.port = request.port;
  story.now_ms = data.nowMs();
  story.range_name = request.range;
  story.range_ms = rangeMs(request.range).value_or(24 * kHourMs);

  auto view = data.rules(request.target);
  const TargetRulesView::PortRow* row = view ? findPortRow(*view, request.port) : nullptr;
  if (auto samples = data.samples(request.target)) {
    if (const Sample* s = findPort(*samples, request.port)) fromLive(story, *s, row);
  }
  if (auto t = data.target(request.target)) story.stale = t->stale;
  if (row != nullptr) {
    story.score = row->score;
    if (row->endpoint) story.endpoint = *row->endpoint;
  }

  auto history = data.historySeries(seriesRequest(story));
  if (history) {
    if (!story.live) fromHistory(story, *history);
    story.bucket_ms = history->bucket_ms;
    for (auto& x : history->series) story.series.push_back({std::move(x.key), x.lane, std::move(x.points)});
    for (const auto& id : history->identities) {
      OpticStory::Identity i{{}, {}, {}, id.first_seen_ms, id.last_seen_ms};
      for (const auto& [column, value] : id.fields) {
        if (column == "serial") i.serial = value;
        if (column == "vendor") i.vendor = value;
        if (column == "part_number") i.part = value;
      }
      story.swaps.push_back(std::move(i));
    }
  } else {
    story.history_error = history.error().message;
  }
  story.history_warning = data.historyWarning();
  if (!story.live && (!history || !history->last_row_ms)) return std::nullopt;

  if (auto baselines = data.baselines(request.target, request.port)) addBaselines(story, *baselines);
  if (!story.serial.empty()) {
    if (auto seen = data.sightings(story.serial)) {
      for (auto& s : *seen) {
        if (s.target != story.target || s.port != story.port) story.serial_elsewhere.push_back(std::move(s));
      }
    }
  }

  FindingsFilter findings_filter;
  findings_filter.target = request.target;
  findings_filter.since_ms = story.now_ms - story.range_ms;
  if (auto found = data.findings(findings_filter)) {
    for (auto& f : *found) {
      if (f.port != request.port) continue;
      auto action = nextAction(f.rule);
      story.findings.push_back({std::move(f), action});
    }
  } else if (view) {
    // No history: the rules engine's active findings, without their start.
    for (const auto& f : view->findings) {
      if (f.port != request.port) continue;
      Finding finding;
      finding.target = request.target;
      finding.port = f.port;
      finding.lane = f.lane;
      finding.rule = f.rule;
      finding.severity = f.severity;
      story.findings.push_back({std::move(finding), nextAction(f.rule)});
    }
  }
  std::stable_sort(story.findings.begin(), story.findings.end(), [](const auto& a, const auto& b) {
    if (a.finding.active() != b.finding.active()) return a.finding.active();
    return a.finding.start_ms > b.finding.start_ms;
  });
  if (auto stored = data.storedSuspect(story.target, story.port); stored && *stored) {
    const Suspect& s = **stored;
    story.reason = s.reason;
    if (!story.endpoint && !s.endpoint.empty()) story.endpoint = s.endpoint;
    if (!story.live) story.score = s.score;
  }
  if (story.reason.empty() && !story.findings.empty() && story.findings.front().finding.active()) {
    const auto& f = story.findings.front().finding;
    story.reason = f.detail.empty() ? f.rule + " (" + std::string(toString(f.severity)) + ")" : f.detail;
  }
  addFarEnd(data, story, remote);
  return story;
}

}  // namespace opticsd::web
