#include "drivers/snmp/profile.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "drivers/snmp/profile_catalog.hpp"
#include "test_support.hpp"

namespace opticsd::snmp {
namespace {

TEST(ProfileLoader, ShippedProfilesLoad) {
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  ASSERT_TRUE(catalog) << catalog.error().message;
  for (const char* name : {"arista-eos", "sonic", "cisco-entity-sensor", "juniper-dom"}) {
    EXPECT_NE((*catalog)->byName(name), nullptr) << name;
  }
}

TEST(ProfileLoader, PicksBySysObjectIdLongestPrefix) {
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  ASSERT_TRUE(catalog);
  auto arista = (*catalog)->bySysObjectId(*Oid::parse("1.3.6.1.4.1.30065.1.3011.7050.1958.128"));
  ASSERT_NE(arista, nullptr);
  EXPECT_EQ(arista->name, "arista-eos");
  auto junos = (*catalog)->bySysObjectId(*Oid::parse("1.3.6.1.4.1.2636.1.1.1.2.90"));
  ASSERT_NE(junos, nullptr);
  EXPECT_EQ(junos->name, "juniper-dom");
  EXPECT_EQ((*catalog)->bySysObjectId(*Oid::parse("1.3.6.1.4.1.99999.1")), nullptr);
}

TEST(ProfileLoader, ErrorsCarryLocation) {
  auto bad_key = loadProfile("name: x\ntables:\n  - name: t\n    entry: 1.3.6\n    colums: []\n", "p.yaml");
  ASSERT_FALSE(bad_key);
  EXPECT_NE(bad_key.error().message.find("p.yaml:5:5"), std::string::npos) << bad_key.error().message;
  EXPECT_NE(bad_key.error().message.find("colums"), std::string::npos);

  auto bad_regex = loadProfile(
      "name: x\nentity_sensors:\n  sensor_entry: 1.3.6\n  sensors: [{match: '(', metric: temperature}]\n"
      "  port: {method: description, pattern: '(x)'}\n",
      "q.yaml");
  ASSERT_FALSE(bad_regex);
  EXPECT_NE(bad_regex.error().message.find("regular expression"), std::string::npos);

  auto bad_metric = loadProfile("name: x\ntables: [{name: t, entry: 1.3, columns: [{column: 1, metric: rx_pwr}]}]\n",
                                "r.yaml");
  ASSERT_FALSE(bad_metric);
  EXPECT_NE(bad_metric.error().message.find("rx_pwr"), std::string::npos);

  auto power_without_unit =
      loadProfile("name: x\ntables: [{name: t, entry: 1.3, columns: [{column: 1, metric: rx_power}]}]\n", "s.yaml");
  EXPECT_FALSE(power_without_unit);
  EXPECT_FALSE(loadProfile("name: x\n", "empty.yaml"));
  EXPECT_FALSE(loadProfile("[1, 2", "broken.yaml"));
}

TEST(ProfileLoader, UserDirectoryOverridesShipped) {
  std::string dir = ::testing::TempDir() + "/snmp-user-profiles";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/mine.yaml");
    f << "name: arista-eos\ndescription: mine\ntables: [{name: t, entry: 1.3.6.1.4.1.1, "
         "columns: [{column: 1, metric: temperature}]}]\n";
  }
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles", dir});
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_EQ((*catalog)->byName("arista-eos")->description, "mine");
}

}  // namespace
}  // namespace opticsd::snmp
