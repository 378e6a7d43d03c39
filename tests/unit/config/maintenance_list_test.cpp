// `maintenance:`: targets and ports paused on purpose (issue 30).
#include "daemon/config/maintenance_list.hpp"

#include <gtest/gtest.h>

#include "daemon/config/config.hpp"

namespace opticsd {
namespace {

const std::string kTargets = R"(
targets:
  - {name: leaf-1, driver: sim, ports: 4}
  - {name: leaf-2, driver: sim, ports: 4}
)";

TEST(MaintenanceList, WholeTargetsAndSinglePorts) {
  auto config = loadConfigText(kTargets + R"(
maintenance:
  - target: leaf-1
  - {target: leaf-2, ports: [Ethernet3]}
)",
                               "test.yaml");
  ASSERT_TRUE(config) << config.error().format();
  const MaintenanceList& m = config->maintenance;
  EXPECT_TRUE(m.paused("leaf-1", "Ethernet1"));
  EXPECT_TRUE(m.paused("leaf-2", "Ethernet3"));
  EXPECT_FALSE(m.paused("leaf-2", "Ethernet1"));
  EXPECT_FALSE(m.paused("leaf-3", "Ethernet3"));

  std::vector<Sample> samples(2);
  samples[0].port = "Ethernet3";
  samples[1].port = "Ethernet1";
  m.apply("leaf-2", samples);
  ASSERT_TRUE(samples[0].maintenance);
  EXPECT_EQ(samples[0].maintenance->reason, "configured");
  EXPECT_FALSE(samples[1].maintenance);
  // The module's own reason is kept.
  samples[0].maintenance = Maintenance{"firmware_flashing"};
  m.apply("leaf-2", samples);
  EXPECT_EQ(samples[0].maintenance->reason, "firmware_flashing");
}

TEST(MaintenanceList, NoneByDefaultAndBadEntriesNamed) {
  auto none = loadConfigText(kTargets, "test.yaml");
  ASSERT_TRUE(none) << none.error().format();
  EXPECT_TRUE(none->maintenance.empty());

  auto bad = loadConfigText(kTargets + "maintenance:\n  - {ports: [Ethernet1], when: now}\n", "test.yaml");
  ASSERT_FALSE(bad);
  const auto text = bad.error().format();
  EXPECT_NE(text.find("maintenance[0]"), std::string::npos) << text;
  EXPECT_NE(text.find("target"), std::string::npos) << text;
  EXPECT_NE(text.find("when"), std::string::npos) << text;
  EXPECT_FALSE(loadConfigText(kTargets + "maintenance: leaf-1\n", "test.yaml"));
}

}  // namespace
}  // namespace opticsd
