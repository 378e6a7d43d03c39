#include "daemon/backtest/backtest.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "daemon/backtest/event_labeler.hpp"
#include "daemon/backtest/history_preparation.hpp"
#include "daemon/backtest/stored_history.hpp"
#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/rules_engine.hpp"

namespace opticsd {
namespace {

constexpr double kDayMs = 86'400'000.0;

// Keeps what a replayed engine raised: one entry per finding, its end and
// worst severity updated in place.
class CaptureSink : public FindingSink {
 public:
  explicit CaptureSink(std::vector<BiasBaseline> baselines) : baselines_(std::move(baselines)) {}
  void record(const Finding& f) override {
    auto key = std::tuple(f.target, f.port, f.lane, f.rule, f.start_ms);
    const auto [it, fresh] = index_.try_emplace(std::move(key), findings.size());
    if (fresh) {
      findings.push_back(f);
    } else {
      findings[it->second] = f;
    }
  }
  void replaceSuspects(const std::string&, std::vector<Suspect>) override {}
  std::vector<BiasBaseline> takeStoredBaselines() override { return std::move(baselines_); }

  std::vector<Finding> findings;

 private:
  std::vector<BiasBaseline> baselines_;
  std::map<std::tuple<std::string, std::string, int, std::string, std::int64_t>, std::size_t> index_;
};

std::optional<int> suspectRank(const RulesEngine& engine, const std::string& target, const std::string& port) {
  const auto suspects = engine.suspects();
  for (std::size_t i = 0; i < suspects.size(); ++i) {
    if (suspects[i].target == target && suspects[i].port == port) return static_cast<int>(i + 1);
  }
  return std::nullopt;
}

using ModuleKey = std::pair<std::string, std::string>;

}  // namespace

Judgement judgeFindings(const std::vector<Finding>& findings, std::vector<EventResult>& events, const RuleSet& rules,
                        std::int64_t horizon_ms, double module_days) {
  std::map<ModuleKey, std::vector<std::int64_t>> event_times;
  for (const auto& e : events) event_times[{e.event.target, e.event.port}].push_back(e.event.time_ms);
  for (auto& [k, v] : event_times) std::sort(v.begin(), v.end());
  std::map<std::string, RuleResult> per_rule;
  for (const RuleSpec& r : rules.rules) {
    RuleParams p;
    p.apply(r.base);
    if (!p.enabled) continue;
    per_rule[r.name].rule = r.name;
    per_rule[r.name].shadow = r.shadow;
  }
  Judgement out;
  for (const Finding& f : findings) {
    RuleResult& r = per_rule[f.rule];
    r.rule = f.rule;
    r.shadow = f.shadow;
    ++r.raised;
    Totals& t = f.shadow ? out.shadow : out.live;
    ++t.raised;
    const auto it = event_times.find({f.target, f.port});
    if (it != event_times.end()) {
      const auto& times = it->second;
      const auto next = std::lower_bound(times.begin(), times.end(), f.start_ms);
      if (next != times.end() && *next - f.start_ms <= horizon_ms) {
        ++r.followed_by_event;
        ++t.followed_by_event;
        r.lead_times_s.push_back(static_cast<double>(*next - f.start_ms) / 1000.0);
        continue;
      }
      if (next != times.begin() && f.start_ms - *std::prev(next) <= horizon_ms) {
        ++r.after_event;
        ++t.after_event;
        continue;
      }
    }
    ++r.false_alarms;
    ++t.false_alarms;
  }
  // Each event: the earliest live (and shadow) finding on its module within the horizon before it.
  std::map<ModuleKey, std::vector<const Finding*>> by_module;
  for (const Finding& f : findings) by_module[{f.target, f.port}].push_back(&f);
  for (EventResult& e : events) {
    e.preceded_by.reset();
    e.lead_s.reset();
    e.shadow_preceded_by.reset();
    std::set<std::string> preceding;
    std::optional<std::int64_t> live_start, shadow_start;
    if (const auto it = by_module.find({e.event.target, e.event.port}); it != by_module.end()) {
      for (const Finding* f : it->second) {
        if (f->start_ms > e.event.time_ms || e.event.time_ms - f->start_ms > horizon_ms) continue;
        preceding.insert(f->rule);
        auto& start = f->shadow ? shadow_start : live_start;
        auto& rule = f->shadow ? e.shadow_preceded_by : e.preceded_by;
        if (!start || f->start_ms < *start) {
          start = f->start_ms;
          rule = f->rule;
        }
      }
    }
    if (live_start) e.lead_s = static_cast<double>(e.event.time_ms - *live_start) / 1000.0;
    for (const auto& name : preceding) ++per_rule[name].events_preceded;
    ++out.live.events;
    ++out.shadow.events;
    ++(e.preceded_by ? out.live.caught : out.live.missed);
    ++(e.shadow_preceded_by ? out.shadow.caught : out.shadow.missed);
  }
  const auto rate = [&](std::size_t n) { return module_days > 0 ? 1000.0 * static_cast<double>(n) / module_days : 0; };
  for (Totals* t : {&out.live, &out.shadow}) {
    t->false_alarms_per_1000_module_days = rate(t->false_alarms);
    if (t->raised > 0) {
      t->precision = static_cast<double>(t->followed_by_event + t->after_event) / static_cast<double>(t->raised);
    }
    if (t->events > 0) t->recall = static_cast<double>(t->caught) / static_cast<double>(t->events);
  }
  for (auto& [name, r] : per_rule) {
    r.false_alarms_per_1000_module_days = rate(r.false_alarms);
    std::sort(r.lead_times_s.begin(), r.lead_times_s.end());
    out.rules.push_back(std::move(r));
  }
  return out;
}

namespace {

bool sameFinding(const Finding& a, const Finding& b, std::int64_t tolerance_ms) {
  return a.target == b.target && a.port == b.port && a.lane == b.lane && a.rule == b.rule &&
         std::llabs(a.start_ms - b.start_ms) <= tolerance_ms;
}

// Pairs `left` with `right` (each finding at most once); returns, per left
// finding, whether it found its pair, and marks the right ones used.
std::vector<bool> pair(const std::vector<Finding>& left, const std::vector<Finding>& right, std::int64_t tolerance_ms,
                       std::vector<bool>& right_used) {
  std::map<std::tuple<std::string, std::string, int, std::string>, std::vector<std::size_t>> index;
  for (std::size_t i = 0; i < right.size(); ++i) {
    index[{right[i].target, right[i].port, right[i].lane, right[i].rule}].push_back(i);
  }
  right_used.assign(right.size(), false);
  std::vector<bool> found(left.size(), false);
  for (std::size_t i = 0; i < left.size(); ++i) {
    const auto it = index.find({left[i].target, left[i].port, left[i].lane, left[i].rule});
    if (it == index.end()) continue;
    for (std::size_t j : it->second) {
      if (!right_used[j] && sameFinding(left[i], right[j], tolerance_ms)) {
        right_used[j] = true;
        found[i] = true;
        break;
      }
    }
  }
  return found;
}

std::string formatDouble(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

std::string formatMinutes(std::chrono::milliseconds d) {
  const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(d).count();
  return minutes > 0 ? std::to_string(minutes) + "m" : std::to_string(d.count()) + "ms";
}

// The stored tolerance a metric is kept with (deadband.hpp: by the unit in its key).
std::string toleranceOf(std::string_view key, const DeadbandOptions& d) {
  const auto ends = [&](std::string_view suffix) {
    return key.size() >= suffix.size() && key.substr(key.size() - suffix.size()) == suffix;
  };
  if (ends("_dbm") || ends("_decibels")) return "storage.deadband.power_db " + formatDouble(d.power_db) + " dB";
  if (ends("_celsius")) return "storage.deadband.temperature_c " + formatDouble(d.temperature_c) + " C";
  if (ends("_volts")) return "storage.deadband.voltage_v " + formatDouble(d.voltage_v) + " V";
  if (key.find("ber") != std::string_view::npos || key.find("error") != std::string_view::npos) {
    return "storage.deadband.ber_decades " + formatDouble(d.ber_decades) + " decades";
  }
  if (ends("_percent")) return "storage.deadband.percent_points " + formatDouble(d.percent_points) + " points";
  return "storage.deadband.relative " + formatDouble(d.relative * 100) + " %";
}

// Why the replay may not reproduce a recorded finding of `rule`: the input
// history does not keep, or the tolerance it keeps the rule's metric with.
// `thresholds`: the history keeps the modules' own thresholds (schema 9 on).
std::string whyHidden(const Finding& f, const RuleSet& rules, const DeadbandOptions& d, bool thresholds) {
  const RuleSpec* spec = rules.find(f.rule);
  if (spec == nullptr || spec->type == nullptr) {
    return "rule " + f.rule + " is not in the running rules (changed since it was recorded?)";
  }
  const std::string type(spec->type->name);
  const std::string heartbeat =
      "; between stored rows (a heartbeat at least every " + formatMinutes(d.heartbeat) + ") the value is held";
  bool module_levels = spec->base.module_levels.value_or(false);
  for (const auto& o : spec->overrides) module_levels = module_levels || o.patch.module_levels.value_or(false);
  const std::string own_limits = thresholds ? "" : " (not kept in history before schema 9)";
  if (type == "module_alarm") {
    return "rule " + f.rule + " (module_alarm) judges the module's latched alarm and warning flags, which history " +
           "does not keep, as well as its own thresholds" + own_limits;
  }
  if (type == "fec_uncorrectable") {
    return "rule " + f.rule +
           " counts uncorrectable codewords per poll; FEC counters store no row of their own, so "
           "counts between two stored rows arrive as one" +
           heartbeat;
  }
  if (type == "link_loss") return "rule " + f.rule + " needs the far end's Tx power (LLDP neighbours are not stored)";
  if (type == "flapping") {
    return "rule " + f.rule +
           " counts link-down events and LOS/LOL changes, each stored as it happens; a bounce "
           "within one poll is seen only as a count";
  }
  std::string metric = spec->metric;
  if (metric.empty()) {
    if (type == "ber_slope") metric = "pre_fec_ber_ratio";
    if (type == "bias_drift" || type == "tx_bias_limit") metric = "tx_bias_milliamperes";
    if (type == "temperature_climb") metric = "temperature_celsius";
    if (type == "lane_dark") metric = "rx_power_dbm";
    if (type == "forecast") {
      return "rule " + f.rule +
             " (forecast) extrapolates BER, Rx power and temperature toward the module's own alarm levels" +
             own_limits + " or else the rules' limits; those values are stored only beyond " +
             toleranceOf("pre_fec_ber_ratio", d) + ", " + toleranceOf("rx_power_dbm", d) + ", " +
             toleranceOf("temperature_celsius", d) + heartbeat;
    }
  }
  std::string why = "rule " + f.rule + " (" + type + ") needs " + metric + ", stored only beyond " +
                    toleranceOf(metric, d) + heartbeat;
  if (module_levels && !thresholds) why += "; its module_levels (the module's own low levels)" + own_limits;
  return why;
}

// module_alarm judges the module's own thresholds and latched flags: without
// the thresholds (history before schema 9) its findings cannot be replayed at
// all; with them, those of a crossed threshold can (a flag alone cannot).
bool replayableRule(const std::string& rule, const RuleSet& rules, bool thresholds) {
  const RuleSpec* spec = rules.find(rule);
  return thresholds || spec == nullptr || spec->type == nullptr || std::string_view(spec->type->name) != "module_alarm";
}

}  // namespace

Result<BacktestReport> runBacktest(const BacktestOptions& options, bool compare) {
  if (compare && !options.candidate) return fail("--compare needs a candidate rules file (--rules)");
  auto opened = StoredHistory::open(options.db);
  if (!opened) return tl::unexpected(opened.error());
  StoredHistory& history = **opened;

  BacktestReport report;
  report.database = options.db.string();
  report.schema_version = history.schemaVersion();
  report.migrated_copy = history.migratedCopy();
  report.rules_source = options.candidate ? options.candidate_source : options.running_source;
  report.horizon_ms = options.horizon_ms;
  report.modules = history.modules().size();
  if (report.migrated_copy) {
    report.notes.push_back("schema " + std::to_string(report.schema_version) +
                           ": read from a migrated temporary copy; the file itself was not changed");
  }
  const auto span = history.span();
  if (!span) {
    report.notes.push_back("the history holds no stored rows: nothing to replay");
    return report;
  }
  std::int64_t since = options.since_ms.value_or(span->first);
  if (options.since_back_ms) since = std::max(span->first, span->second - *options.since_back_ms);
  const std::int64_t until = options.until_ms.value_or(span->second + 1);
  report.from_ms = since;
  report.until_ms = std::min(until, span->second + 1);

  auto recorded = history.recordedFindings(since, until);
  if (!recorded) return tl::unexpected(recorded.error());
  auto recorded_before = history.recordedFindings(std::numeric_limits<std::int64_t>::min(), until);
  if (!recorded_before) return tl::unexpected(recorded_before.error());
  auto stored_baselines = history.baselines();
  if (!stored_baselines) return tl::unexpected(stored_baselines.error());
  // Baselines learned before the period are what the daemon had at its start.
  std::erase_if(*stored_baselines, [&](const BiasBaseline& b) { return b.learned_ms >= since; });

  CaptureSink running_sink(*stored_baselines);
  RulesEngine running(options.running, options.topology, &running_sink);
  std::optional<CaptureSink> candidate_sink;
  std::unique_ptr<RulesEngine> candidate;
  if (options.candidate) {
    candidate_sink.emplace(*stored_baselines);
    candidate = std::make_unique<RulesEngine>(*options.candidate, options.topology, &*candidate_sink);
  }
  RulesEngine& judged_engine = candidate ? *candidate : running;

  HistoryPreparation preparation;
  EventLabeler labeler(options.running, *recorded_before, options.episode_gap_ms);
  std::vector<HistoryEvent> events;
  std::vector<std::optional<int>> ranks;
  std::vector<std::int64_t> first_ms(history.modules().size(), -1), last_ms(history.modules().size(), -1),
      min_gap(history.modules().size(), std::numeric_limits<std::int64_t>::max());
  auto walked = history.forEachPoll(since, until, [&](StoredPoll& poll) {
    report.rows += poll.samples.size();
    preparation.preparePoll(*poll.target, poll.ts, poll.samples, poll.checked);
    for (std::size_t i = 0; i < poll.samples.size(); ++i) {
      const Sample& s = poll.samples[i];
      const std::uint32_t module = poll.modules[i];
      const std::size_t before = events.size();
      labeler.observe(module, s, events);
      for (std::size_t e = before; e < events.size(); ++e)
        ranks.push_back(suspectRank(judged_engine, s.target, s.port));
      auto& last = last_ms[module];
      if (last >= 0) min_gap[module] = std::min(min_gap[module], s.timestamp_ms - last);
      if (first_ms[module] < 0) first_ms[module] = s.timestamp_ms;
      last = s.timestamp_ms;
    }
    // One evaluation per poll of a target, as the daemon does: the rules'
    // per-target work (the common temperature mode, the suspects) once a poll.
    running.evaluate(*poll.target, poll.samples);
    if (candidate) candidate->evaluate(*poll.target, poll.samples);
  });
  if (!walked) return tl::unexpected(walked.error());

  std::vector<std::int64_t> gaps;
  for (std::size_t m = 0; m < first_ms.size(); ++m) {
    if (first_ms[m] < 0) continue;
    report.module_days += static_cast<double>(*report.until_ms - first_ms[m]) / kDayMs;
    if (min_gap[m] != std::numeric_limits<std::int64_t>::max() && min_gap[m] > 0) gaps.push_back(min_gap[m]);
  }
  if (!gaps.empty()) {
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
    report.poll_interval_ms = gaps[gaps.size() / 2];
  }

  for (std::size_t i = 0; i < events.size(); ++i) {
    EventResult e;
    e.event = std::move(events[i]);
    e.suspect_rank = ranks[i];
    report.events.push_back(std::move(e));
  }
  const RuleSet& judged_rules = options.candidate ? *options.candidate : options.running;
  const std::vector<Finding>& judged_findings = candidate ? candidate_sink->findings : running_sink.findings;
  Judgement judged =
      judgeFindings(judged_findings, report.events, judged_rules, options.horizon_ms, report.module_days);
  report.rules = std::move(judged.rules);
  report.live = judged.live;
  report.shadow = judged.shadow;
  report.findings = judged_findings;

  // Agreement: the running rules against what the daemon recorded.
  Agreement& a = report.agreement;
  a.tolerance_ms = std::max<std::int64_t>(2 * report.poll_interval_ms, 1000);
  std::vector<bool> replay_used;
  const auto found = pair(*recorded, running_sink.findings, a.tolerance_ms, replay_used);
  for (std::size_t i = 0; i < recorded->size(); ++i) {
    const bool replayable = replayableRule((*recorded)[i].rule, options.running, history.keepsThresholds());
    a.recorded += replayable ? 1 : 0;
    a.not_replayable += replayable ? 0 : 1;
    if (found[i]) {
      a.matched += replayable ? 1 : 0;
    } else {
      a.unreproduced.push_back(
          {(*recorded)[i], whyHidden((*recorded)[i], options.running, options.deadband, history.keepsThresholds())});
    }
  }
  for (std::size_t j = 0; j < running_sink.findings.size(); ++j) {
    if (!replay_used[j]) a.replay_only.push_back(running_sink.findings[j]);
  }
  std::map<std::string, LostAgreement> lost;
  for (const Finding& f : *recorded) ++lost[f.rule].recorded;
  for (const Unreproduced& u : a.unreproduced) {
    LostAgreement& l = lost[u.finding.rule];
    l.rule = u.finding.rule;
    ++l.unreproduced;
    l.why = u.why;
  }
  for (auto& [rule, l] : lost) {
    if (l.unreproduced > 0) a.lost.push_back(std::move(l));
  }

  if (compare) {
    std::vector<bool> running_used;
    const auto in_running = pair(candidate_sink->findings, running_sink.findings, a.tolerance_ms, running_used);
    std::vector<EventResult> scratch = report.events;
    const Judgement running_judged =
        judgeFindings(running_sink.findings, scratch, options.running, options.horizon_ms, report.module_days);
    std::map<std::string, CompareRow> rows;
    for (const auto& r : report.rules) {
      rows[r.rule].rule = r.rule;
      rows[r.rule].candidate_false_alarms = r.false_alarms;
    }
    for (const auto& r : running_judged.rules) {
      rows[r.rule].rule = r.rule;
      rows[r.rule].running_false_alarms = r.false_alarms;
    }
    for (std::size_t i = 0; i < candidate_sink->findings.size(); ++i) {
      auto& row = rows[candidate_sink->findings[i].rule];
      ++(in_running[i] ? row.both : row.only_candidate);
    }
    for (std::size_t j = 0; j < running_sink.findings.size(); ++j) {
      if (!running_used[j]) ++rows[running_sink.findings[j].rule].only_running;
    }
    report.compare.emplace();
    for (auto& [name, row] : rows) report.compare->push_back(std::move(row));
  }

  report.notes.push_back(history.keepsThresholds()
                             ? "history keeps each module's own thresholds but not its latched alarm flags: "
                               "module_alarm is judged on crossed thresholds only"
                             : "history of schema " + std::to_string(report.schema_version) +
                                   " keeps no module thresholds or latched alarm flags: module_alarm and "
                                   "module_levels are judged without them");
  report.notes.push_back("findings cleared by hand: opticsd records no such action, so none are labelled");
  return report;
}

}  // namespace opticsd
