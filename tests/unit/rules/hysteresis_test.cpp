// The shipped hysteresis of fixed-level rules: N consecutive breaching polls
// raise (N-1 do not, and a clean poll in between starts the count again), M
// consecutive clean polls clear (M-1 do not), with one record on raise and
// one on clear.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

using test::optic;

struct Case {
  const char* rule;
  int raise_after;  // what default_rules.yaml promises
  int clear_after;
  std::function<void(Sample&)> breach;
};

class DefaultHysteresis : public ::testing::TestWithParam<Case> {};

TEST_P(DefaultHysteresis, NBreachesRaiseAndMCleanPollsClear) {
  const Case& c = GetParam();
  const RuleSpec* spec = defaultRuleSet().find(c.rule);
  ASSERT_NE(spec, nullptr);
  RuleParams p;
  p.apply(spec->base);
  ASSERT_EQ(p.raise_after, c.raise_after);
  ASSERT_EQ(p.clear_after, c.clear_after);

  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::int64_t t = 1'000'000;
  const auto poll = [&](bool breaching) {
    auto s = optic("sw", "p1", t += 30'000);
    if (breaching) c.breach(s);
    engine.evaluate("sw", {s});
  };
  // Other rules (a drop, an imbalance) may fire on the same change: count only this one.
  const auto raised = [&] { return sink.firstRaise("p1", c.rule) != nullptr; };
  const auto records = [&] {
    return std::count_if(sink.records.begin(), sink.records.end(), [&](const Finding& f) { return f.rule == c.rule; });
  };
  const auto active = [&] {
    const auto all = engine.activeFindings();
    return std::count_if(all.begin(), all.end(), [&](const Finding& f) { return f.rule == c.rule; });
  };

  for (int round = 0; round < 2; ++round) {  // N-1 breaches, a clean poll, N-1 again: never N in a row
    for (int i = 0; i < p.raise_after - 1; ++i) poll(true);
    EXPECT_FALSE(raised()) << p.raise_after - 1 << " breaching polls raised";
    poll(false);
  }
  for (int i = 0; i < p.raise_after - 1; ++i) poll(true);
  poll(true);
  ASSERT_TRUE(raised()) << p.raise_after << " consecutive breaching polls did not raise";
  EXPECT_EQ(records(), 1);
  for (int i = 0; i < 5; ++i) poll(true);
  EXPECT_EQ(records(), 1) << "one record per raise, not one per poll";

  for (int i = 0; i < p.clear_after - 1; ++i) poll(false);
  EXPECT_EQ(active(), 1) << p.clear_after - 1 << " clean polls cleared";
  poll(true);  // a breach in between starts the clean count again
  for (int i = 0; i < p.clear_after - 1; ++i) poll(false);
  EXPECT_EQ(active(), 1);
  poll(false);
  EXPECT_EQ(active(), 0) << p.clear_after << " clean polls did not clear";
  ASSERT_EQ(records(), 2);
  const Finding& cleared =
      *std::find_if(sink.records.rbegin(), sink.records.rend(), [&](const Finding& f) { return f.rule == c.rule; });
  ASSERT_TRUE(cleared.end_ms);
  EXPECT_EQ(*cleared.end_ms, t);
}

const Case kCases[] = {
    {"temperature_high", 2, 3, [](Sample& s) { s.module.set(ModuleMetric::kTemperatureCelsius, 72); }},
    {"supply_voltage", 2, 3, [](Sample& s) { s.module.set(ModuleMetric::kSupplyVoltageVolts, 3.1); }},
    {"tx_power_low", 2, 3, [](Sample& s) { test::setLanes(s, LaneMetric::kTxPowerDbm, -6); }},
    {"module_alarm", 2, 3,
     [](Sample& s) {
       AlarmFlags flags;
       flags.high_warning = true;
       s.module_flags[static_cast<std::size_t>(ModuleMetric::kSupplyVoltageVolts)] = flags;
     }},
    {"pre_fec_ber", 2, 3, [](Sample& s) { s.module.set(ModuleMetric::kPreFecBerRatio, 1e-11); }},
    // Rx power raises on the first poll (see default_rules.yaml for why) and clears like the others.
    {"rx_power_low", 1, 3, [](Sample& s) { test::setLanes(s, LaneMetric::kRxPowerDbm, -11); }},
};

INSTANTIATE_TEST_SUITE_P(Shipped, DefaultHysteresis, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.rule); });

}  // namespace
}  // namespace opticsd
