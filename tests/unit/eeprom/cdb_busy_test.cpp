// A CMIS module with a CDB command in progress (lower page byte 37 or 38,
// CdbStatus1/2 bit 7 CdbIsBusy) is in maintenance, not broken; the mark goes
// when the bit clears, and a reason the transport or config set stays.
#include <gtest/gtest.h>

#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

ModuleMemory withCdbStatus(std::uint8_t status1, std::uint8_t status2) {
  ModuleMemory memory = loadFixture("synthetic-cmis-400g-dr4");
  const std::uint8_t status[] = {status1, status2};
  memory.write(kI2cAddressA0, 0, 0, 37, status);
  return memory;
}

TEST(CdbBusy, EitherInstanceBusyIsMaintenanceAndItsValuesStillDecode) {
  for (const auto& [s1, s2] : {std::pair<std::uint8_t, std::uint8_t>{0x80, 0x00}, {0x00, 0x81}}) {
    Sample s;
    decodeModule(withCdbStatus(s1, s2), s);
    ASSERT_TRUE(s.maintenance) << int{s1} << " " << int{s2};
    EXPECT_EQ(s.maintenance->reason, "cdb_busy");
    EXPECT_EQ(s.lanes.size(), 4u);  // the monitors are read as usual
  }
}

TEST(CdbBusy, NotBusyIsNoMaintenanceAndTheMarkClearsOnAReusedSample) {
  Sample s;
  decodeModule(withCdbStatus(0x80, 0x00), s);
  ASSERT_TRUE(s.maintenance);
  decodeModule(withCdbStatus(0x41, 0x00), s);  // failed last command, not busy: not maintenance
  EXPECT_FALSE(s.maintenance);
}

TEST(CdbBusy, AReasonSetBeforeTheDecodeStays) {
  Sample s;
  s.maintenance = Maintenance{"configured"};
  decodeModule(withCdbStatus(0x00, 0x00), s);
  ASSERT_TRUE(s.maintenance);
  EXPECT_EQ(s.maintenance->reason, "configured");
}

}  // namespace
}  // namespace opticsd::eeprom::test
