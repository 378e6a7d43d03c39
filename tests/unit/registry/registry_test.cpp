// The driver seam: the registry table, validate once at load, create from
// what validate returned.
#include "drivers/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <string>

#include "daemon/config/config.hpp"
#include "daemon/service/target_plans.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

TEST(DriverRegistry, EveryEntryIsCompleteAndFoundByItsName) {
  const auto drivers = driverRegistry();
  ASSERT_FALSE(drivers.empty());
  for (const DriverEntry* entry : drivers) {
    ASSERT_NE(entry, nullptr);
    EXPECT_FALSE(entry->name.empty());
    EXPECT_FALSE(entry->summary.empty()) << entry->name;
    EXPECT_NE(entry->validate, nullptr) << entry->name;
    EXPECT_NE(entry->create, nullptr) << entry->name;
    EXPECT_EQ(findDriver(entry->name), entry);
    EXPECT_NE(driverNames().find(std::string(entry->name)), std::string::npos);
  }
  EXPECT_TRUE(std::is_sorted(drivers.begin(), drivers.end(),
                             [](const DriverEntry* a, const DriverEntry* b) { return a->name < b->name; }))
      << "one opticsd_driver() line per driver, in name order: " << driverNames();
  EXPECT_EQ(findDriver("gopher"), nullptr);
}

TEST(DriverRegistry, SnmpDeclaresItsSecretKeys) {
  const DriverEntry* snmp = findDriver("snmp");
  if (snmp == nullptr) GTEST_SKIP() << "built without the snmp driver";
  for (std::string_view key : {"community", "auth_password", "priv_password"}) {
    EXPECT_NE(std::find(snmp->secret_keys.begin(), snmp->secret_keys.end(), key), snmp->secret_keys.end()) << key;
  }
  EXPECT_TRUE(findDriver("sim")->secret_keys.empty());
}

constexpr const char* kSimConfig = R"(
storage: {enabled: false}
targets:
  - {name: leaf1, driver: sim, ports: 4}
)";

TEST(DriverSeam, LoadKeepsTheDriversTypedConfig) {
  auto config = loadConfigText(kSimConfig, "t.yaml");
  ASSERT_TRUE(config) << config.error().format();
  ASSERT_EQ(config->targets.size(), 1u);
  ASSERT_NE(config->targets[0].driver_config, nullptr);
  const auto* sim = driverConfigAs<sim::SimSwitchConfig>(*config->targets[0].driver_config);
  ASSERT_NE(sim, nullptr);
  EXPECT_EQ(sim->ports, 4);
}

TEST(DriverSeam, RunCreatesDriversFromTheValidatedConfigNotByParsingAgain) {
  auto config = loadConfigText(kSimConfig, "t.yaml");
  ASSERT_TRUE(config) << config.error().format();
  // Were the options parsed a second time, this would fail the target.
  config->targets[0].options["ports"] = "not a number";
  boost::asio::io_context io;
  std::vector<std::string> errors;
  auto plans = buildTargetPlans(*config, io, errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(plans.size(), 1u);
  std::optional<PollResult> polled;
  plans[0].driver->poll(1'700'000'000'000, [&](PollResult r) { polled = std::move(r); });
  io.run();
  ASSERT_TRUE(polled);
  EXPECT_EQ(polled->samples.size(), 4u);
}

TEST(ConfigLoad, KeepsRulesAndTopologyParsedForTheService) {
  auto config = loadConfigText(std::string(kSimConfig) + R"(
rules:
  port_groups:
    - {name: uplinks, targets: ["leaf*"], ports: ["Ethernet1"]}
topology:
  links:
    - {switch: leaf1, ports: Ethernet1-4, host: "gpu-node-{n}", nic: nic0, gpu: "0", rail: "1"}
)",
                               "t.yaml");
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_NE(config->rules.find("temperature_high"), nullptr) << "the shipped rules under the config's";
  ASSERT_EQ(config->rules.port_groups.size(), 1u);
  EXPECT_EQ(config->rules.port_groups[0].name, "uplinks");
  auto endpoint = config->topology.find("leaf1", "Ethernet3");
  ASSERT_TRUE(endpoint);
  EXPECT_EQ(endpoint->host, "gpu-node-3");
}

TEST(DriverSeam, CheckConfigNamesTheDriversThisBuildHas) {
  auto config = loadConfigText("targets:\n  - {name: x, driver: gopher}\n", "t.yaml");
  ASSERT_FALSE(config);
  const std::string text = config.error().format();
  EXPECT_NE(text.find("unknown driver 'gopher' (expected one of: " + driverNames() + ")"), std::string::npos) << text;
}

}  // namespace
}  // namespace opticsd
