// The tx_bias_limit rule type, added as one file and one table row: each
// lane's Tx bias against fixed mA levels, raised, escalated and cleared per
// lane with the rule's hysteresis, and its config checked like any other.
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

using test::optic;

RuleSet parse(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  return parseRules(YAML::Load(yaml), "test.yaml", issues);
}

// The rule alone, so no other rule reacts to the bias.
RuleSet biasRuleOnly() {
  std::vector<ConfigIssue> issues;
  RuleSet set = parse(R"(
defaults: false
rules:
  - {name: tx_bias_high, type: tx_bias_limit, warn_above: 12, crit_above: 15, raise_after: 2, clear_after: 2}
)",
                      issues);
  EXPECT_TRUE(issues.empty()) << issues.front().format();
  return set;
}

std::string allIssues(const std::vector<ConfigIssue>& issues) {
  std::string all;
  for (const auto& i : issues) all += i.format() + "\n";
  return all;
}

class TxBiasLimit : public ::testing::Test {
 protected:
  // One poll of a 4-lane optic at 6 mA, with the given lanes' bias set.
  void poll(std::initializer_list<std::pair<int, double>> bias) {
    Sample s = optic("sw", "p1", t_ += 30'000);
    for (const auto& [lane, ma] : bias)
      s.lanes[static_cast<std::size_t>(lane - 1)].values.set(LaneMetric::kTxBiasMilliamperes, ma);
    engine_.evaluate("sw", {s});
  }
  std::vector<Finding> active(int lane) const {
    std::vector<Finding> out;
    for (const auto& f : engine_.activeFindings()) {
      if (f.lane == lane) out.push_back(f);
    }
    return out;
  }

  test::RecordingSink sink_;
  RulesEngine engine_{biasRuleOnly(), Topology{}, &sink_};
  std::int64_t t_ = 1'000'000;
};

TEST_F(TxBiasLimit, ALaneAboveTheLevelRaisesAfterNPollsOnThatLaneOnly) {
  poll({});
  poll({{3, 13.0}});
  EXPECT_TRUE(sink_.records.empty()) << "one breaching poll must not raise with raise_after 2";
  poll({{3, 13.0}});
  ASSERT_EQ(sink_.records.size(), 1u);
  const Finding& f = sink_.records[0];
  EXPECT_EQ(f.rule, "tx_bias_high");
  EXPECT_EQ(f.lane, 3);
  EXPECT_EQ(f.severity, Severity::kWarning);
  ASSERT_TRUE(f.value);
  EXPECT_DOUBLE_EQ(*f.value, 13.0);
  EXPECT_EQ(f.detail, "tx_bias_milliamperes=13 mA above 12 mA (lane 3)");
  EXPECT_TRUE(active(1).empty());
  EXPECT_EQ(active(3).size(), 1u);

  // The suspect names it with the default closeness of a warning.
  const auto suspects = engine_.suspects();
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].reason, "tx_bias_high: tx_bias_milliamperes=13 mA above 12 mA (lane 3)");
  EXPECT_NEAR(suspects[0].score, 0.35 * (0.6 + 0.4 / 5), 1e-9);
}

TEST_F(TxBiasLimit, EachLaneRaisesEscalatesAndClearsOnItsOwn) {
  poll({{3, 13.0}});
  poll({{3, 13.0}, {1, 12.5}});
  poll({{3, 16.0}, {1, 12.5}});  // lane 3 critical in place; lane 1 raised
  ASSERT_EQ(active(3).size(), 1u);
  EXPECT_EQ(active(3)[0].severity, Severity::kCritical);
  EXPECT_EQ(active(3)[0].detail, "tx_bias_milliamperes=16 mA above 15 mA (lane 3)");
  EXPECT_EQ(active(3)[0].start_ms, sink_.records[0].start_ms);
  ASSERT_EQ(active(1).size(), 1u);
  EXPECT_EQ(active(1)[0].severity, Severity::kWarning);

  poll({{1, 12.5}});  // lane 3 back to 6 mA: one clean poll does not clear
  EXPECT_EQ(active(3).size(), 1u);
  poll({{1, 12.5}});
  EXPECT_TRUE(active(3).empty());
  EXPECT_EQ(active(1).size(), 1u) << "lane 1 is still above its level";
  ASSERT_TRUE(sink_.records.back().end_ms);
  EXPECT_EQ(sink_.records.back().lane, 3);
}

TEST_F(TxBiasLimit, AtTheLevelOrOnAnInactiveLaneIsClean) {
  for (int i = 0; i < 4; ++i) poll({{2, 12.0}});  // at the level is not above it
  Sample s = optic("sw", "p1", t_ += 30'000);
  s.lanes[1].values.set(LaneMetric::kTxBiasMilliamperes, 20.0);
  s.lanes[1].status.data_path_state = 1;  // deactivated: its reading says nothing
  engine_.evaluate("sw", {s});
  s.timestamp_ms = t_ += 30'000;
  engine_.evaluate("sw", {s});
  EXPECT_TRUE(sink_.records.empty());
}

TEST(TxBiasLimitConfig, NotShippedAndNeedsALevelAndNoMetric) {
  EXPECT_EQ(defaultRuleSet().find("tx_bias_high"), nullptr) << "no one bias limit fits every laser";
  std::vector<ConfigIssue> issues;
  parse("rules: [{name: b, type: tx_bias_limit}, {name: c, type: tx_bias_limit, metric: tx_power_dbm, warn_above: 9}]",
        issues);
  const std::string all = allIssues(issues);
  EXPECT_NE(all.find("rule 'b' (tx_bias_limit) needs at least one of"), std::string::npos) << all;
  EXPECT_NE(all.find("rule 'c' (tx_bias_limit) takes no metric"), std::string::npos) << all;
  EXPECT_EQ(issues.size(), 2u) << all;
}

}  // namespace
}  // namespace opticsd
