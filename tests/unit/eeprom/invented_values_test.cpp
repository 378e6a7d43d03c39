// What a module does not say must not become a value: VDM pages that are
// copies of page 00h, thresholds out of order or all zero, a max power of 0,
// and the exact 0 dBm of a 1 mW register.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

bool hasIssue(const Sample& s, const std::string& text) {
  return std::find(s.issues.begin(), s.issues.end(), text) != s.issues.end();
}

bool anyVdmLaneValue(const Sample& s) {
  for (const Lane& l : s.lanes) {
    for (std::size_t i = static_cast<std::size_t>(LaneMetric::kPreFecBerRatio); i < kLaneMetricCount; ++i) {
      if (l.values[static_cast<LaneMetric>(i)]) return true;
    }
  }
  return false;
}

TEST(VdmSanity, PagesThatCopyPage00AreRefusedNotDecoded) {
  const ModuleMemory memory = loadFixture("synthetic-cmis-vdm-page00-copies");
  Sample s;
  decodeModule(memory, s);
  for (int g = 1; g <= 4; ++g) {
    EXPECT_TRUE(hasIssue(s, "VDM bank 0 group " + std::to_string(g) + " refused: its pages read as a copy of page 00h"))
        << g;
  }
  EXPECT_EQ(s.issues.size(), 4u);
  EXPECT_FALSE(s.module[ModuleMetric::kLaserTemperatureCelsius]);
  EXPECT_FALSE(s.module[ModuleMetric::kLaserAgeRatio]);
  EXPECT_FALSE(s.thresholds(LaneMetric::kLtpDecibels));
  EXPECT_FALSE(anyVdmLaneValue(s));
  int listed = 0;
  forEachVdmObservable(memory, 1, [&](const VdmObservable&) { ++listed; });
  EXPECT_EQ(listed, 0);
  ASSERT_EQ(s.lanes.size(), 4u);  // page 11h still decodes
  EXPECT_TRUE(s.lanes[1].values[LaneMetric::kRxPowerDbm]);
}

TEST(VdmSanity, Page2FThatCopiesPage00MeansNoVdm) {
  ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  memory.write(kI2cAddressA0, 0, 0x2F, 128, *memory.find(PageKey{kI2cAddressA0, 0, 0, true}));
  Sample s;
  decodeModule(memory, s);
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_EQ(s.issues[0], "VDM refused: page 2Fh reads as a copy of page 00h");
  EXPECT_FALSE(anyVdmLaneValue(s));
  EXPECT_FALSE(s.module[ModuleMetric::kLaserTemperatureCelsius]);
}

TEST(VdmSanity, ThresholdsOutOfOrderRefuseTheirObservables) {
  ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  // Threshold set 2 (eSNR and LTP of media lane 1 and host lane 8): HA 10 dB below LA 18 dB.
  const std::uint8_t set2[8] = {10, 0, 18, 0, 28, 0, 19, 0};
  memory.write(kI2cAddressA0, 0, 0x28, 128 + 16, set2);
  Sample s;
  decodeModule(memory, s);
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_EQ(s.issues[0],
            "VDM bank 0 group 1: 4 observable(s) refused, thresholds out of order (first: slot 8, eSNR, media input)");
  EXPECT_FALSE(s.lanes[0].values[LaneMetric::kEsnrDecibels]);
  EXPECT_FALSE(s.lanes[0].values[LaneMetric::kLtpDecibels]);
  EXPECT_FALSE(s.thresholds(LaneMetric::kEsnrDecibels));
  EXPECT_TRUE(s.lanes[0].values[LaneMetric::kPreFecBerRatio]);  // other sets are fine
}

TEST(InventedValues, AllZeroThresholdSetsAreNoThresholds) {
  ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  const std::array<std::uint8_t, 8> zeros{};
  memory.write(kI2cAddressA0, 0, 0x28, 128 + 8, zeros);  // VDM set 1: the BER thresholds
  memory.write(kI2cAddressA0, 0, 0x02, 128, zeros);      // page 02h module temperature
  Sample s;
  decodeModule(memory, s);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
  EXPECT_FALSE(s.thresholds(LaneMetric::kPreFecBerRatio));
  EXPECT_NEAR(s.lanes[0].values[LaneMetric::kPreFecBerRatio].value_or(0), 2.4e-4, 1e-18);  // value stays
  EXPECT_FALSE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  EXPECT_TRUE(s.thresholds(ModuleMetric::kSupplyVoltageVolts));
  bool listed = false;
  forEachVdmObservable(memory, 1, [&](const VdmObservable& o) {
    if (o.type_id == 15) {
      listed = true;
      EXPECT_FALSE(o.thresholds);
    }
  });
  EXPECT_TRUE(listed);
}

TEST(InventedValues, OneMilliwattIsExactlyZeroDbm) {
  const Sample s = decodeFixture("synthetic-cmis-400g-dr4");
  EXPECT_EQ(s.lanes[0].values[LaneMetric::kTxPowerDbm].value_or(-1), 0.0);  // raw 10000 x 0.1 uW
}

TEST(InventedValues, MaxPowerZeroIsNotGiven) {
  ModuleMemory cmis = loadFixture("synthetic-cmis-400g-dr4");
  const std::uint8_t zero = 0;
  cmis.write(kI2cAddressA0, 0, 0, 201, std::span(&zero, 1));
  Sample s;
  decodeModule(cmis, s);
  EXPECT_FALSE(s.identity().max_power_watts);
  EXPECT_EQ(s.identity().power_class, 6);

  // SFF-8636 power class 8 (byte 129 bit 5) with byte 107 = 0, then 50 (5.0 W).
  ModuleMemory qsfp = loadFixture("synthetic-qsfp28-sr4");
  const std::uint8_t class8 = 0x20;
  qsfp.write(kI2cAddressA0, 0, 0, 129, std::span(&class8, 1));
  qsfp.write(kI2cAddressA0, 0, 0, 107, std::span(&zero, 1));
  decodeModule(qsfp, s);
  EXPECT_EQ(s.identity().power_class, 8);
  EXPECT_FALSE(s.identity().max_power_watts);
  const std::uint8_t fifty = 50;
  qsfp.write(kI2cAddressA0, 0, 0, 107, std::span(&fifty, 1));
  decodeModule(qsfp, s);
  EXPECT_DOUBLE_EQ(s.identity().max_power_watts.value_or(0), 5.0);
}

}  // namespace
}  // namespace opticsd::eeprom::test
