#pragma once
// `opticsd backtest`: the stored history replayed through the rules engine on
// the history's own clock, through the daemon's preparation, and judged
// against the events the same history holds (event_labeler.hpp).
//
// Per rule and overall: findings raised; those followed by an event on the
// same module within the horizon (with lead times); those raised after an
// event (the failure was already there); the rest, false alarms, also per
// 1,000 module-days; events with no finding before them (misses) and the
// module's suspect rank when each happened. Rules in `mode: shadow` are
// reported beside the live ones and left out of the overall figures.
//
// Faithfulness: the running rules replayed must reproduce the findings the
// daemon recorded live. `agreement` counts those matched (same module, lane
// and rule, raised within `tolerance_ms`) and says, for each one that is not,
// which stored tolerance or missing input hides what the rule needed.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/backtest/history_event.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/rules/rule_config.hpp"
#include "daemon/store/store_options.hpp"
#include "daemon/topology/topology.hpp"
#include "drivers/result.hpp"

namespace opticsd {

struct BacktestOptions {
  std::filesystem::path db;
  RuleSet running;  // the daemon's rules (its config's, or the shipped set)
  std::string running_source = "shipped rules";
  std::optional<RuleSet> candidate;  // --rules: replayed instead of (and, for --compare, beside) the running ones
  std::string candidate_source;
  Topology topology;                          // the config's (LLDP neighbours are not stored)
  DeadbandOptions deadband;                   // what the store ran with, to name what hides a finding
  std::optional<std::int64_t> since_ms;       // default: the first stored row
  std::optional<std::int64_t> since_back_ms;  // instead: this long before the last stored row (--since 30d)
  std::optional<std::int64_t> until_ms;       // default: after the last stored row
  std::int64_t horizon_ms = 24 * 3600 * 1000;
  std::int64_t episode_gap_ms = 3600 * 1000;  // a repeat of an event within this is the same episode
};

struct RuleResult {
  std::string rule;
  bool shadow = false;
  std::size_t raised = 0;
  std::size_t followed_by_event = 0;
  std::size_t after_event = 0;  // raised within the horizon after an event on its module
  std::size_t false_alarms = 0;
  double false_alarms_per_1000_module_days = 0;
  std::size_t events_preceded = 0;  // events this rule had a finding before
  std::vector<double> lead_times_s;
};

struct EventResult {
  HistoryEvent event;
  std::optional<std::string> preceded_by;  // the rule of the earliest live finding before it
  std::optional<double> lead_s;
  std::optional<std::string> shadow_preceded_by;  // the same among shadow rules
  std::optional<int> suspect_rank;                // the module's rank among all suspects just before it
};

struct Totals {
  std::size_t raised = 0;
  std::size_t followed_by_event = 0;
  std::size_t after_event = 0;
  std::size_t false_alarms = 0;
  double false_alarms_per_1000_module_days = 0;
  std::size_t events = 0;
  std::size_t caught = 0;  // events with a finding before them
  std::size_t missed = 0;
  std::optional<double> precision;  // (followed + after) / raised
  std::optional<double> recall;     // caught / events
};

struct Unreproduced {
  Finding finding;  // as the daemon recorded it
  std::string why;  // the rule and the stored tolerance or missing input that hides it
};

// A rule whose recorded findings the replay did not all reproduce, and why.
struct LostAgreement {
  std::string rule;
  std::size_t recorded = 0;
  std::size_t unreproduced = 0;
  std::string why;  // the stored tolerance or missing input that hides what the rule needs
};

struct Agreement {
  std::size_t matched = 0;
  std::size_t recorded = 0;        // recorded findings of rules history can replay
  std::size_t not_replayable = 0;  // of rules judging what history does not keep (listed in unreproduced)
  std::int64_t tolerance_ms = 0;
  std::vector<Unreproduced> unreproduced;
  std::vector<LostAgreement> lost;   // per rule, in rule order
  std::vector<Finding> replay_only;  // raised by the replay, not recorded live
};

// --compare: what one rule set raised that the other did not.
struct CompareRow {
  std::string rule;
  std::size_t both = 0;
  std::size_t only_candidate = 0;
  std::size_t only_running = 0;
  std::size_t candidate_false_alarms = 0;
  std::size_t running_false_alarms = 0;
};

struct BacktestReport {
  std::string database;
  int schema_version = 0;
  bool migrated_copy = false;
  std::string rules_source;
  std::optional<std::int64_t> from_ms, until_ms;
  std::size_t modules = 0;
  double module_days = 0;
  std::size_t rows = 0;
  std::int64_t poll_interval_ms = 0;  // inferred from the closest rows of a module
  std::int64_t horizon_ms = 0;
  std::vector<RuleResult> rules;
  Totals live, shadow;
  std::vector<EventResult> events;
  Agreement agreement;
  std::vector<Finding> findings;  // the replay's, of the rules judged
  std::optional<std::vector<CompareRow>> compare;
  std::vector<std::string> notes;
};

// Findings judged against events (their suspect ranks kept): per rule and
// totals, live and shadow apart; sets each event's preceded_by and lead.
struct Judgement {
  std::vector<RuleResult> rules;
  Totals live, shadow;
};
Judgement judgeFindings(const std::vector<Finding>& findings, std::vector<EventResult>& events, const RuleSet& rules,
                        std::int64_t horizon_ms, double module_days);

// `compare`: also replay the running rules and set report.compare (needs a candidate).
Result<BacktestReport> runBacktest(const BacktestOptions& options, bool compare = false);

}  // namespace opticsd
