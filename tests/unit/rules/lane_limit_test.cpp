// One lane limit, owned by the Sample model (kMaxSampleLanes): every lane a
// module reports up to it gets the per-lane rules and baselines. The rules
// used to stop at lane 16, while SNMP profiles and the store carried lanes up
// to 64: lanes 17 and up were exported and stored but never judged.
#include "drivers/lane_limit.hpp"

#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000;
constexpr std::int64_t kPollMs = 30'000;
constexpr int kLanes = 32;  // twice what the rules used to hold

static_assert(kLanes <= kMaxSampleLanes);

TEST(LaneLimit, ThresholdRulesJudgeLanesBeyondSixteen) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  Sample s = test::optic("sw", "p1", kT0, kLanes);
  s.lanes[29].values.set(LaneMetric::kRxPowerDbm, -15.0);  // lane 30, below rx_power_low's crit_below -13
  engine.evaluate("sw", {s});
  const Finding* f = sink.firstRaise("p1", "rx_power_low");
  ASSERT_NE(f, nullptr) << "lane 30 of a 32-lane module was not judged";
  EXPECT_NE(f->detail.find("(lane 30)"), std::string::npos) << f->detail;
}

// Baselines: the lane's own bias baseline is learned, so its drift is seen,
// and the lane's own best Rx power of the window, so its sag is seen.
TEST(LaneLimit, LanesBeyondSixteenHaveTheirOwnBaselines) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  for (int i = 0; i < 60; ++i) {
    Sample s = test::optic("sw", "p1", kT0 + i * kPollMs, kLanes);
    if (i >= 10) s.lanes[19].values.set(LaneMetric::kTxBiasMilliamperes, 9.6);  // lane 20: +60 % over its 6 mA
    if (i >= 10) s.lanes[23].values.set(LaneMetric::kRxPowerDbm, -3.0 - 0.2 * (i - 10));  // lane 24 sags
    engine.evaluate("sw", {s});
  }
  const Finding* drift = sink.firstRaise("p1", "bias_drift");
  ASSERT_NE(drift, nullptr) << "lane 20's bias baseline was never learned";
  EXPECT_NE(drift->detail.find("lane 20"), std::string::npos) << drift->detail;
  const Finding* drop = sink.firstRaise("p1", "rx_power_drop");
  ASSERT_NE(drop, nullptr) << "lane 24's Rx power has no window of its own";
  EXPECT_NE(drop->detail.find("(lane 24)"), std::string::npos) << drop->detail;
}

TEST(LaneLimit, TheLastLaneTheModelCarriesIsJudged) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  Sample s = test::optic("sw", "p1", kT0, kMaxSampleLanes);
  s.lanes.back().values.set(LaneMetric::kRxPowerDbm, -15.0);
  engine.evaluate("sw", {s});
  const Finding* f = sink.firstRaise("p1", "rx_power_low");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->detail.find("(lane " + std::to_string(kMaxSampleLanes) + ")"), std::string::npos) << f->detail;
}

}  // namespace
}  // namespace opticsd
