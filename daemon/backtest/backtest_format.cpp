#include "daemon/backtest/backtest_format.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "daemon/output/time_text.hpp"
#include "daemon/rules/findings_format.hpp"

namespace opticsd {
namespace {

using nlohmann::json;

json orNull(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json orNull(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }
json orNull(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return std::nullopt;
  const auto i = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

std::string fixed(double v, int digits = 1) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string ratio(const std::optional<double>& v) { return v ? fixed(*v * 100, 1) + " %" : "-"; }

std::string duration(const std::optional<double>& seconds) {
  if (!seconds) return "-";
  const double s = *seconds;
  if (s < 120) return fixed(s, 0) + "s";
  if (s < 7200) return fixed(s / 60, 0) + "m";
  return fixed(s / 3600, 1) + "h";
}

json totalsJson(const Totals& t) {
  return {{"raised", t.raised},
          {"followed_by_event", t.followed_by_event},
          {"after_event", t.after_event},
          {"false_alarms", t.false_alarms},
          {"false_alarms_per_1000_module_days", t.false_alarms_per_1000_module_days},
          {"events", t.events},
          {"caught", t.caught},
          {"missed", t.missed},
          {"precision", orNull(t.precision)},
          {"recall", orNull(t.recall)}};
}

json findingJson(const Finding& f) {
  return {{"target", f.target},
          {"port", f.port},
          {"lane", f.lane > 0 ? json(f.lane) : json(nullptr)},
          {"rule", f.rule},
          {"mode", f.shadow ? "shadow" : "live"},
          {"severity", std::string(toString(f.severity))},
          {"start", formatRfc3339Ms(f.start_ms)},
          {"start_ms", f.start_ms}};
}

std::string where(const std::string& target, const std::string& port, int lane) {
  return target + " " + port + (lane > 0 ? " lane " + std::to_string(lane) : "");
}

}  // namespace

std::string formatBacktestJson(const BacktestReport& r) {
  json rules = json::array();
  for (const auto& x : r.rules) {
    rules.push_back({{"rule", x.rule},
                     {"mode", x.shadow ? "shadow" : "live"},
                     {"raised", x.raised},
                     {"followed_by_event", x.followed_by_event},
                     {"after_event", x.after_event},
                     {"false_alarms", x.false_alarms},
                     {"false_alarms_per_1000_module_days", x.false_alarms_per_1000_module_days},
                     {"events_preceded", x.events_preceded},
                     {"lead_times_s", x.lead_times_s}});
  }
  json events = json::array();
  for (const auto& e : r.events) {
    events.push_back({{"target", e.event.target},
                      {"port", e.event.port},
                      {"lane", e.event.lane > 0 ? json(e.event.lane) : json(nullptr)},
                      {"kind", std::string(toString(e.event.kind))},
                      {"time", formatRfc3339Ms(e.event.time_ms)},
                      {"time_ms", e.event.time_ms},
                      {"preceded_by", orNull(e.preceded_by)},
                      {"lead_s", orNull(e.lead_s)},
                      {"shadow_preceded_by", orNull(e.shadow_preceded_by)},
                      {"suspect_rank", orNull(e.suspect_rank)}});
  }
  json unreproduced = json::array();
  for (const auto& u : r.agreement.unreproduced) {
    json j = findingJson(u.finding);
    j["why"] = u.why;
    unreproduced.push_back(std::move(j));
  }
  json replay_only = json::array();
  for (const auto& f : r.agreement.replay_only) replay_only.push_back(findingJson(f));
  json lost = json::array();
  for (const auto& l : r.agreement.lost) {
    lost.push_back({{"rule", l.rule}, {"recorded", l.recorded}, {"unreproduced", l.unreproduced}, {"why", l.why}});
  }
  json out{{"database", r.database},
           {"schema_version", r.schema_version},
           {"migrated_copy", r.migrated_copy},
           {"rules_source", r.rules_source},
           {"from", r.from_ms ? json(formatRfc3339Ms(*r.from_ms)) : json(nullptr)},
           {"until", r.until_ms ? json(formatRfc3339Ms(*r.until_ms)) : json(nullptr)},
           {"modules", r.modules},
           {"module_days", r.module_days},
           {"rows", r.rows},
           {"poll_interval_s", static_cast<double>(r.poll_interval_ms) / 1000.0},
           {"horizon_s", static_cast<double>(r.horizon_ms) / 1000.0},
           {"rules", std::move(rules)},
           {"live", totalsJson(r.live)},
           {"shadow", totalsJson(r.shadow)},
           {"false_alarms_per_1000_module_days", r.live.false_alarms_per_1000_module_days},
           {"events", std::move(events)},
           {"agreement",
            {{"matched", r.agreement.matched},
             {"recorded", r.agreement.recorded},
             {"not_replayable", r.agreement.not_replayable},
             {"tolerance_s", static_cast<double>(r.agreement.tolerance_ms) / 1000.0},
             {"lost", std::move(lost)},
             {"unreproduced", std::move(unreproduced)},
             {"replay_only", std::move(replay_only)}}},
           {"notes", r.notes}};
  if (r.compare) {
    json rows = json::array();
    for (const auto& c : *r.compare) {
      rows.push_back({{"rule", c.rule},
                      {"both", c.both},
                      {"only_candidate", c.only_candidate},
                      {"only_running", c.only_running},
                      {"candidate_false_alarms", c.candidate_false_alarms},
                      {"running_false_alarms", c.running_false_alarms}});
    }
    out["compare"] = std::move(rows);
  }
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string formatBacktestTable(const BacktestReport& r) {
  std::string out;
  out += "history " + r.database + " (schema " + std::to_string(r.schema_version) + ")";
  if (r.from_ms && r.until_ms) out += ", " + formatRfc3339Ms(*r.from_ms) + " to " + formatRfc3339Ms(*r.until_ms);
  out += "\n" + std::to_string(r.modules) + " modules, " + fixed(r.module_days, 1) + " module-days, " +
         std::to_string(r.rows) + " stored rows, poll interval " + duration(r.poll_interval_ms / 1000.0) +
         ", horizon " + duration(r.horizon_ms / 1000.0) + ", rules: " + r.rules_source + "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& x : r.rules) {
    rows.push_back({x.rule, x.shadow ? "shadow" : "live", std::to_string(x.raised), std::to_string(x.followed_by_event),
                    std::to_string(x.after_event), std::to_string(x.false_alarms),
                    fixed(x.false_alarms_per_1000_module_days, 2), std::to_string(x.events_preceded),
                    duration(percentile(x.lead_times_s, 0.5)), duration(percentile(x.lead_times_s, 0.9))});
  }
  out += formatTextTable({"RULE", "MODE", "RAISED", "BEFORE_EVENT", "AFTER_EVENT", "FALSE", "FALSE/1000MD",
                          "EVENTS_CAUGHT", "LEAD_P50", "LEAD_P90"},
                         rows);
  const auto totals = [&](const char* name, const Totals& t) {
    out += std::string(name) + ": " + std::to_string(t.raised) + " raised, " + std::to_string(t.followed_by_event) +
           " before an event, " + std::to_string(t.after_event) + " after one, " + std::to_string(t.false_alarms) +
           " false (" + fixed(t.false_alarms_per_1000_module_days, 2) + " per 1,000 module-days); " +
           std::to_string(t.events) + " events, " + std::to_string(t.caught) + " caught, " + std::to_string(t.missed) +
           " missed; precision " + ratio(t.precision) + ", recall " + ratio(t.recall) + "\n";
  };
  out += "\n";
  totals("live rules", r.live);
  if (r.shadow.raised > 0 ||
      std::any_of(r.rules.begin(), r.rules.end(), [](const RuleResult& x) { return x.shadow; })) {
    totals("shadow rules", r.shadow);
  }
  if (!r.events.empty()) {
    out += "\nevents\n";
    std::vector<std::vector<std::string>> ev;
    for (const auto& e : r.events) {
      ev.push_back({formatRfc3339Ms(e.event.time_ms), where(e.event.target, e.event.port, e.event.lane),
                    std::string(toString(e.event.kind)), e.preceded_by.value_or("MISSED"), duration(e.lead_s),
                    e.shadow_preceded_by.value_or("-"), e.suspect_rank ? "#" + std::to_string(*e.suspect_rank) : "-"});
    }
    out += formatTextTable({"TIME", "WHERE", "KIND", "PRECEDED_BY", "LEAD", "SHADOW", "RANK"}, ev);
  }
  const Agreement& a = r.agreement;
  out += "\nagreement with the findings recorded live: " + std::to_string(a.matched) + "/" +
         std::to_string(a.recorded) + " reproduced (raised within " + duration(a.tolerance_ms / 1000.0) + ")";
  if (a.not_replayable > 0) {
    out += "; " + std::to_string(a.not_replayable) + " of rules history cannot replay";
  }
  if (!a.replay_only.empty()) out += "; " + std::to_string(a.replay_only.size()) + " raised only by the replay";
  out += "\n";
  for (const auto& l : a.lost) {
    out += "  lost: " + l.rule + ", " + std::to_string(l.unreproduced) + " of " + std::to_string(l.recorded) +
           " not reproduced: " + l.why + "\n";
  }
  // Each one (all of them in the JSON's `unreproduced`).
  constexpr std::size_t kListed = 20;
  for (std::size_t i = 0; i < a.unreproduced.size() && i < kListed; ++i) {
    const auto& u = a.unreproduced[i];
    out += "  not reproduced: " + formatRfc3339Ms(u.finding.start_ms) + " " +
           where(u.finding.target, u.finding.port, u.finding.lane) + " " + u.finding.rule + "\n";
  }
  if (a.unreproduced.size() > kListed) {
    out += "  ... and " + std::to_string(a.unreproduced.size() - kListed) + " more (--format json lists them all)\n";
  }
  if (r.compare) {
    out += "\ncandidate against the running rules\n";
    std::vector<std::vector<std::string>> cmp;
    for (const auto& c : *r.compare) {
      cmp.push_back({c.rule, std::to_string(c.both), std::to_string(c.only_candidate), std::to_string(c.only_running),
                     std::to_string(c.candidate_false_alarms), std::to_string(c.running_false_alarms)});
    }
    out += formatTextTable({"RULE", "BOTH", "ONLY_CANDIDATE", "ONLY_RUNNING", "CANDIDATE_FALSE", "RUNNING_FALSE"}, cmp);
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

}  // namespace opticsd
