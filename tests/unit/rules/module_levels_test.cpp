// Long-reach receivers are judged by the module's own levels (issue 19 item
// 6): a healthy 100GBASE-ER4 at -15 dBm whose own low warning is -20.5 dBm is
// not rx_power_low; below its own warning it is.
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

const Finding* runEr4At(double rx_dbm, test::RecordingSink& sink, bool advertise = true) {
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  for (int i = 0; i < 10; ++i) {
    Sample s = test::optic("sw", "p1", 1'700'000'000'000 + i * 30'000);
    s.identity.media = "100GBASE-ER4";
    test::setLanes(s, LaneMetric::kRxPowerDbm, rx_dbm);
    if (advertise) {
      s.lane_thresholds[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = Thresholds{2.5, -0.5, -20.5, -23.0};
    }
    engine.evaluate("sw", {s});
  }
  return sink.firstRaise("p1", "rx_power_low");
}

TEST(ModuleLevels, HealthyEr4AtMinus15IsNotLow) {
  test::RecordingSink sink;
  EXPECT_EQ(runEr4At(-15.0, sink), nullptr);
}

TEST(ModuleLevels, Er4BelowItsOwnWarningIsLow) {
  test::RecordingSink warn;
  const Finding* w = runEr4At(-21.0, warn);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->severity, Severity::kWarning);
  test::RecordingSink crit;
  const Finding* c = runEr4At(-24.0, crit);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->severity, Severity::kCritical);
}

TEST(ModuleLevels, WithoutItsOwnLevelsTheShippedOnesHold) {
  test::RecordingSink sink;
  EXPECT_NE(runEr4At(-15.0, sink, false), nullptr);
}

}  // namespace
}  // namespace opticsd
