// The module_alarm rule looks at each lane metric through a bit mask: with
// more than 32 lane metrics a 32-bit mask shifted past its width, so a flag
// or limit on metric 32+ was looked for on metric m-32 (and missed).
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

static_assert(static_cast<std::size_t>(LaneMetric::kTxBiasMaxMilliamperes) >= 32,
              "the test needs a lane metric beyond bit 31");

const Finding* raiseOn(LaneMetric metric, test::RecordingSink& sink) {
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  for (int i = 0; i < 10; ++i) {
    Sample s = test::optic("sw", "p1", 1'700'000'000'000 + i * 30'000);
    s.lanes[1].values.set(metric, 20.0);
    s.mutableThresholds(metric) = Thresholds{15.0, 12.0, 2.0, 1.0};
    engine.evaluate("sw", {s});
  }
  return sink.firstRaise("p1", "module_alarm");
}

TEST(ModuleAlarmMetricMask, ALimitOnALaneMetricBeyondBit31IsJudged) {
  test::RecordingSink sink;
  const Finding* f = raiseOn(LaneMetric::kTxBiasMaxMilliamperes, sink);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->detail.find("tx_bias_max_milliamperes"), std::string::npos) << f->detail;
  EXPECT_EQ(f->severity, Severity::kCritical);
}

TEST(ModuleAlarmMetricMask, AFlagOnALaneMetricBeyondBit31IsJudged) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  for (int i = 0; i < 10; ++i) {
    Sample s = test::optic("sw", "p1", 1'700'000'000'000 + i * 30'000);
    s.lanes[2].values.set(LaneMetric::kRxPowerAvgDbm, -3.0);
    s.lanes[2].flags[static_cast<std::size_t>(LaneMetric::kRxPowerAvgDbm)] = AlarmFlags{false, false, false, true};
    engine.evaluate("sw", {s});
  }
  const Finding* f = sink.firstRaise("p1", "module_alarm");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->detail.find("rx_power_avg_dbm"), std::string::npos) << f->detail;
}

}  // namespace
}  // namespace opticsd
