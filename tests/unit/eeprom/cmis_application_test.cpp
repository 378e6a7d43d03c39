// The active CMIS application (page 11h Active Control Set -> Application
// Descriptor -> media lanes), over fixtures built from the spec tables by
// make_fixtures.py. Expected values are worked out by hand beside each line.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

constexpr double kDb = 1e-3;  // fixture powers are rounded to 0.1 uW

double dbm(double mw) { return 10 * std::log10(mw); }

TEST(CmisActiveApplication, Osfp800gDr8RunsAllEightLanesThoughApplication1IsDr4) {
  const Sample s = decodeFixture("synthetic-cmis-osfp-800g-dr8");
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  const ModuleIdentity& id = s.identity();
  EXPECT_EQ(id.media, "800GBASE-DR8");  // AppSel 2 (media 56h), not Application 1 (400GBASE-DR4)
  EXPECT_DOUBLE_EQ(id.lane_rate_gbps.value_or(0), 100.0);
  EXPECT_EQ(id.modulation, Modulation::kPam4);
  EXPECT_EQ(id.default_application, false);
  ASSERT_EQ(id.applications.size(), 2u);
  EXPECT_EQ(id.applications[0].media_interface_id, 0x1C);
  EXPECT_EQ(id.applications[0].media_lane_assignment, 0x11);
  EXPECT_EQ(id.applications[1].host_interface_id, 0x51);
  EXPECT_EQ(id.applications[1].host_lane_count, 8);
  ASSERT_EQ(id.data_paths.size(), 1u);
  EXPECT_EQ(id.data_paths[0].app_sel, 2);
  EXPECT_EQ(id.data_paths[0].first_host_lane, 1);
  EXPECT_EQ(id.data_paths[0].host_lane_count, 8);
  EXPECT_EQ(id.data_paths[0].first_media_lane, 1);
  EXPECT_EQ(id.data_paths[0].media_lane_count, 8);
  EXPECT_EQ(id.host_lane_count, 8);
  EXPECT_EQ(id.media_lane_count, 8);

  const double tx[] = {1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7};
  const double rx[] = {0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.02, 0.87};
  ASSERT_EQ(s.lanes.size(), 8u);
  for (std::size_t n = 1; n <= 8; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(s.lanes[n - 1].number, n);
    EXPECT_NEAR(lane(s, n, LaneMetric::kTxPowerDbm), dbm(tx[n - 1]), kDb);
    EXPECT_NEAR(lane(s, n, LaneMetric::kRxPowerDbm), dbm(rx[n - 1]), kDb);
    EXPECT_NEAR(lane(s, n, LaneMetric::kTxBiasMilliamperes), 40.0 + static_cast<double>(n - 1), 1e-9);  // x2 multiplier
    EXPECT_EQ(s.lanes[n - 1].status.data_path_state, 4);
    EXPECT_EQ(laneFlags(s, n, LaneMetric::kRxPowerDbm).low_alarm, n == 7);  // the dying lane is seen
    EXPECT_FALSE(s.lanes[n - 1].values[LaneMetric::kPreFecBerRatio]);       // no VDM: nothing invented
  }
}

TEST(CmisActiveApplication, QsfpDdTwoDataPathsOf100gLr4) {
  const Sample s = decodeFixture("synthetic-cmis-qsfpdd-2x100g-lr4");
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.identity().media, "100GBASE-LR4");
  EXPECT_DOUBLE_EQ(s.identity().lane_rate_gbps.value_or(0), 25.0);
  EXPECT_EQ(s.identity().modulation, Modulation::kNrz);
  ASSERT_EQ(s.identity().data_paths.size(), 2u);
  EXPECT_EQ(s.identity().data_paths[0].first_host_lane, 1);
  EXPECT_EQ(s.identity().data_paths[0].first_media_lane, 1);
  EXPECT_EQ(s.identity().data_paths[0].media_lane_count, 4);
  EXPECT_EQ(s.identity().data_paths[1].app_sel, 1);
  EXPECT_EQ(s.identity().data_paths[1].first_host_lane, 5);   // DataPathID 4
  EXPECT_EQ(s.identity().data_paths[1].first_media_lane, 5);  // 2nd set bit of media assignment 11h
  EXPECT_EQ(s.identity().data_paths[1].media_lane_count, 4);
  EXPECT_EQ(s.identity().media_lane_count, 8);
  ASSERT_EQ(s.lanes.size(), 8u);
  for (std::size_t n = 1; n <= 8; ++n) {
    SCOPED_TRACE(n);
    const double i = static_cast<double>(n - 1);
    EXPECT_NEAR(lane(s, n, LaneMetric::kTxPowerDbm), dbm(0.5 + 0.05 * i), kDb);
    EXPECT_NEAR(lane(s, n, LaneMetric::kRxPowerDbm), dbm(0.4 + 0.01 * i), kDb);
    EXPECT_NEAR(lane(s, n, LaneMetric::kTxBiasMilliamperes), 20.0 + i, 1e-9);
    EXPECT_EQ(s.lanes[n - 1].status.rx_los, n == 6);
    EXPECT_EQ(s.lanes[n - 1].status.data_path_state, 4);
  }
}

TEST(CmisActiveApplication, Aec2x400gFlagsOnEveryLaneAndNoInventedValues) {
  const Sample s = decodeFixture("synthetic-cmis-aec-2x400g");
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.identity().media, "active copper");
  EXPECT_DOUBLE_EQ(s.identity().lane_rate_gbps.value_or(0), 100.0);  // host 400GAUI-4-S: media ID gives no rate
  ASSERT_EQ(s.identity().data_paths.size(), 2u);
  EXPECT_EQ(s.identity().data_paths[1].first_media_lane, 5);
  ASSERT_EQ(s.lanes.size(), 8u);
  for (std::size_t n = 1; n <= 8; ++n) {
    SCOPED_TRACE(n);
    const LaneStatus& st = s.lanes[n - 1].status;
    EXPECT_EQ(st.rx_los, n == 2 || n == 7);
    EXPECT_EQ(st.rx_lol, n == 8);
    EXPECT_EQ(st.tx_fault, n == 3);
    EXPECT_EQ(st.tx_los, n == 5);  // 4 host lanes : 4 media lanes, paired in order
    EXPECT_EQ(st.data_path_state, 4);
    EXPECT_TRUE(s.lanes[n - 1].values.empty()) << "no lane monitors advertised";
    EXPECT_FALSE(s.lanes[n - 1].flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]);
  }
  EXPECT_FALSE(s.thresholds(LaneMetric::kRxPowerDbm));
}

// The same DR8 with data path 2 of a 2x400G-DR4 split: only host lanes 5-8
// active (AppSel 1, DataPathID 4) -> media lanes 5-8 only, numbered 5-8.
TEST(CmisActiveApplication, OnlyTheSecondDr4InstanceActive) {
  ModuleMemory m = loadFixture("synthetic-cmis-osfp-800g-dr8");
  const std::uint8_t acs[8] = {0, 0, 0, 0, 0x18, 0x18, 0x18, 0x18};
  m.write(kI2cAddressA0, 0, 0x11, 206, acs);
  Sample s;
  decodeModule(m, s);
  EXPECT_EQ(s.identity().media, "400GBASE-DR4");
  ASSERT_EQ(s.lanes.size(), 4u);
  EXPECT_EQ(s.lanes[0].number, 5);
  EXPECT_EQ(s.lanes[3].number, 8);
  EXPECT_NEAR(s.lanes[2].values[LaneMetric::kRxPowerDbm].value_or(0), dbm(0.02), kDb);  // lane 7
  EXPECT_TRUE(s.lanes[2].flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]->low_alarm);
}

TEST(CmisActiveApplication, AppSelNamingNoDescriptorIsAnIssueNotALane) {
  ModuleMemory m = loadFixture("synthetic-cmis-osfp-800g-dr8");
  const std::uint8_t acs[8] = {0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90};  // AppSel 9: not advertised
  m.write(kI2cAddressA0, 0, 0x11, 206, acs);
  Sample s;
  decodeModule(m, s);
  ASSERT_FALSE(s.issues.empty());
  EXPECT_EQ(s.issues[0], "host lane 1: active AppSel 9 names no advertised Application");
  EXPECT_TRUE(s.lanes.empty());
  EXPECT_TRUE(s.identity().media.empty());
}

}  // namespace
}  // namespace opticsd::eeprom::test

namespace opticsd::eeprom::test {
namespace {

TEST(Cmis4Golden, AuxLaserTemperatureAndTecCurrentWithThresholds) {
  const Sample s = decodeFixture("synthetic-cmis4-400g-fr4-aux");
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.identity().spec_revision, "CMIS 4.0");
  EXPECT_EQ(s.identity().media, "400G-FR4");
  EXPECT_EQ(s.identity().default_application, false);
  ASSERT_EQ(s.identity().data_paths.size(), 1u);
  EXPECT_EQ(s.identity().data_paths[0].host_lane_count, 8);
  EXPECT_EQ(s.identity().data_paths[0].media_lane_count, 4);

  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kLaserTemperatureCelsius], 45.5);  // Aux2: 11648 / 256
  EXPECT_NEAR(*s.module[ModuleMetric::kTecCurrentPercent], -10.0009, 1e-4);   // Aux1: -3277 x 100 / 32767
  const Thresholds& laser = *s.thresholds(ModuleMetric::kLaserTemperatureCelsius);
  EXPECT_DOUBLE_EQ(*laser.high_alarm, 80.0);
  EXPECT_DOUBLE_EQ(*laser.low_alarm, -5.0);
  EXPECT_DOUBLE_EQ(*laser.high_warning, 75.0);
  EXPECT_DOUBLE_EQ(*laser.low_warning, 0.0);
  const Thresholds& tec = *s.thresholds(ModuleMetric::kTecCurrentPercent);
  EXPECT_DOUBLE_EQ(*tec.high_alarm, 100.0);
  EXPECT_DOUBLE_EQ(*tec.low_alarm, -100.0);
  EXPECT_NEAR(*tec.high_warning, 90.0, 1e-3);
  const auto flags = *s.module_flags[static_cast<std::size_t>(ModuleMetric::kLaserTemperatureCelsius)];
  EXPECT_TRUE(flags.high_warning);
  EXPECT_FALSE(flags.high_alarm);
  EXPECT_FALSE(s.module_flags[static_cast<std::size_t>(ModuleMetric::kTecCurrentPercent)]->any());

  ASSERT_EQ(s.lanes.size(), 4u);
  EXPECT_NEAR(lane(s, 4, LaneMetric::kTxPowerDbm), 10 * std::log10(1.3), kDb);
  EXPECT_NEAR(lane(s, 4, LaneMetric::kRxPowerDbm), 10 * std::log10(0.53), kDb);
  EXPECT_FALSE(s.module[ModuleMetric::kLaserAgeRatio]);  // no VDM
}

// Aux2 as TEC current (byte 145 bit 1) and Aux3 as Vcc2 (bit 2, no catalogue
// row): no laser temperature is invented from either.
TEST(Cmis4Golden, AuxTypesDecideWhatEachMonitorIs) {
  ModuleMemory m = loadFixture("synthetic-cmis4-400g-fr4-aux");
  const std::uint8_t types = 0x07;   // Aux1 custom, Aux2 TEC current, Aux3 Vcc2
  const std::uint8_t advert = 0x1B;  // temperature, Vcc, Aux2, Aux3
  m.write(kI2cAddressA0, 0, 0x01, 145, std::span(&types, 1));
  m.write(kI2cAddressA0, 0, 0x01, 159, std::span(&advert, 1));
  Sample s;
  decodeModule(m, s);
  EXPECT_FALSE(s.module[ModuleMetric::kLaserTemperatureCelsius]);
  EXPECT_NEAR(s.module[ModuleMetric::kTecCurrentPercent].value_or(0), 11648 * 100.0 / 32767, 1e-9);  // Aux2 raw
}

}  // namespace
}  // namespace opticsd::eeprom::test
