// The backtest over a history the daemon's own parts wrote for a simulated
// fleet with known degradations (sim_fleet_history.hpp): what it reports
// must be what happened, within the history's resolution.
#include "daemon/backtest/backtest.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>

#include "daemon/backtest/backtest_format.hpp"
#include "tests/unit/backtest/sim_fleet_history.hpp"

namespace opticsd {
namespace {

constexpr int kHours = 7;

BacktestReport backtest(const std::filesystem::path& db, const DeadbandOptions& deadband) {
  BacktestOptions o;
  o.db = db;
  o.running = defaultRuleSet();
  o.deadband = deadband;
  auto report = runBacktest(o);
  EXPECT_TRUE(report) << (report ? "" : report.error().message);
  return report ? *report : BacktestReport{};
}

bool injectedAt(const test::FleetHistory& fleet, const std::string& target, const std::string& port) {
  return std::any_of(fleet.injected.begin(), fleet.injected.end(),
                     [&](const test::Injected& i) { return i.target == target && i.port == port; });
}

TEST(BacktestSimFleet, MatchesWhatWasInjectedAndWhatTheDaemonRecorded) {
  test::TempFile db("history.db");
  const DeadbandOptions deadband;  // the defaults
  const auto fleet = test::writeFleetHistory(db.path(), deadband, kHours);
  ASSERT_FALSE(fleet.live.empty());
  const BacktestReport r = backtest(db.path(), deadband);
  SCOPED_TRACE(formatBacktestTable(r));

  // Every finding the daemon recorded is reproduced from history, and the
  // replay raises none it did not: the default deadband keeps what the
  // shipped rules need, the polls around each finding are stored at full
  // resolution, and each module's own thresholds are kept (module_alarm,
  // alarm_forecast toward the module's own alarm level).
  EXPECT_GT(r.agreement.recorded, 10u);
  EXPECT_EQ(r.agreement.matched, r.agreement.recorded);
  EXPECT_EQ(r.agreement.not_replayable, 0u);
  for (const auto& u : r.agreement.unreproduced) ADD_FAILURE() << u.finding.rule << ": " << u.why;
  for (const auto& f : r.agreement.replay_only) ADD_FAILURE() << "replay only: " << f.port << " " << f.rule;
  EXPECT_TRUE(r.agreement.lost.empty());
  EXPECT_TRUE(
      std::any_of(fleet.live.begin(), fleet.live.end(), [](const Finding& f) { return f.rule == "module_alarm"; }));

  // The truth at full resolution (every poll, not the stored rows), judged
  // the same way.
  const std::vector<Finding>& live = fleet.live;
  std::vector<EventResult> truth;
  for (const auto& e : fleet.truth_events) truth.push_back({e, {}, {}, {}, {}});
  const Judgement expected = judgeFindings(live, truth, defaultRuleSet(), r.horizon_ms, r.module_days);
  const std::int64_t resolution = deadband.heartbeat.count();

  ASSERT_EQ(r.events.size(), truth.size());
  for (std::size_t i = 0; i < truth.size(); ++i) {
    const auto& want = truth[i];
    const auto it = std::find_if(r.events.begin(), r.events.end(), [&](const EventResult& e) {
      return e.event.target == want.event.target && e.event.port == want.event.port &&
             e.event.lane == want.event.lane && e.event.kind == want.event.kind;
    });
    ASSERT_NE(it, r.events.end()) << want.event.port << " " << toString(want.event.kind);
    EXPECT_GE(it->event.time_ms, want.event.time_ms);
    EXPECT_LE(it->event.time_ms - want.event.time_ms, resolution);
    EXPECT_EQ(it->preceded_by.has_value(), want.preceded_by.has_value()) << want.event.port;
    if (it->lead_s && want.lead_s) {
      EXPECT_LE(std::abs(*it->lead_s - *want.lead_s), resolution / 1000.0);
    }
    // Events warned of ahead were on a module ranked among the degraded ones.
    if (it->lead_s && *it->lead_s > 0) {
      ASSERT_TRUE(it->suspect_rank.has_value()) << want.event.port;
      EXPECT_LE(*it->suspect_rank, static_cast<int>(fleet.injected.size()));
    }
  }
  EXPECT_EQ(r.live.events, expected.live.events);
  EXPECT_EQ(r.live.caught, expected.live.caught);
  EXPECT_EQ(r.live.false_alarms, expected.live.false_alarms);
  ASSERT_TRUE(r.live.recall && expected.live.recall);
  EXPECT_DOUBLE_EQ(*r.live.recall, *expected.live.recall);
  ASSERT_TRUE(r.live.precision && expected.live.precision);
  EXPECT_NEAR(*r.live.precision, *expected.live.precision, 0.05);

  // What was injected: each degraded port has events and findings; the
  // healthy ports have neither.
  for (const auto& i : fleet.injected) {
    EXPECT_TRUE(std::any_of(r.events.begin(), r.events.end(), [&](const EventResult& e) {
      return e.event.port == i.port && e.event.target == i.target;
    })) << i.port;
  }
  for (const auto& f : r.findings) {
    EXPECT_TRUE(injectedAt(fleet, f.target, f.port)) << f.target << " " << f.port;
  }
  for (const auto& e : r.events) {
    EXPECT_TRUE(injectedAt(fleet, e.event.target, e.event.port)) << e.event.port;
  }
  EXPECT_EQ(r.live.false_alarms, 0u);
}

// A daemon whose writer falls behind writes several polls in one batch: the
// rows kept around a finding must still be those of the finding's own polls
// (the store writes each finding event after the cycle it came with), so the
// replay still reproduces every recorded finding.
TEST(BacktestSimFleet, AgreementHoldsWhenTheWriterTakesManyPollsABatch) {
  test::TempFile db("history.db");
  const DeadbandOptions deadband;
  const auto fleet = test::writeFleetHistory(db.path(), deadband, kHours, 20);
  ASSERT_FALSE(fleet.live.empty());
  const BacktestReport r = backtest(db.path(), deadband);
  SCOPED_TRACE(formatBacktestTable(r));
  EXPECT_GT(r.agreement.recorded, 10u);
  EXPECT_EQ(r.agreement.matched, r.agreement.recorded);
  EXPECT_TRUE(r.agreement.lost.empty());
  EXPECT_TRUE(r.agreement.replay_only.empty());
}

// A wider deadband and a rarer heartbeat drop what some rules need: the
// report says which findings it could not reproduce, naming the rule and
// the tolerance that hides it.
TEST(BacktestSimFleet, AWidenedDeadbandIsNamedWhereItHidesAFinding) {
  test::TempFile db("history.db");
  DeadbandOptions wide;
  wide.heartbeat = std::chrono::hours(2);
  wide.power_db = 3;
  wide.ber_decades = 2;
  wide.temperature_c = 5;
  wide.relative = 0.5;
  wide.finding_context_rows = 0;
  const auto fleet = test::writeFleetHistory(db.path(), wide, kHours);
  const BacktestReport r = backtest(db.path(), wide);
  SCOPED_TRACE(formatBacktestTable(r));
  ASSERT_GT(r.agreement.recorded, 0u);
  EXPECT_LT(r.agreement.matched, r.agreement.recorded);
  // Per rule that lost agreement: how many, and the tolerance that hid them.
  ASSERT_FALSE(r.agreement.lost.empty());
  std::size_t lost = 0;
  bool widened_named = false;
  for (const auto& l : r.agreement.lost) {
    EXPECT_NE(l.why.find("rule " + l.rule), std::string::npos) << l.why;
    EXPECT_GT(l.unreproduced, 0u);
    EXPECT_LE(l.unreproduced, l.recorded);
    lost += l.unreproduced;
    // The widened settings themselves, with their values.
    for (const char* setting : {"storage.deadband.power_db 3 dB", "storage.deadband.ber_decades 2 decades",
                                "storage.deadband.temperature_c 5 C", "a heartbeat at least every 120m"}) {
      widened_named = widened_named || l.why.find(setting) != std::string::npos;
    }
  }
  EXPECT_EQ(lost, r.agreement.unreproduced.size());
  EXPECT_TRUE(widened_named);
  for (const auto& u : r.agreement.unreproduced) {
    EXPECT_NE(u.why.find("rule " + u.finding.rule), std::string::npos) << u.why;
  }
  const std::string json = formatBacktestJson(r);
  EXPECT_NE(json.find("\"lost\""), std::string::npos);
}

// A candidate rule set against the running one: a level tightened raises
// more, a rule on trial (mode: shadow) is reported beside the live ones and
// kept out of the live totals.
TEST(BacktestSimFleet, CompareShowsWhatACandidateChangesRuleByRule) {
  test::TempFile db("history.db");
  const DeadbandOptions deadband;
  test::writeFleetHistory(db.path(), deadband, kHours);
  std::vector<ConfigIssue> issues;
  RuleSet candidate = parseRules(YAML::Load("rules:\n"
                                            "  - {name: rx_power_drop, warn_above: 1}\n"
                                            "  - {name: tx_early, type: drop, metric: tx_power_dbm, warn_above: 1,"
                                            " mode: shadow}\n"),
                                 "candidate.yaml", issues);
  ASSERT_TRUE(issues.empty()) << issues.front().format();
  BacktestOptions o;
  o.db = db.path();
  o.running = defaultRuleSet();
  o.candidate = candidate;
  o.candidate_source = "candidate.yaml";
  auto r = runBacktest(o, true);
  ASSERT_TRUE(r) << r.error().message;
  SCOPED_TRACE(formatBacktestTable(*r));
  ASSERT_TRUE(r->compare.has_value());
  const auto row = [&](const std::string& rule) {
    const auto it =
        std::find_if(r->compare->begin(), r->compare->end(), [&](const CompareRow& c) { return c.rule == rule; });
    return it == r->compare->end() ? CompareRow{} : *it;
  };
  EXPECT_EQ(row("rx_power_low").only_candidate, 0u);  // unchanged rules raise the same
  EXPECT_EQ(row("rx_power_low").only_running, 0u);
  EXPECT_GT(row("rx_power_low").both, 0u);
  EXPECT_GE(row("rx_power_drop").only_candidate + row("rx_power_drop").both, 1u);
  EXPECT_GT(row("tx_early").only_candidate, 0u);  // only the candidate has it
  const auto shadow =
      std::find_if(r->rules.begin(), r->rules.end(), [](const RuleResult& x) { return x.rule == "tx_early"; });
  ASSERT_NE(shadow, r->rules.end());
  EXPECT_TRUE(shadow->shadow);
  EXPECT_GT(shadow->raised, 0u);
  EXPECT_EQ(r->shadow.raised, shadow->raised);
  for (const auto& f : r->findings) EXPECT_EQ(f.shadow, f.rule == "tx_early") << f.rule;
  // The JSON carries what dashboards read.
  const std::string json = formatBacktestJson(*r);
  for (const char* key :
       {"\"rules\"", "\"followed_by_event\"", "\"lead_times_s\"", "\"preceded_by\"",
        "\"false_alarms_per_1000_module_days\"", "\"agreement\"", "\"compare\"", "\"mode\": \"shadow\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace opticsd
