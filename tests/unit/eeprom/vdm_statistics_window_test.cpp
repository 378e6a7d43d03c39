// VDM statistics (minimum, maximum, average) have a window only when a host
// froze them (page 2Fh byte 144 bit 7, FreezeRequest). The 400G DR4 fixture
// has the bit set, as a switch's NOS leaves it while it reads; clearing it is
// what a read-only reader such as ethtool netlink finds on a host whose NIC
// never freezes: statistics running since an unknown unfreeze.
#include <gtest/gtest.h>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

constexpr LaneMetric kStatistics[] = {LaneMetric::kPreFecBerMinRatio, LaneMetric::kPreFecBerMaxRatio,
                                      LaneMetric::kPreFecBerAvgRatio};

ModuleMemory withFreezeControl(std::uint8_t value) {
  ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  const std::uint8_t control[] = {value};
  memory.write(kI2cAddressA0, 0, kVdmAdvertisingPage, kVdmFreezeControl, control);
  return memory;
}

TEST(VdmStatisticsWindow, FrozenStatisticsReachTheSample) {
  const ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  ASSERT_TRUE(vdmStatisticsFrozen(memory));
  Sample s;
  decodeModule(memory, s);
  for (LaneMetric m : kStatistics) EXPECT_TRUE(s.lanes.at(0).values[m]) << static_cast<int>(m);
}

TEST(VdmStatisticsWindow, UnfrozenStatisticsAreLeftOffAndCurrentValuesStay) {
  const ModuleMemory memory = withFreezeControl(0x00);
  ASSERT_FALSE(vdmStatisticsFrozen(memory));
  Sample s;
  decodeModule(memory, s);
  for (LaneMetric m : kStatistics) EXPECT_FALSE(s.lanes.at(0).values[m]) << static_cast<int>(m);
  EXPECT_NEAR(lane(s, 1, LaneMetric::kPreFecBerRatio), 2.4e-4, 1e-18);  // the current value is not a statistic
  EXPECT_NEAR(lane(s, 1, LaneMetric::kErroredFramesRatio), 3e-8, 1e-20);
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();  // a policy, not a fault of the module
}

TEST(VdmStatisticsWindow, OnlyTheFreezeRequestBitCounts) {
  EXPECT_FALSE(vdmStatisticsFrozen(withFreezeControl(0x7f)));  // bits 6-0 are other controls
  EXPECT_TRUE(vdmStatisticsFrozen(withFreezeControl(0x80)));
  ModuleMemory unread;  // page 2Fh never read: no freeze known, so no window
  EXPECT_FALSE(vdmStatisticsFrozen(unread));
}

TEST(VdmStatisticsWindow, StatisticTypesAreTheMinMaxAverageOnes) {
  for (int type = 0; type < 256; ++type) {
    const bool statistic = (type >= 9 && type <= 14) || (type >= 17 && type <= 22);
    EXPECT_EQ(isVdmStatistic(static_cast<std::uint8_t>(type)), statistic) << type;
  }
  const VdmTypeInfo* avg = vdmTypeInfo(13);
  ASSERT_NE(avg, nullptr);
  EXPECT_NE(avg->name.find("average"), std::string_view::npos);
  const VdmTypeInfo* current = vdmTypeInfo(15);
  ASSERT_NE(current, nullptr);
  EXPECT_NE(current->name.find("current"), std::string_view::npos);
}

}  // namespace
}  // namespace opticsd::eeprom::test
