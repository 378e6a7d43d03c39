#include "drivers/module/module_read_session.hpp"

#include <gtest/gtest.h>

#include "drivers/eeprom/decoder.hpp"

namespace opticsd::module {
namespace {

// A QSFP28 (SFF-8024 identifier 0x11) that is not flat memory, so page 03h
// (thresholds) is advertised: SFF-8636 rev 2.10a byte 2 bit 2 = 0.
eeprom::ModuleMemory qsfp28() {
  eeprom::ModuleMemory memory;
  std::vector<std::uint8_t> lower(128, 0), upper(128, 0x20);
  lower[0] = 0x11;
  upper[0] = 0x11;  // page 00h byte 128: identifier
  memory.write(eeprom::kI2cAddressA0, 0, 0, 0, lower);
  memory.write(eeprom::kI2cAddressA0, 0, 0, 128, upper);
  std::vector<std::uint8_t> page3(128, 0x33);
  memory.write(eeprom::kI2cAddressA0, 0, 3, 128, page3);
  return memory;
}

PageSource sourceFor(const eeprom::ModuleMemory& module, std::vector<eeprom::PageRequest>& log) {
  return [&module, &log](const eeprom::PageRequest& request) -> Result<std::vector<std::uint8_t>> {
    log.push_back(request);
    const bool upper = request.offset >= 128;
    const auto* page = module.find(eeprom::PageKey{request.i2c_address, request.bank, request.page, upper});
    if (!page) return fail("Invalid argument");
    const std::size_t start = request.offset % 128;
    return std::vector<std::uint8_t>(page->begin() + start, page->begin() + start + request.length);
  };
}

TEST(ModuleReadSession, StartsWithInitialPagesAndReadsEachOnce) {
  const auto module = qsfp28();
  std::vector<eeprom::PageRequest> log;
  ModuleReadSession session;
  readModule(session, sourceFor(module, log));
  const auto initial = eeprom::initialPages();
  ASSERT_GE(log.size(), initial.size());
  EXPECT_TRUE(std::equal(initial.begin(), initial.end(), log.begin()));
  for (std::size_t i = 0; i < log.size(); ++i) {
    for (std::size_t j = i + 1; j < log.size(); ++j) EXPECT_NE(log[i], log[j]) << describe(log[i]);
  }
  // Beyond the initial pages, exactly what the decoder advertises for this module.
  std::vector<eeprom::PageRequest> scratch;
  eeprom::ModuleMemory first;
  for (const auto& p : eeprom::initialPages()) {
    auto bytes = sourceFor(module, scratch)(p);
    if (bytes) first.write(p.i2c_address, p.bank, p.page, p.offset, *bytes);
  }
  const auto advertised = eeprom::advertisedPages(first);
  EXPECT_GE(log.size(), eeprom::initialPages().size() + advertised.size());
  for (const auto& p : advertised) EXPECT_NE(std::find(log.begin(), log.end(), p), log.end()) << describe(p);
  EXPECT_TRUE(session.issues().empty());
}

TEST(ModuleReadSession, FailuresAndShortReadsBecomeIssues) {
  ModuleReadSession session;
  const auto first = session.start();
  ASSERT_FALSE(first.empty());
  session.deliver(first[0], std::vector<std::uint8_t>(10, 0x11));
  for (std::size_t i = 1; i < first.size(); ++i) session.deliver(first[i], fail("Input/output error"));
  ASSERT_EQ(session.issues().size(), first.size());
  EXPECT_NE(session.issues()[0].find("short read"), std::string::npos);
  EXPECT_FALSE(session.memory().empty());
}

TEST(ModuleReadSession, NothingReadMeansNoFurtherRounds) {
  ModuleReadSession session;
  for (const auto& page : session.start()) session.deliver(page, fail("No such device"));
  EXPECT_TRUE(session.nextRound().empty());
}

}  // namespace
}  // namespace opticsd::module
