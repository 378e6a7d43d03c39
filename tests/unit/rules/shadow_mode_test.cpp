// Rules in `mode: shadow`: raised, recorded and exported like any other, but
// no evidence for the suspect score and marked mode="shadow" on /metrics (the
// shipped alerts leave those out, deploy/prometheus/opticsd-alerts.test.yml).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

RuleSet rulesFrom(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  return parseRules(YAML::Load(yaml), "rules.yaml", issues);
}

// rx_power_low in the mode given; the Rx level is the only one a -12 dBm lane crosses.
RuleSet rxLowIn(const std::string& mode) {
  std::vector<ConfigIssue> issues;
  RuleSet set = rulesFrom("rules:\n  - {name: rx_power_low, mode: " + mode + "}\n", issues);
  EXPECT_TRUE(issues.empty()) << (issues.empty() ? "" : issues.front().message);
  return set;
}

void runDimReceiver(RulesEngine& engine) {
  for (int i = 0; i < 4; ++i) {
    auto s = test::optic("sw", "p1", 1'000'000 + i * 30'000);
    test::setLanes(s, LaneMetric::kRxPowerDbm, -12);  // below rx_power_low's -10, above -13, on every lane
    engine.evaluate("sw", {s});
  }
}

bool hasShadowLabel(const RulesView& view) {
  for (const auto& family : view.Collect()) {
    if (family.name != "opticsd_finding") continue;
    for (const auto& m : family.metric) {
      for (const auto& l : m.label) {
        if (l.name == "mode" && l.value == "shadow") return true;
      }
    }
  }
  return false;
}

TEST(ShadowMode, ParsedPerRuleAndRejectedWhenMisspelt) {
  EXPECT_TRUE(rxLowIn("shadow").find("rx_power_low")->shadow);
  EXPECT_FALSE(rxLowIn("live").find("rx_power_low")->shadow);
  EXPECT_FALSE(defaultRuleSet().find("rx_power_low")->shadow);
  std::vector<ConfigIssue> issues;
  rulesFrom("rules:\n  - {name: rx_power_low, mode: shadwo}\n", issues);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues.front().message.find("live or shadow"), std::string::npos) << issues.front().message;
  EXPECT_GT(issues.front().line, 0);
}

TEST(ShadowMode, RaisedAndRecordedButNoSuspectAndLabelled) {
  test::RecordingSink sink;
  RulesEngine engine(rxLowIn("shadow"), Topology{}, &sink);
  runDimReceiver(engine);
  const Finding* f = sink.firstRaise("p1", "rx_power_low");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->shadow);
  const auto active = engine.activeFindings();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_TRUE(active.front().shadow);
  EXPECT_TRUE(engine.suspects().empty()) << engine.suspects().front().reason;
  EXPECT_TRUE(hasShadowLabel(*engine.view()));
}

TEST(ShadowMode, TheSameRuleLiveMakesASuspectWithoutTheLabel) {
  test::RecordingSink sink;
  RulesEngine engine(rxLowIn("live"), Topology{}, &sink);
  runDimReceiver(engine);
  const Finding* f = sink.firstRaise("p1", "rx_power_low");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->shadow);
  ASSERT_EQ(engine.suspects().size(), 1u);
  EXPECT_FALSE(hasShadowLabel(*engine.view()));
}

// Promoting a rule on trial to live (a reload) turns its active finding into evidence.
TEST(ShadowMode, PromotedOnReloadBecomesEvidence) {
  test::RecordingSink sink;
  RulesEngine engine(rxLowIn("shadow"), Topology{}, &sink);
  runDimReceiver(engine);
  ASSERT_TRUE(engine.suspects().empty());
  engine.reconfigure(rxLowIn("live"), Topology{});
  auto s = test::optic("sw", "p1", 2'000'000);
  test::setLanes(s, LaneMetric::kRxPowerDbm, -12);
  engine.evaluate("sw", {s});
  const auto active = engine.activeFindings();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_FALSE(active.front().shadow);
  EXPECT_EQ(engine.suspects().size(), 1u);
}

}  // namespace
}  // namespace opticsd
