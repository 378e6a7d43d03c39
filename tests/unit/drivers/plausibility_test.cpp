#include "drivers/plausibility.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace opticsd {
namespace {

TEST(Plausibility, EveryMetricHasARangeThatHoldsItsRealValues) {
  for (const auto& info : kModuleMetricInfo) EXPECT_LT(info.min, info.max) << info.key;
  for (const auto& info : kLaneMetricInfo) EXPECT_LT(info.min, info.max) << info.key;
  // The dark-fibre floor and the extremes of each spec's encoding must pass.
  Sample s;
  s.module.set(ModuleMetric::kTemperatureCelsius, -128.0);  // SFF-8472 s16 / 256 minimum
  s.module.set(ModuleMetric::kSupplyVoltageVolts, 6.5535);  // u16 x 100 uV maximum
  s.module.set(ModuleMetric::kPreFecBerRatio, 0.0);
  Lane lane;
  lane.values.set(LaneMetric::kRxPowerDbm, kNoLightFloorDbm);
  lane.values.set(LaneMetric::kTxPowerDbm, 8.16);            // 6.5535 mW
  lane.values.set(LaneMetric::kTxBiasMilliamperes, 524.28);  // CMIS u16 x 2 uA x multiplier 4
  lane.values.set(LaneMetric::kEsnrDecibels, 255.99);        // VDM u16 / 256
  s.lanes.push_back(lane);
  const Sample before = s;
  EXPECT_EQ(dropImplausibleValues(s), 0u);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.lanes[0].values[LaneMetric::kTxBiasMilliamperes],
            before.lanes[0].values[LaneMetric::kTxBiasMilliamperes]);
}

TEST(Plausibility, OutOfRangeAndNonFiniteValuesBecomeNotReported) {
  Sample s;
  s.module.set(ModuleMetric::kTemperatureCelsius, 2e41);
  s.module.set(ModuleMetric::kSupplyVoltageVolts, -3.3);
  s.module.set(ModuleMetric::kPostFecBerRatio, std::numeric_limits<double>::quiet_NaN());
  Lane lane;
  lane.number = 2;
  lane.values.set(LaneMetric::kRxPowerDbm, -std::numeric_limits<double>::infinity());
  lane.values.set(LaneMetric::kTxPowerDbm, -1.0);
  s.lanes.push_back(lane);
  EXPECT_EQ(dropImplausibleValues(s), 4u);
  EXPECT_FALSE(s.module[ModuleMetric::kTemperatureCelsius]);
  EXPECT_FALSE(s.module[ModuleMetric::kSupplyVoltageVolts]);
  EXPECT_FALSE(s.module[ModuleMetric::kPostFecBerRatio]);
  EXPECT_FALSE(s.lanes[0].values[LaneMetric::kRxPowerDbm]);
  EXPECT_EQ(s.lanes[0].values[LaneMetric::kTxPowerDbm], -1.0);
  ASSERT_EQ(s.issues.size(), 4u);
  EXPECT_EQ(s.issues[0], "temperature_celsius 2e+41 is outside the possible range -150..250, dropped");
  EXPECT_EQ(s.issues[3], "lane 2 rx_power_dbm -inf is outside the possible range -100..40, dropped");
}

TEST(Plausibility, ImpossibleThresholdsGoAndAnEmptySetGoesWithThem) {
  Sample s;
  Thresholds t;
  t.high_alarm = 1e30;
  t.low_alarm = 5.0;
  s.mutableThresholds(ModuleMetric::kTemperatureCelsius) = t;
  Thresholds all_bad;
  all_bad.high_alarm = 1e9;
  s.mutableThresholds(LaneMetric::kTxBiasMilliamperes) = all_bad;
  EXPECT_EQ(dropImplausibleValues(s), 2u);
  ASSERT_TRUE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  EXPECT_FALSE(s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm);
  EXPECT_EQ(s.thresholds(ModuleMetric::kTemperatureCelsius)->low_alarm, 5.0);
  EXPECT_FALSE(s.thresholds(LaneMetric::kTxBiasMilliamperes)) << "a threshold set with nothing left is not reported";
  EXPECT_NE(s.issues[0].find("temperature_celsius threshold 1e+30"), std::string::npos) << s.issues[0];
}

// Item 9 of issue 25: ARISTA-ENTITY-SENSOR-MIB read with its low columns
// swapped gave "low alarm -14.4 dBm, low warning -16.4 dBm". No spec allows
// that order, whichever driver produced it: the set goes, with an issue.
TEST(Plausibility, AThresholdSetOutOfOrderIsDroppedWhole) {
  Sample s;
  Thresholds swapped;
  swapped.high_alarm = 2.0;
  swapped.high_warning = 1.0;
  swapped.low_warning = -16.4;
  swapped.low_alarm = -14.4;
  s.mutableThresholds(LaneMetric::kRxPowerDbm) = swapped;
  Thresholds junos_garbage;  // EX4300 module row: high 13 / 7, warnings 0
  junos_garbage.high_alarm = 13.0;
  junos_garbage.low_alarm = 7.0;
  junos_garbage.high_warning = 0.0;
  junos_garbage.low_warning = 0.0;
  s.mutableThresholds(ModuleMetric::kTemperatureCelsius) = junos_garbage;
  Thresholds partial;  // only alarms given: the warning levels are unused, not out of order
  partial.high_alarm = 3.6;
  partial.low_alarm = 3.0;
  s.mutableThresholds(ModuleMetric::kSupplyVoltageVolts) = partial;
  Thresholds equal;  // all one value: odd, but no level contradicts another
  equal.high_alarm = equal.high_warning = equal.low_warning = equal.low_alarm = 8.16;
  s.mutableThresholds(LaneMetric::kTxPowerDbm) = equal;

  EXPECT_EQ(dropImplausibleValues(s), 8u);
  EXPECT_FALSE(s.thresholds(LaneMetric::kRxPowerDbm));
  EXPECT_FALSE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  ASSERT_TRUE(s.thresholds(ModuleMetric::kSupplyVoltageVolts));
  EXPECT_EQ(s.thresholds(ModuleMetric::kSupplyVoltageVolts)->low_alarm, 3.0);
  ASSERT_TRUE(s.thresholds(LaneMetric::kTxPowerDbm));
  ASSERT_EQ(s.issues.size(), 2u);
  EXPECT_EQ(s.issues[0],
            "temperature_celsius thresholds out of order (high alarm 13, high warning 0, low warning 0, low alarm 7), "
            "set dropped");
  EXPECT_EQ(s.issues[1],
            "rx_power_dbm thresholds out of order (high alarm 2, high warning 1, low warning -16.4, low alarm -14.4), "
            "set dropped");

  Sample ordered;
  Thresholds good;
  good.high_alarm = 2.0;
  good.high_warning = 1.0;
  good.low_warning = -14.4;
  good.low_alarm = -16.4;
  ordered.mutableThresholds(LaneMetric::kRxPowerDbm) = good;
  EXPECT_EQ(dropImplausibleValues(ordered), 0u);
  EXPECT_TRUE(ordered.issues.empty());
}

}  // namespace
}  // namespace opticsd
