// The rule-type table is the one list of rule types: every row is a `type:`
// the config accepts, resolves back to that row, and runs in the engine; the
// shipped rules use only its rows; its rows are complete for their shape.
#include <gtest/gtest.h>

#include <set>

#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

// A rule of `type` with what the type needs: a metric of its kind and levels.
std::string ruleOf(const RuleType& type) {
  std::string yaml = "{name: t_" + std::string(type.name) + ", type: " + std::string(type.name);
  if (type.metric == RuleMetric::kAny) yaml += ", metric: temperature_celsius";
  if (type.metric == RuleMetric::kLanePower) yaml += ", metric: rx_power_dbm";
  if (type.needs_levels) yaml += ", warn_above: 1e6, crit_above: 2e6";
  return yaml + "}";
}

TEST(RuleTypeTable, NamesAreUniqueAndFindTheirRow) {
  std::set<std::string_view> names;
  for (const RuleType* t : ruleTypes()) {
    ASSERT_NE(t, nullptr);
    EXPECT_FALSE(t->name.empty());
    EXPECT_TRUE(names.insert(t->name).second) << "duplicate type " << t->name;
    EXPECT_EQ(findRuleType(t->name), t) << t->name;
  }
  EXPECT_EQ(findRuleType("thresold"), nullptr);
  EXPECT_EQ(findRuleType(""), nullptr);
}

TEST(RuleTypeTable, EachRowHasTheEvaluationItsShapeNeeds) {
  for (const RuleType* t : ruleTypes()) {
    if (t->per_lane) {
      EXPECT_NE(t->scan_lanes, nullptr) << t->name;
      EXPECT_NE(t->evaluate_lane, nullptr) << t->name;
      EXPECT_EQ(t->evaluate, nullptr) << t->name << ": per lane, evaluate would never run";
    } else {
      EXPECT_NE(t->evaluate, nullptr) << t->name;
      EXPECT_EQ(t->scan_lanes, nullptr) << t->name;
      EXPECT_EQ(t->evaluate_lane, nullptr) << t->name;
    }
  }
}

TEST(RuleTypeTable, EveryRowIsAConfigTypeThatRunsInTheEngine) {
  std::string yaml = "defaults: false\nrules:\n";
  for (const RuleType* t : ruleTypes()) yaml += "  - " + ruleOf(*t) + "\n";
  std::vector<ConfigIssue> issues;
  RuleSet set = parseRules(YAML::Load(yaml), "test.yaml", issues);
  ASSERT_TRUE(issues.empty()) << issues.front().format() << "\n" << yaml;
  ASSERT_EQ(set.rules.size(), ruleTypes().size());
  for (std::size_t i = 0; i < set.rules.size(); ++i) {
    EXPECT_EQ(set.rules[i].type, ruleTypes()[i]) << set.rules[i].name;
  }
  // Healthy polls through every row's evaluation: levels far away, nothing raised.
  test::RecordingSink sink;
  RulesEngine engine(std::move(set), Topology{}, &sink);
  for (std::int64_t t = 1; t <= 8; ++t) engine.evaluate("sw", {test::optic("sw", "p1", t * 30'000)});
  EXPECT_TRUE(sink.records.empty()) << sink.records.front().rule << ": " << sink.records.front().detail;
}

TEST(RuleTypeTable, AnUnknownTypeListsTheTableInOrder) {
  std::string expected;
  for (const RuleType* t : ruleTypes()) expected += (expected.empty() ? "" : ", ") + std::string(t->name);
  std::vector<ConfigIssue> issues;
  parseRules(YAML::Load("rules: [{name: x, type: nope}]"), "test.yaml", issues);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].format().find("unknown type 'nope' (expected one of: " + expected + ")"), std::string::npos)
      << issues[0].format();
}

TEST(RuleTypeTable, ShippedRulesUseTableRows) {
  std::set<const RuleType*> rows(ruleTypes().begin(), ruleTypes().end());
  for (const RuleSpec& spec : defaultRuleSet().rules) {
    EXPECT_TRUE(rows.contains(spec.type)) << spec.name;
  }
  EXPECT_FALSE(defaultRuleSet().rules.empty());
}

}  // namespace
}  // namespace opticsd
