// Golden tests over the spec-built fixtures (tests/fixtures/eeprom/synthetic-*).
// Every expected value is worked out by hand from the spec in the comment beside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

constexpr double kDb = 1e-3;  // dBm tolerance: fixture mW values are rounded to 0.1 uW

TEST(Sff8472Golden, InternalCalibrationNegativeTemperatureAndDarkRx) {
  const Sample s = decodeFixture("synthetic-sfp-internal-cal");
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  const auto& id = s.identity();
  EXPECT_EQ(id.family, ModuleFamily::kSff8472);
  EXPECT_EQ(id.form_factor, "SFP");
  EXPECT_EQ(id.vendor, "ACME OPTICS");  // trailing padding trimmed
  EXPECT_EQ(id.vendor_oui, "00:1b:21");
  EXPECT_EQ(id.part_number, "SFP-10G-SR");
  EXPECT_EQ(id.revision, "A1");
  EXPECT_EQ(id.serial, "SN12345");
  EXPECT_EQ(id.date_code, "2023-04-17");
  EXPECT_EQ(id.connector, "LC");
  EXPECT_EQ(id.media, "10GBASE-SR");  // A0h byte 3 bit 4
  EXPECT_EQ(id.spec_revision, "SFF-8472 rev 12.3");
  EXPECT_DOUBLE_EQ(id.wavelength_nm.value_or(0), 850.0);
  EXPECT_DOUBLE_EQ(id.lane_rate_gbps.value_or(0), 10.0);
  EXPECT_EQ(id.modulation, Modulation::kNrz);
  EXPECT_EQ(id.has_diagnostics, true);
  EXPECT_FALSE(id.cable_length_m);  // optics have a reach, not a cable length

  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], -5.5);  // 0xFA80 = -1408 / 256
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.3, 1e-9);  // 33000 x 100 uV
  ASSERT_EQ(s.lanes.size(), 1u);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxBiasMilliamperes), 6.0, 1e-9);  // 3000 x 2 uA
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxPowerDbm), -3.0103, kDb);       // 10 log10(0.5 mW)
  EXPECT_DOUBLE_EQ(lane(s, 1, LaneMetric::kRxPowerDbm), -40.0);         // 0 mW: the floor
  EXPECT_EQ(s.lanes[0].status.rx_no_light, true);
  EXPECT_EQ(s.lanes[0].status.tx_no_light, false);
  EXPECT_EQ(s.lanes[0].status.rx_los, true);     // A2h byte 110 bit 1
  EXPECT_EQ(s.lanes[0].status.tx_fault, false);  // bit 2

  const auto& t = *s.thresholds(ModuleMetric::kTemperatureCelsius);
  EXPECT_DOUBLE_EQ(*t.high_alarm, 75.0);
  EXPECT_DOUBLE_EQ(*t.low_alarm, -10.0);
  EXPECT_DOUBLE_EQ(*t.high_warning, 70.0);
  EXPECT_DOUBLE_EQ(*t.low_warning, -5.0);
  EXPECT_NEAR(*s.thresholds(ModuleMetric::kSupplyVoltageVolts)->low_warning, 3.135, 1e-9);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 12.0, 1e-9);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxPowerDbm)->high_alarm, 0.0, kDb);       // 1.0 mW
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxPowerDbm)->low_alarm, -10.0, kDb);      // 0.1 mW
  EXPECT_NEAR(*s.thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -20.0, kDb);      // 0.01 mW
  EXPECT_NEAR(*s.thresholds(LaneMetric::kRxPowerDbm)->low_warning, -18.013, kDb);  // 0.0158 mW

  // A2h byte 113 bit 6 Rx power low alarm; 116 bit 6 temp low warning; 117 bit 6 Rx low warning.
  EXPECT_TRUE(laneFlags(s, 1, LaneMetric::kRxPowerDbm).low_alarm);
  EXPECT_TRUE(laneFlags(s, 1, LaneMetric::kRxPowerDbm).low_warning);
  EXPECT_FALSE(laneFlags(s, 1, LaneMetric::kRxPowerDbm).high_alarm);
  const auto temp_flags = *s.module_flags[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)];
  EXPECT_TRUE(temp_flags.low_warning);
  EXPECT_FALSE(temp_flags.high_alarm);
  EXPECT_FALSE(laneFlags(s, 1, LaneMetric::kTxBiasMilliamperes).any());
}

TEST(Sff8472Golden, ExternalCalibrationAppliesSlopesOffsetsAndPolynomial) {
  const Sample s = decodeFixture("synthetic-sfp-external-cal");
  EXPECT_TRUE(s.issues.empty());
  EXPECT_EQ(s.identity().media, "10GBASE-LR");
  EXPECT_DOUBLE_EQ(s.identity().wavelength_nm.value_or(0), 1310.0);
  // T = 1.0 x 6400 + (-2560) = 3840 -> 15.0 degC
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], 15.0);
  // V = 1.0 x 32000 + 1000 = 33000 -> 3.3 V
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.3, 1e-9);
  // I = 1.5 x 2000 - 100 = 2900 x 2 uA = 5.8 mA
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxBiasMilliamperes), 5.8, 1e-9);
  // Tx = 0.5 x 10000 = 5000 x 0.1 uW = 0.5 mW -> -3.0103 dBm
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxPowerDbm), -3.0103, kDb);
  // Rx = 2.0 x 1000 + 100.0 = 2100 x 0.1 uW = 0.21 mW -> -6.7778 dBm
  EXPECT_NEAR(lane(s, 1, LaneMetric::kRxPowerDbm), -6.7778, kDb);
  // Thresholds take the same calibration: temp HA raw 19200 - 2560 = 16640 -> 65 degC
  EXPECT_DOUBLE_EQ(*s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 65.0);
  // bias HA raw 6000 x 1.5 - 100 = 8900 x 2 uA = 17.8 mA
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 17.8, 1e-9);
  // Rx HA raw 10000 x 2 + 100 = 20100 -> 2.01 mW -> 3.0320 dBm
  EXPECT_NEAR(*s.thresholds(LaneMetric::kRxPowerDbm)->high_alarm, 3.0320, kDb);
}

TEST(Sff8472Golden, NoDdmPassiveCopper) {
  const Sample s = decodeFixture("synthetic-sfp-no-ddm");
  EXPECT_TRUE(s.issues.empty());
  EXPECT_EQ(s.identity().has_diagnostics, false);
  EXPECT_EQ(s.identity().passive_copper, true);
  EXPECT_EQ(s.identity().media, "passive copper");
  EXPECT_EQ(s.identity().connector, "Copper pigtail");
  EXPECT_DOUBLE_EQ(s.identity().cable_length_m.value_or(0), 3.0);
  EXPECT_FALSE(s.identity().wavelength_nm);
  EXPECT_TRUE(s.module.empty());
  ASSERT_EQ(s.lanes.size(), 1u);
  EXPECT_TRUE(s.lanes[0].values.empty());
  EXPECT_TRUE(advertisedPages(loadFixture("synthetic-sfp-no-ddm")).empty());  // no A2h without DDM
}

TEST(Sff8636Golden, PagedQsfp28) {
  const ModuleMemory memory = loadFixture("synthetic-qsfp28-sr4");
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty());
  const auto& id = s.identity();
  EXPECT_EQ(id.family, ModuleFamily::kSff8636);
  EXPECT_EQ(id.form_factor, "QSFP28");
  EXPECT_EQ(id.media, "100GBASE-SR4");  // byte 131 bit 7 -> byte 192 = 02h
  EXPECT_EQ(id.connector, "MPO 1x12");
  EXPECT_EQ(id.vendor, "ACME");
  EXPECT_EQ(id.vendor_oui, "00:90:65");
  EXPECT_EQ(id.revision, "B");
  EXPECT_EQ(id.serial, "QSN0001\\x01");  // non-printable byte escaped
  EXPECT_EQ(id.date_code, "2019-12-31");
  EXPECT_EQ(id.power_class, 4);
  EXPECT_DOUBLE_EQ(id.max_power_watts.value_or(0), 3.5);
  EXPECT_DOUBLE_EQ(id.wavelength_nm.value_or(0), 850.0);  // 17000 / 20
  EXPECT_DOUBLE_EQ(id.lane_rate_gbps.value_or(0), 25.0);
  EXPECT_EQ(id.modulation, Modulation::kNrz);
  EXPECT_EQ(id.has_diagnostics, true);

  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], 41.25);
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.25, 1e-9);
  ASSERT_EQ(s.lanes.size(), 4u);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kRxPowerDbm), 0.0, kDb);    // 1.0 mW
  EXPECT_DOUBLE_EQ(lane(s, 2, LaneMetric::kRxPowerDbm), -40.0);  // 0 mW
  EXPECT_NEAR(lane(s, 3, LaneMetric::kRxPowerDbm), -3.0, kDb);   // 0.5012 mW
  EXPECT_DOUBLE_EQ(lane(s, 4, LaneMetric::kRxPowerDbm), -40.0);  // 0.0001 mW is the floor
  EXPECT_EQ(s.lanes[3].status.rx_no_light, true);
  EXPECT_NEAR(lane(s, 4, LaneMetric::kTxBiasMilliamperes), 6.6, 1e-9);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxPowerDbm), -1.0, kDb);  // 0.7943 mW
  EXPECT_NEAR(lane(s, 3, LaneMetric::kTxPowerDbm), 1.0, kDb);   // 1.2589 mW
  EXPECT_EQ(s.lanes[3].status.tx_no_light, true);
  // Byte 3 = 0x21: Rx1 LOS, Tx2 LOS; byte 4 = 0x04: Tx3 fault; byte 5 = 0x08: Rx4 LOL.
  EXPECT_EQ(s.lanes[0].status.rx_los, true);
  EXPECT_EQ(s.lanes[1].status.rx_los, false);
  EXPECT_EQ(s.lanes[1].status.tx_los, true);
  EXPECT_EQ(s.lanes[2].status.tx_fault, true);
  EXPECT_EQ(s.lanes[3].status.rx_lol, true);
  EXPECT_EQ(s.lanes[0].status.rx_lol, false);
  // Flags: temp high alarm, Vcc low warning, lane 2 Rx low alarm, lane 4 bias high warning.
  EXPECT_TRUE(s.module_flags[0]->high_alarm);
  EXPECT_TRUE(s.module_flags[1]->low_warning);
  EXPECT_FALSE(s.module_flags[1]->high_alarm);
  EXPECT_TRUE(laneFlags(s, 2, LaneMetric::kRxPowerDbm).low_alarm);
  EXPECT_FALSE(laneFlags(s, 1, LaneMetric::kRxPowerDbm).any());
  EXPECT_TRUE(laneFlags(s, 4, LaneMetric::kTxBiasMilliamperes).high_warning);
  EXPECT_FALSE(laneFlags(s, 3, LaneMetric::kTxBiasMilliamperes).any());
  // Page 03h thresholds.
  EXPECT_DOUBLE_EQ(*s.thresholds(ModuleMetric::kTemperatureCelsius)->low_alarm, -5.0);
  EXPECT_NEAR(*s.thresholds(ModuleMetric::kSupplyVoltageVolts)->high_alarm, 3.63, 1e-9);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kRxPowerDbm)->high_alarm, 5.0, kDb);  // 3.1623 mW
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxBiasMilliamperes)->low_warning, 2.0, 1e-9);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxPowerDbm)->low_alarm, -9.0, kDb);  // 0.1259 mW
  EXPECT_TRUE(advertisedPages(memory).empty());                               // page 03h already there
}

TEST(Sff8636Golden, FlatMemorySkipsPage03) {
  const ModuleMemory memory = loadFixture("synthetic-qsfp28-flat");
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty());  // no page 03h is expected, so none is missing
  EXPECT_FALSE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  EXPECT_FALSE(s.thresholds(LaneMetric::kRxPowerDbm));
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], 41.25);
  EXPECT_TRUE(advertisedPages(memory).empty());
}

TEST(CmisGolden, QsfpDd400gDr4WithVdm) {
  const ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  const auto& id = s.identity();
  EXPECT_EQ(id.family, ModuleFamily::kCmis);
  EXPECT_EQ(id.form_factor, "QSFP-DD");
  EXPECT_EQ(id.spec_revision, "CMIS 5.0");
  EXPECT_EQ(id.firmware_version, "2.7");
  EXPECT_EQ(id.media, "400GBASE-DR4");  // MediaType SMF, media ID 1Ch
  EXPECT_DOUBLE_EQ(id.lane_rate_gbps.value_or(0), 100.0);
  EXPECT_EQ(id.modulation, Modulation::kPam4);
  EXPECT_EQ(id.power_class, 6);  // bits 7-5 = 5
  EXPECT_DOUBLE_EQ(id.max_power_watts.value_or(0), 12.0);
  EXPECT_DOUBLE_EQ(id.wavelength_nm.value_or(0), 1310.0);  // 26200 x 0.05 nm
  EXPECT_EQ(id.date_code, "2024-02-29");
  EXPECT_EQ(id.vendor_oui, "00:02:c9");
  EXPECT_EQ(id.has_diagnostics, true);

  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], -3.5);
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.31, 1e-9);
  EXPECT_TRUE(s.module_flags[0]->high_alarm);
  EXPECT_TRUE(s.module_flags[1]->high_warning);

  // No Active Control Set (page 11h 206-213 all 0): the default Application 1,
  // 400GBASE-DR4 on host lanes 1-8 and media lanes 1-4. Host-side VDM of host
  // lane 8 has no media lane 8 and adds no lane.
  EXPECT_EQ(id.default_application, true);
  ASSERT_EQ(s.lanes.size(), 4u);
  EXPECT_EQ(s.lanes[3].number, 4);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxPowerDbm), 0.0, kDb);            // 1.0 mW
  EXPECT_NEAR(lane(s, 2, LaneMetric::kTxPowerDbm), 0.4139, kDb);         // 1.1 mW
  EXPECT_NEAR(lane(s, 1, LaneMetric::kTxBiasMilliamperes), 12.0, 1e-9);  // 3000 x 2 uA x 2
  EXPECT_NEAR(lane(s, 2, LaneMetric::kTxBiasMilliamperes), 12.4, 1e-9);
  EXPECT_DOUBLE_EQ(lane(s, 1, LaneMetric::kRxPowerDbm), -40.0);
  EXPECT_EQ(s.lanes[0].status.rx_no_light, true);
  EXPECT_NEAR(lane(s, 2, LaneMetric::kRxPowerDbm), -2.9243, kDb);  // 0.51 mW
  EXPECT_EQ(s.lanes[1].status.tx_fault, true);
  EXPECT_EQ(s.lanes[0].status.tx_fault, false);
  EXPECT_EQ(s.lanes[0].status.rx_los, true);
  EXPECT_EQ(s.lanes[2].status.rx_lol, true);
  EXPECT_EQ(s.lanes[3].status.data_path_state, 4);
  EXPECT_TRUE(laneFlags(s, 1, LaneMetric::kRxPowerDbm).low_alarm);
  EXPECT_TRUE(laneFlags(s, 4, LaneMetric::kTxPowerDbm).high_alarm);
  EXPECT_FALSE(laneFlags(s, 3, LaneMetric::kTxPowerDbm).any());

  EXPECT_DOUBLE_EQ(*s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 80.0);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 40.0, 1e-9);  // 10000 x 2 uA x 2
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxPowerDbm)->high_alarm, 7.0, kDb);            // 5.0119 mW
  EXPECT_NEAR(*s.thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -14.0012, kDb);        // 0.0398 mW

  // VDM: F16 m x 10^(e-24).
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kLaserTemperatureCelsius], 52.0);  // hottest of 50.5, 52.0
  EXPECT_DOUBLE_EQ(*s.thresholds(ModuleMetric::kLaserTemperatureCelsius)->high_alarm, 75.0);
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kLaserAgeRatio], 0.37);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kPreFecBerRatio), 2.4e-4, 1e-18);       // m=24, e=19
  EXPECT_NEAR(lane(s, 2, LaneMetric::kPreFecBerRatio), 1e-7, 1e-20);         // m=1000, e=14
  EXPECT_DOUBLE_EQ(lane(s, 1, LaneMetric::kPreFecBerMinRatio), 0.0);         // 0x0000
  EXPECT_DOUBLE_EQ(lane(s, 1, LaneMetric::kPreFecBerMaxRatio), 2047e7);      // 0xFFFF: m=2047, e=31
  EXPECT_NEAR(lane(s, 1, LaneMetric::kPreFecBerAvgRatio), 2047e-24, 1e-36);  // 0x07FF: e=0
  for (const Lane& l : s.lanes) {
    EXPECT_FALSE(l.values[LaneMetric::kHostPreFecBerRatio]) << "host lane 8's BER on lane " << l.number;
    EXPECT_FALSE(l.values[LaneMetric::kHostEsnrDecibels]) << l.number;
  }
  EXPECT_DOUBLE_EQ(lane(s, 1, LaneMetric::kEsnrDecibels), 19.5);
  EXPECT_DOUBLE_EQ(lane(s, 1, LaneMetric::kLtpDecibels), 33.25);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kErroredFramesRatio), 3e-8, 1e-20);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kPreFecBerRatio)->high_alarm, 2.4e-3, 1e-15);
  EXPECT_NEAR(*s.thresholds(LaneMetric::kPreFecBerRatio)->high_warning, 1e-3, 1e-15);
  EXPECT_TRUE(laneFlags(s, 1, LaneMetric::kPreFecBerRatio).high_alarm);  // 2Ch byte 129 bit 0 = slot 2
  EXPECT_FALSE(laneFlags(s, 2, LaneMetric::kPreFecBerRatio).any());

  EXPECT_TRUE(advertisedPages(memory).empty());
}

TEST(CmisGolden, AdvertisedPagesFollowPage01AndVdmAdvertising) {
  const ModuleMemory full = loadFixture("synthetic-cmis-400g-dr4");
  ModuleMemory initial;
  for (const auto& p : full.pages()) {
    if (p.key.page == 0) initial.write(p.key.i2c_address, 0, 0, p.key.upper ? 128 : 0, p.bytes);
  }
  // Only lower + 00h: banks and VDM unknown, so the three core pages.
  const std::vector<PageRequest> first = advertisedPages(initial);
  const std::vector<PageRequest> want_first = {
      {0x50, 0, 0x01, 128, 128}, {0x50, 0, 0x02, 128, 128}, {0x50, 0, 0x11, 128, 128}};
  EXPECT_EQ(first, want_first);
  // Once 01h says VDM: 2Fh and group 1 (20h, 24h, 28h) and 2Ch.
  for (const auto& p : full.pages()) {
    if (p.key.page == 1) initial.write(0x50, 0, 1, 128, p.bytes);
  }
  const auto second = advertisedPages(initial);
  std::vector<std::uint8_t> pages;
  for (const auto& r : second) pages.push_back(r.page);
  EXPECT_EQ(pages, (std::vector<std::uint8_t>{0x02, 0x11, 0x2F, 0x20, 0x24, 0x28, 0x2C}));
}

TEST(CmisGolden, TwoBanksGiveSixteenLanes) {
  const ModuleMemory memory = loadFixture("synthetic-cmis-osfp-2banks");
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.identity().form_factor, "OSFP");
  EXPECT_EQ(s.identity().media, "800G-SR8");
  ASSERT_EQ(s.lanes.size(), 16u);
  EXPECT_EQ(s.lanes[15].number, 16);
  EXPECT_EQ(s.lanes[5].status.data_path_state, 1);  // byte 130 bits 7-4
  EXPECT_EQ(s.lanes[4].status.data_path_state, 4);
  EXPECT_DOUBLE_EQ(lane(s, 9, LaneMetric::kRxPowerDbm), -40.0);     // bank 1 lane 1 dark
  EXPECT_NEAR(lane(s, 10, LaneMetric::kRxPowerDbm), -6.7778, kDb);  // bank 1: 2100 x 0.1 uW
  EXPECT_NEAR(lane(s, 2, LaneMetric::kRxPowerDbm), -2.9243, kDb);   // bank 0: 5100 x 0.1 uW
  EXPECT_NEAR(lane(s, 16, LaneMetric::kTxPowerDbm), 2.3045, kDb);   // 1.7 mW
  EXPECT_EQ(s.lanes[9].status.tx_fault, true);                      // bank 1 lane 2

  // Without bank 1's page 11h: lanes 9-16 are reported missing, the rest decodes.
  ModuleMemory partial;
  for (const auto& p : memory.pages()) {
    if (!(p.key.bank == 1 && p.key.page == 0x11))
      partial.write(p.key.i2c_address, p.key.bank, p.key.page, p.key.upper ? 128 : 0, p.bytes);
  }
  decodeModule(partial, s);
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_EQ(s.issues[0], "page 11h bank 1 not read: lanes 9-16 monitors and flags missing");
  EXPECT_NEAR(lane(s, 2, LaneMetric::kRxPowerDbm), -2.9243, kDb);
  EXPECT_FALSE(s.lanes[9].values[LaneMetric::kRxPowerDbm]);
  const auto wanted = advertisedPages(partial);
  ASSERT_EQ(wanted.size(), 1u);
  EXPECT_EQ(wanted[0], (PageRequest{0x50, 1, 0x11, 128, 128}));
}

TEST(CmisGolden, FlatMemoryPassiveCopper) {
  const ModuleMemory memory = loadFixture("synthetic-cmis-flat-dac");
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_EQ(s.identity().media, "passive copper");
  EXPECT_EQ(s.identity().passive_copper, true);
  EXPECT_EQ(s.identity().has_diagnostics, false);
  EXPECT_EQ(s.identity().connector, "No separable connector");
  EXPECT_DOUBLE_EQ(s.identity().cable_length_m.value_or(0), 2.5);   // 0x19: 25 x 0.1 m
  EXPECT_DOUBLE_EQ(s.identity().lane_rate_gbps.value_or(0), 50.0);  // host 400G CR8
  EXPECT_FALSE(s.module[ModuleMetric::kTemperatureCelsius]);  // flat memory reads 0: the DAC has no monitor, so absent
  EXPECT_EQ(s.lanes.size(), 8u);
  EXPECT_TRUE(advertisedPages(memory).empty());  // flat memory: no upper pages to ask for
}

}  // namespace
}  // namespace opticsd::eeprom::test
