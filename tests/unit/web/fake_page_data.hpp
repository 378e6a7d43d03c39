#pragma once
// A PageData the web tests fill by hand: live Samples, rules views and a
// history result per port, or a history that fails.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "daemon/web/page_data.hpp"

namespace opticsd::web::test {

// How many times `what` occurs in a rendered page (overlaps counted).
inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class FakePageData : public PageData {
 public:
  std::int64_t now = 1'800'000'000'000;
  std::vector<TargetState> target_states;
  std::map<std::string, std::shared_ptr<const std::vector<Sample>>, std::less<>> live;
  std::map<std::string, std::shared_ptr<const TargetRulesView>, std::less<>> views;
  std::string history_error;  // non-empty: every history read fails with it
  std::map<std::pair<std::string, std::string>, HistoryResult> histories;
  std::vector<Finding> stored_findings;
  std::vector<Suspect> stored_suspects;
  std::vector<BiasBaseline> stored_baselines;
  std::vector<SerialSighting> stored_sightings;

  std::int64_t nowMs() const override { return now; }
  std::vector<TargetState> targets() const override { return target_states; }
  std::shared_ptr<const std::vector<Sample>> samples(std::string_view target) const override {
    auto it = live.find(target);
    return it == live.end() ? nullptr : it->second;
  }
  std::shared_ptr<const TargetRulesView> rules(std::string_view target) const override {
    auto it = views.find(target);
    return it == views.end() ? nullptr : it->second;
  }
  Result<std::vector<Finding>> findings(const FindingsFilter& filter) const override {
    if (!history_error.empty()) return fail(history_error);
    std::vector<Finding> out;
    for (const auto& f : stored_findings) {
      if ((filter.target.empty() || f.target == filter.target) && (!filter.active_only || f.active())) {
        out.push_back(f);
      }
    }
    return out;
  }
  Result<std::vector<Suspect>> storedSuspects() const override {
    if (!history_error.empty()) return fail(history_error);
    return stored_suspects;
  }
  Result<HistoryResult> history(const HistoryFilter& filter) const override {
    if (!history_error.empty()) return fail(history_error);
    auto it = histories.find({filter.target, filter.port});
    if (it == histories.end()) return HistoryResult{filter.target, filter.port, {}, {}, {}};
    return it->second;
  }
  Result<std::vector<BiasBaseline>> baselines(const std::string&, const std::string&) const override {
    if (!history_error.empty()) return fail(history_error);
    return stored_baselines;
  }
  Result<std::vector<SerialSighting>> sightings(const std::string&) const override {
    if (!history_error.empty()) return fail(history_error);
    return stored_sightings;
  }
};

// A module on `port` with `lanes` lanes, Rx power thresholds (low warning
// -10, low alarm -13 dBm), bias thresholds, and the given Rx power on every lane.
inline Sample opticSample(const std::string& target, const std::string& port, int lanes, double rx_dbm,
                          std::int64_t ts_ms) {
  Sample s;
  s.target = target;
  s.port = port;
  s.timestamp_ms = ts_ms;
  auto& id = s.mutableIdentity();
  id.vendor = "ACME";
  id.part_number = "OSFP-2FR4";
  id.serial = "SN123";
  id.media = "800GBASE-2xFR4";
  Thresholds rx;
  rx.high_alarm = 5.0;
  rx.high_warning = 4.0;
  rx.low_warning = -10.0;
  rx.low_alarm = -13.0;
  s.mutableThresholds(LaneMetric::kRxPowerDbm) = rx;
  Thresholds bias;
  bias.high_alarm = 15.0;
  bias.high_warning = 13.0;
  s.mutableThresholds(LaneMetric::kTxBiasMilliamperes) = bias;
  s.module[ModuleMetric::kTemperatureCelsius] = 41.5;
  s.link.up = true;
  for (int i = 1; i <= lanes; ++i) {
    Lane lane;
    lane.number = static_cast<std::uint16_t>(i);
    lane.values[LaneMetric::kRxPowerDbm] = rx_dbm;
    lane.values[LaneMetric::kTxPowerDbm] = 1.0;
    lane.values[LaneMetric::kTxBiasMilliamperes] = 8.0;
    s.lanes.push_back(std::move(lane));
  }
  return s;
}

// History with Rx power per lane every minute over the last `minutes`, falling by 0.1 dB a minute.
inline HistoryResult opticHistory(const std::string& target, const std::string& port, int lanes, std::int64_t now_ms,
                                  int minutes) {
  HistoryResult h;
  h.target = target;
  h.port = port;
  h.columns = {{"temperature_celsius", true, false}, {"rx_power_dbm", false, true}, {"tx_power_dbm", false, true}};
  for (int m = minutes; m >= 0; --m) {
    const std::int64_t ts = now_ms - std::int64_t{m} * 60'000;
    h.rows.push_back({ts, std::nullopt, {40.0, std::monostate{}, std::monostate{}}, false});
    for (int l = 1; l <= lanes; ++l) {
      h.rows.push_back({ts, l, {std::monostate{}, -3.0 - 0.1 * (minutes - m), 1.0}, false});
    }
  }
  IdentityRow id;
  id.fields = {{"vendor", "ACME"}, {"part_number", "OSFP-2FR4"}, {"serial", "SN123"}};
  id.first_seen_ms = now_ms - std::int64_t{minutes} * 60'000;
  id.last_seen_ms = now_ms;
  h.identities.push_back(id);
  return h;
}

}  // namespace opticsd::web::test
