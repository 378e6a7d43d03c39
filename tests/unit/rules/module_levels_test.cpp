// Long-reach receivers are judged by the module's own levels (issue 19 item
// 6): a healthy 100GBASE-ER4 at -15 dBm whose own low warning is -20.5 dBm is
// not rx_power_low; below its own warning it is.
#include <gtest/gtest.h>

#include "daemon/rules/media_sensitivity.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

const Finding* runEr4At(double rx_dbm, test::RecordingSink& sink, bool advertise = true,
                        const char* media = "100GBASE-ER4") {
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  for (int i = 0; i < 10; ++i) {
    Sample s = test::optic("sw", "p1", 1'700'000'000'000 + i * 30'000);
    s.mutableIdentity().media = media;
    test::setLanes(s, LaneMetric::kRxPowerDbm, rx_dbm);
    if (advertise) {
      s.mutableThresholds(LaneMetric::kRxPowerDbm) = Thresholds{2.5, -0.5, -20.5, -23.0};
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

TEST(ModuleLevels, WithoutItsOwnLevelsOrAKnownMediumTheShippedOnesHold) {
  test::RecordingSink sink;
  EXPECT_NE(runEr4At(-15.0, sink, false, "40GBASE-ER4"), nullptr);
}

// No thresholds advertised: the medium's IEEE 802.3 level (100GBASE-ER4,
// average receive power min -20.9 dBm per lane) is the level.
TEST(ModuleLevels, HealthyEr4WithoutThresholdsIsJudgedByItsMedium) {
  test::RecordingSink healthy;
  EXPECT_EQ(runEr4At(-15.0, healthy, false), nullptr);
  test::RecordingSink weak;
  const Finding* w = runEr4At(-21.5, weak, false);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->severity, Severity::kWarning);
}

TEST(ModuleLevels, ADarkLaneWithoutThresholdsIsStillCritical) {
  test::RecordingSink sink;
  const Finding* f = runEr4At(-40.0, sink, false);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kCritical);
}

TEST(MediaRxLevels, MatchesWholeMediaNamesOnly) {
  ASSERT_TRUE(mediaRxLevels("100GBASE-ER4"));
  EXPECT_DOUBLE_EQ(mediaRxLevels("100gbase-er4 40km")->avg_rx_min_dbm, -20.9);
  EXPECT_DOUBLE_EQ(mediaRxLevels("10GBASE-LR")->avg_rx_min_dbm, -14.4);
  EXPECT_DOUBLE_EQ(mediaRxLevels("100GBASE-LR4")->avg_rx_min_dbm, -10.6);
  EXPECT_FALSE(mediaRxLevels("10GBASE-LRM"));
  EXPECT_FALSE(mediaRxLevels("passive copper"));
  EXPECT_FALSE(mediaRxLevels(""));
}

}  // namespace
}  // namespace opticsd
