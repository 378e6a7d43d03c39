#pragma once
// Helpers for the SNMP unit tests: fixtures and shipped profiles by name.

#include <gtest/gtest.h>

#include <string>

#include "drivers/snmp/profile.hpp"
#include "drivers/snmp/varbind_store.hpp"
#include "tests/support/snmp/snmprec.hpp"

namespace opticsd::snmp::testing {

inline std::string fixturePath(const std::string& name) {
  return std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/snmp/" + name;
}

inline Profile shippedProfile(const std::string& name) {
  auto p = loadProfileFile(std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles/" + name + ".yaml");
  EXPECT_TRUE(p) << (p ? "" : p.error().message);
  return p ? *p : Profile{};
}

inline VarbindStore fixtureStore(const std::string& name) {
  auto rows = readSnmprecFile(fixturePath(name));
  EXPECT_TRUE(rows) << (rows ? "" : rows.error().message);
  return VarbindStore(rows ? *rows : std::vector<Varbind>{});
}

}  // namespace opticsd::snmp::testing
