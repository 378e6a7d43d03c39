// SFF-8024 code tables: the 800G single-mode media interface IDs (Table 4-7) and their use by the CMIS decoder.
#include "drivers/eeprom/sff8024.hpp"

#include <gtest/gtest.h>

#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

TEST(Sff8024, SmfMediaInterfaces800G) {
  struct Case {
    std::uint8_t id;
    const char* name;
  } cases[] = {{0x55, "400GBASE-DR4-2"}, {0x56, "800GBASE-DR8"}, {0x57, "800GBASE-DR8-2"}, {0x43, "400GBASE-LR4-6"}};
  for (const auto& c : cases) {
    const InterfaceInfo* info = mediaInterface(kMediaTypeSmf, c.id);
    ASSERT_NE(info, nullptr) << c.name;
    EXPECT_EQ(info->name, c.name);
    EXPECT_DOUBLE_EQ(info->lane_gbps, 100.0) << c.name;  // 100G PAM4 lanes
    EXPECT_EQ(info->modulation, Modulation::kPam4) << c.name;
  }
  // Not in Table 4-7 as read (0x58 onwards are coherent/OTN or unverified): no guess.
  EXPECT_EQ(mediaInterface(kMediaTypeSmf, 0x58), nullptr);
  // The same ID in the MMF table is another interface.
  EXPECT_EQ(mediaInterface(kMediaTypeMmf, 0x56), nullptr);
}

TEST(Sff8024, PassiveCopperLoopbackIsBf) {
  ASSERT_NE(mediaInterface(kMediaTypePassiveCopper, 0xBF), nullptr);
  EXPECT_EQ(mediaInterface(kMediaTypePassiveCopper, 0xBF)->name, "passive loopback");
  EXPECT_EQ(mediaInterface(kMediaTypePassiveCopper, 0x02), nullptr);  // reserved
}

// A QSFP-DD whose application 1 is 800GBASE-DR8 over 8 media lanes (lower page bytes 86-89).
TEST(Sff8024, CmisModuleAdvertising800gDr8) {
  ModuleMemory m = loadFixture("synthetic-cmis-400g-dr4");
  const std::uint8_t app[] = {0x11, 0x56, 0x88};  // host 400GAUI-8 kept, media 56h, 8 host | 8 media lanes
  m.write(kI2cAddressA0, 0, 0, 86, app);
  Sample s;
  decodeModule(m, s);
  EXPECT_EQ(s.identity().media, "800GBASE-DR8");
  ASSERT_TRUE(s.identity().lane_rate_gbps);
  EXPECT_DOUBLE_EQ(*s.identity().lane_rate_gbps, 100.0);
  EXPECT_EQ(s.identity().modulation, Modulation::kPam4);
  EXPECT_EQ(s.lanes.size(), 8u);
}

}  // namespace
}  // namespace opticsd::eeprom::test
