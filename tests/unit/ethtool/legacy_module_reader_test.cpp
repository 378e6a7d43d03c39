#include "drivers/ethtool/legacy_module_reader.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>

namespace opticsd::ethtool {
namespace {

std::vector<std::uint8_t> ramp(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::uint8_t>(i / 128 * 16 + i % 7);
  return bytes;
}

TEST(LegacyDump, Sff8472SplitsA0AndA2) {
  const auto dump = ramp(512);
  auto memory = memoryFromLegacyDump(ETH_MODULE_SFF_8472, dump);
  ASSERT_TRUE(memory);
  using eeprom::PageKey;
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA0, 0, 0, false}, 3), dump[3]);
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA0, 0, 0, true}, 5), dump[128 + 5]);
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA2, 0, 0, false}, 96), dump[256 + 96]);
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA2, 0, 0, true}, 0), dump[384]);
}

TEST(LegacyDump, Sff8636PagesOneToThree) {
  const auto dump = ramp(640);
  auto memory = memoryFromLegacyDump(ETH_MODULE_SFF_8636, dump);
  ASSERT_TRUE(memory);
  using eeprom::PageKey;
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA0, 0, 0, true}, 0), dump[128]);
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA0, 0, 3, true}, 0), dump[512]);
  EXPECT_EQ(memory->byte(PageKey{eeprom::kI2cAddressA0, 0, 1, true}, 127), dump[383]);
  // A 256-byte dump (flat memory or the kernel only gave page 00h) has no page 03h.
  auto short_dump = memoryFromLegacyDump(ETH_MODULE_SFF_8636, std::span(dump).first(256));
  ASSERT_TRUE(short_dump);
  EXPECT_FALSE(short_dump->find(PageKey{eeprom::kI2cAddressA0, 0, 3, true}));
}

TEST(LegacyDump, UnknownTypeAndEmptyDumpAreErrors) {
  EXPECT_FALSE(memoryFromLegacyDump(99, ramp(256)));
  EXPECT_FALSE(memoryFromLegacyDump(ETH_MODULE_SFF_8079, {}));
}

TEST(LegacyDump, LoopbackHasNoModule) {
  auto result = readLegacyModule("lo");
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_FALSE(*result);
}

}  // namespace
}  // namespace opticsd::ethtool
