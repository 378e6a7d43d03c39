#include "drivers/snmp/profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

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
  // DELL-NETWORKING-PRODUCTS-MIB: dellNetSSeriesProducts (1.3.6.1.4.1.6027.1.3) is OS9 on the S series.
  auto s_series = (*catalog)->bySysObjectId(*Oid::parse("1.3.6.1.4.1.6027.1.3.7"));
  ASSERT_NE(s_series, nullptr);
  EXPECT_EQ(s_series->name, "dell-os9");
}

TEST(ProfileLoader, NoTwoShippedProfilesClaimTheSameSysObjectIdPrefix) {
  // Otherwise the choice falls to file order, silently (the old sonic/dell-os9 clash on 6027.1.3).
  // A prefix may be shared by profiles that tell devices apart by sys_descr.
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  ASSERT_TRUE(catalog) << catalog.error().message;
  std::map<std::string, std::string> owner;
  for (const auto& profile : (*catalog)->profiles()) {
    for (const auto& prefix : profile->sys_object_ids) {
      auto [it, fresh] = owner.emplace(prefix.toString() + " " + profile->sys_descr_text, profile->name);
      EXPECT_TRUE(fresh) << prefix.toString() << " is claimed by " << it->second << " and " << profile->name;
    }
  }
}

// Huawei VRP 5 and YunShan share sysObjectID 1.3.6.1.4.1.2011.2.23 but not
// the unit of their power columns: sysDescr picks the profile, and a
// platform neither names gets the one that checks its readings.
TEST(ProfileLoader, HuaweiPlatformIsChosenBySysDescr) {
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  ASSERT_TRUE(catalog) << catalog.error().message;
  const Oid s5720 = *Oid::parse("1.3.6.1.4.1.2011.2.23.294");
  auto pick = [&](const std::string& descr) {
    auto p = (*catalog)->bySysObjectId(s5720, descr);
    return p ? p->name : std::string("none");
  };
  EXPECT_EQ(pick("S5720-32X-EI-24S-AC\nHuawei Versatile Routing Platform Software\r\n VRP (R) software,Version 5.170 "
                 "(S5720 V200R010C00SPC600)"),
            "huawei-vrp5");
  EXPECT_EQ(pick("Huawei YunShan OS\nVersion 1.24.0.1 (S6700 V600R024C00SPC100)"), "huawei-vrp8-yunshan");
  EXPECT_EQ(pick("Huawei Versatile Routing Platform Software\nVRP (R) software, Version 8.180 (NE8000 V800R012)"),
            "huawei-vrp8-yunshan");
  EXPECT_EQ(pick("Huawei Versatile Routing Platform Software\nVRP (R) software, Version 3.30"), "huawei-entity-extent");
  EXPECT_EQ(pick(""), "huawei-entity-extent");
}

TEST(ProfileLoader, ErrorsCarryLocation) {
  auto bad_key = loadProfile("name: x\ntables:\n  - name: t\n    entry: 1.3.6\n    colums: []\n", "p.yaml");
  ASSERT_FALSE(bad_key);
  EXPECT_NE(bad_key.error().message.find("p.yaml:5:5"), std::string::npos) << bad_key.error().message;
  EXPECT_NE(bad_key.error().message.find("colums"), std::string::npos);

  auto bad_regex = loadProfile(
      "name: x\nentity_sensors:\n  sensor_entry: 1.3.6\n  sensors: [{match: '(', metric: temperature_celsius}]\n"
      "  port: {method: description, pattern: '(x)'}\n",
      "q.yaml");
  ASSERT_FALSE(bad_regex);
  EXPECT_NE(bad_regex.error().message.find("regular expression"), std::string::npos);

  auto bad_metric =
      loadProfile("name: x\ntables: [{name: t, entry: 1.3, columns: [{column: 1, metric: rx_pwr}]}]\n", "r.yaml");
  ASSERT_FALSE(bad_metric);
  EXPECT_NE(bad_metric.error().message.find("rx_pwr"), std::string::npos);

  auto power_without_unit =
      loadProfile("name: x\ntables: [{name: t, entry: 1.3, columns: [{column: 1, metric: rx_power_dbm}]}]\n", "s.yaml");
  EXPECT_FALSE(power_without_unit);
  EXPECT_FALSE(loadProfile("name: x\n", "empty.yaml"));
  EXPECT_FALSE(loadProfile("[1, 2", "broken.yaml"));
}

TEST(ProfileLoader, EveryProblemIsReportedAtOnceWithItsPlace) {
  // The OptionReader model: one load lists all of them, each file:line:col: key: message.
  auto bad = loadProfile(
      "name: x\n"
      "tables:\n"
      "  - name: t\n"
      "    entry: 1.3\n"
      "    columns:\n"
      "      - {column: 0, metric: rx_power_dbm, unit: dbm}\n"
      "      - {column: 2, metric: temperature_celsius, divisor: -1}\n",
      "many.yaml");
  ASSERT_FALSE(bad);
  const auto& message = bad.error().message;
  EXPECT_NE(message.find("many.yaml:6:18: tables[0].columns[0].column: expected an integer from 1 to 100000"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("many.yaml:7:59: tables[0].columns[1].divisor: expected a positive number"), std::string::npos)
      << message;
}

TEST(ProfileLoader, OldMetricNamesStillLoadWithAWarningNamingTheNewOne) {
  auto old = loadProfile(
      "name: x\ntables: [{name: t, entry: 1.3, columns: [{column: 1, metric: rx_power, unit: dbm}]}]\n", "old.yaml");
  ASSERT_TRUE(old) << old.error().message;
  ASSERT_EQ(old->tables[0].columns.size(), 1u);
  EXPECT_TRUE(old->tables[0].columns[0].metric.isPower());
  ASSERT_EQ(old->warnings.size(), 1u);
  EXPECT_NE(old->warnings[0].find("old.yaml:2:62"), std::string::npos) << old->warnings[0];
  EXPECT_NE(old->warnings[0].find("'rx_power' is the old name of 'rx_power_dbm'"), std::string::npos)
      << old->warnings[0];

  auto current =
      loadProfile("name: x\ntables: [{name: t, entry: 1.3, columns: [{column: 1, metric: rx_power_dbm, unit: dbm}]}]\n",
                  "new.yaml");
  ASSERT_TRUE(current) << current.error().message;
  EXPECT_TRUE(current->warnings.empty());
}

TEST(ProfileLoader, MetricNamesAreTheCataloguesAndRoundTrip) {
  EXPECT_EQ(metricName(*parseMetricName("temperature_celsius")), "temperature_celsius");
  EXPECT_EQ(metricName(*parseMetricName("tx_bias_milliamperes")), "tx_bias_milliamperes");
  EXPECT_EQ(metricName(*parseMetricName("fec_uncorrectable_blocks_total")), "fec_uncorrectable_blocks_total");
  // pre_fec_ber_ratio is a module and a lane value: the bare key is refused, the prefixed ones are exact.
  auto ambiguous = parseMetricName("pre_fec_ber_ratio");
  ASSERT_FALSE(ambiguous);
  EXPECT_NE(ambiguous.error().message.find("lane_pre_fec_ber_ratio"), std::string::npos) << ambiguous.error().message;
  EXPECT_EQ(parseMetricName("module_pre_fec_ber_ratio")->kind, MetricTarget::Kind::kModule);
  EXPECT_EQ(parseMetricName("lane_pre_fec_ber_ratio")->kind, MetricTarget::Kind::kLane);
  EXPECT_EQ(metricName(*parseMetricName("lane_pre_fec_ber_ratio")), "lane_pre_fec_ber_ratio");
  EXPECT_EQ(metricName(*parseMetricName("module_pre_fec_ber_ratio")), "module_pre_fec_ber_ratio");
  // The old short names are the loader's business (with a warning), not the catalogue's.
  EXPECT_FALSE(parseMetricName("rx_power"));
}

TEST(ProfileLoader, UserDirectoryOverridesShipped) {
  std::string dir = ::testing::TempDir() + "/snmp-user-profiles";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/mine.yaml");
    f << "name: arista-eos\ndescription: mine\ntables: [{name: t, entry: 1.3.6.1.4.1.1, "
         "columns: [{column: 1, metric: temperature_celsius}]}]\n";
  }
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles", dir});
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_EQ((*catalog)->byName("arista-eos")->description, "mine");
}

}  // namespace
}  // namespace opticsd::snmp
