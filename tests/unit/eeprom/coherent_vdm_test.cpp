// OIF C-CMIS 1.1 coherent VDM observables (types 128-147) over the
// synthetic 400ZR fixture; expected values worked out by hand from the
// types' encodings (U16/S16 x scale) beside each line.
#include <gtest/gtest.h>

#include <set>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

constexpr double kPercent = 100.0 / 65535;

TEST(CoherentVdm, Zr400GroupTwoObservablesReachTheCatalogue) {
  const ModuleMemory memory = loadFixture("synthetic-cmis-400zr");
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.identity().media, "400ZR");
  ASSERT_EQ(s.identity().data_paths.size(), 1u);
  EXPECT_EQ(s.identity().data_paths[0].media_lane_count, 1);
  ASSERT_EQ(s.lanes.size(), 1u);  // one coherent media lane for 8 host lanes

  auto v = [&](LaneMetric m) { return lane(s, 1, m); };
  EXPECT_NEAR(v(LaneMetric::kModulatorBiasXIPercent), 32768 * kPercent, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kModulatorBiasXQPercent), 19661 * kPercent, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kModulatorBiasYIPercent), 45875 * kPercent, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kModulatorBiasYQPercent), 13107 * kPercent, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kModulatorBiasXPhasePercent), 6554 * kPercent, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kModulatorBiasYPhasePercent), 58982 * kPercent, 1e-9);
  EXPECT_DOUBLE_EQ(v(LaneMetric::kChromaticDispersionPsPerNm), -512.0);  // type 134 wins over 135's -500
  EXPECT_NEAR(v(LaneMetric::kDifferentialGroupDelayPicoseconds), 12.34, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kSopmdPicosecondsSquared), 250.0, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kPolarizationDependentLossDecibels), 1.2, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kOsnrDecibels), 34.5, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kEsnrDecibels), 17.5, 1e-9);
  EXPECT_DOUBLE_EQ(v(LaneMetric::kCarrierFrequencyOffsetMegahertz), -150.0);
  EXPECT_NEAR(v(LaneMetric::kErrorVectorMagnitudePercent), 6554 * kPercent, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kRxTotalPowerDbm), -5.23, 1e-9);
  EXPECT_NEAR(v(LaneMetric::kRxSignalPowerDbm), -6.12, 1e-9);
  EXPECT_DOUBLE_EQ(v(LaneMetric::kSopRateOfChangeKiloradiansPerSecond), 50.0);
  EXPECT_FALSE(s.lanes[0].values[LaneMetric::kQFactorDecibels]);  // MER is not a Q-factor: not carried
  EXPECT_NEAR(v(LaneMetric::kTxPowerDbm), 0.0, 1e-9);             // page 11h 1.0 mW, not VDM type 143's -1 dBm

  // Group 1 still decodes: CMIS types next to the C-CMIS ones.
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kLaserTemperatureCelsius], 48.0);
  EXPECT_NEAR(v(LaneMetric::kPreFecBerRatio), 1.25e-4, 1e-16);

  const Thresholds& osnr = *s.thresholds(LaneMetric::kOsnrDecibels);
  EXPECT_NEAR(*osnr.high_alarm, 40.0, 1e-9);
  EXPECT_NEAR(*osnr.low_alarm, 18.0, 1e-9);
  EXPECT_NEAR(*osnr.low_warning, 20.0, 1e-9);
  EXPECT_DOUBLE_EQ(*s.thresholds(LaneMetric::kCarrierFrequencyOffsetMegahertz)->low_alarm, -3600.0);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kRxTotalPowerDbm)->low_alarm, -23.0, 1e-9);
  EXPECT_FALSE(s.thresholds(LaneMetric::kDifferentialGroupDelayPicoseconds));  // set 0 is all zero: none
  EXPECT_TRUE(laneFlags(s, 1, LaneMetric::kOsnrDecibels).low_warning);
  EXPECT_FALSE(laneFlags(s, 1, LaneMetric::kOsnrDecibels).low_alarm);
  EXPECT_FALSE(laneFlags(s, 1, LaneMetric::kCarrierFrequencyOffsetMegahertz).any());

  // decode lists every C-CMIS type, including the two the Sample does not carry.
  std::set<int> types;
  forEachVdmObservable(memory, 1, [&](const VdmObservable& o) {
    if (o.group == 1) types.insert(o.type_id);
  });
  EXPECT_EQ(types.size(), 20u);
  EXPECT_TRUE(types.count(143) && types.count(147));
  EXPECT_EQ(vdmTypeInfo(148), nullptr);  // beyond C-CMIS 1.1
}

}  // namespace
}  // namespace opticsd::eeprom::test
