// A 1.6T OSFP (1.6TBASE-DR8: 8 x 212.5 Gb/s, 106.25 GBd PAM4, IEEE 802.3dj
// clause 180) over the synthetic-cmis-osfp-1p6t-dr8 fixture, built from the
// SFF-8024 rev 4.12 codes (host 1.6TAUI-8 83h, SMF media 7Fh) by
// make_fixtures.py. Expected values are worked out by hand beside each line.
#include <gtest/gtest.h>

#include <cmath>

#include "drivers/eeprom/sff8024.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

constexpr double kDb = 1e-3;  // fixture powers are rounded to 0.1 uW

double dbm(double mw) { return 10 * std::log10(mw); }

TEST(Cmis1p6t, Dr8DecodesEveryLaneAt200GPam4) {
  const Sample s = decodeFixture("synthetic-cmis-osfp-1p6t-dr8");
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  const ModuleIdentity& id = s.identity();
  EXPECT_EQ(id.form_factor, "OSFP");
  EXPECT_EQ(id.media, "1.6TBASE-DR8");  // AppSel 1: SMF media ID 7Fh
  EXPECT_DOUBLE_EQ(id.lane_rate_gbps.value_or(0), 200.0);
  EXPECT_EQ(id.modulation, Modulation::kPam4);
  ASSERT_EQ(id.applications.size(), 2u);
  EXPECT_EQ(id.applications[0].host_interface_id, 0x83);
  EXPECT_EQ(id.applications[1].media_interface_id, 0x77);  // 800GBASE-DR4, the breakout
  ASSERT_EQ(id.data_paths.size(), 1u);
  EXPECT_EQ(id.data_paths[0].media_lane_count, 8);

  const double tx[] = {1.5, 1.55, 1.6, 1.65, 1.7, 1.75, 1.8, 1.85};
  const double rx[] = {1.2, 1.21, 1.22, 1.23, 1.24, 1.25, 1.26, 0.3};
  ASSERT_EQ(s.lanes.size(), 8u);
  for (std::size_t n = 1; n <= 8; ++n) {
    SCOPED_TRACE(n);
    EXPECT_NEAR(lane(s, n, LaneMetric::kTxPowerDbm), dbm(tx[n - 1]), kDb);
    EXPECT_NEAR(lane(s, n, LaneMetric::kRxPowerDbm), dbm(rx[n - 1]), kDb);
    EXPECT_NEAR(lane(s, n, LaneMetric::kTxBiasMilliamperes), 59.0 + static_cast<double>(n), 1e-9);
    // VDM type 15, F16: lanes 1-7 m = 9 + n, e = 17 -> (9 + n) x 10^-7; lane 8 m = 12, e = 19 -> 1.2e-4.
    const double ber = n == 8 ? 1.2e-4 : static_cast<double>(9 + n) * 1e-7;
    EXPECT_NEAR(lane(s, n, LaneMetric::kPreFecBerRatio), ber, ber * 1e-12);
  }
  EXPECT_NEAR(*s.thresholds(LaneMetric::kPreFecBerRatio)->high_alarm, 2.4e-3, 1e-15);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kPreFecBerRatio)->high_warning, 2.4e-4, 1e-16);
}

// The same module told (Active Control Set) to run AppSel 2 on host lanes 5-8:
// 800GBASE-DR4 on media lanes 5-8 (media lane assignment 11h: instances at
// lanes 1 and 5), 200G a lane still.
TEST(Cmis1p6t, BreakoutToTwo800gDr4) {
  ModuleMemory m = loadFixture("synthetic-cmis-osfp-1p6t-dr8");
  const std::uint8_t acs[8] = {0, 0, 0, 0, 0x28, 0x28, 0x28, 0x28};  // AppSel 2, DataPathID 4 (lane 5)
  m.write(kI2cAddressA0, 0, 0x11, 206, acs);
  Sample s;
  decodeModule(m, s);
  EXPECT_EQ(s.identity().media, "800GBASE-DR4");
  EXPECT_DOUBLE_EQ(s.identity().lane_rate_gbps.value_or(0), 200.0);
  ASSERT_EQ(s.lanes.size(), 4u);
  EXPECT_EQ(s.lanes[0].number, 5);
  EXPECT_NEAR(s.lanes[3].values[LaneMetric::kPreFecBerRatio].value_or(0), 1.2e-4, 1e-16);  // lane 8
}

TEST(Cmis1p6t, Sff8024CodesFor200GLanes) {
  struct Case {
    const InterfaceInfo* info;
    const char* name;
  } cases[] = {
      {hostInterface(0x83), "1.6TAUI-8 C2M"},
      {hostInterface(0x82), "800GAUI-4 C2M"},
      {hostInterface(0x58), "1.6TBASE-CR8"},
      {mediaInterface(kMediaTypeSmf, 0x7F), "1.6TBASE-DR8"},
      {mediaInterface(kMediaTypeSmf, 0x80), "1.6TBASE-DR8-2"},
      {mediaInterface(kMediaTypeSmf, 0x77), "800GBASE-DR4"},
      {mediaInterface(kMediaTypeSmf, 0x73), "200GBASE-DR1"},
  };
  for (const auto& c : cases) {
    ASSERT_NE(c.info, nullptr) << c.name;
    EXPECT_EQ(c.info->name, c.name);
    EXPECT_DOUBLE_EQ(c.info->lane_gbps, 200.0) << c.name;
    EXPECT_EQ(c.info->modulation, Modulation::kPam4) << c.name;
  }
  // 800G-SR4.2 (MMF 22h): 8 lanes of 100G on 4 fibre pairs, two colours.
  ASSERT_NE(mediaInterface(kMediaTypeMmf, 0x22), nullptr);
  EXPECT_DOUBLE_EQ(mediaInterface(kMediaTypeMmf, 0x22)->lane_gbps, 100.0);
  // Codes between the 800G and 200G-lane blocks stay unknown: no guess.
  EXPECT_EQ(mediaInterface(kMediaTypeSmf, 0x7C), nullptr);
}

}  // namespace
}  // namespace opticsd::eeprom::test
