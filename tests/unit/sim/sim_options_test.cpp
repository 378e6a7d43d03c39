#include "drivers/sim/sim_options.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "drivers/sim/noise.hpp"

namespace opticsd::sim {
namespace {

struct Parsed {
  std::optional<SimSwitchConfig> config;
  std::vector<ConfigIssue> issues;
  bool hasIssue(const std::string& key, const std::string& text) const {
    for (const auto& i : issues) {
      if (i.key == key && i.message.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::string all() const {
    std::string out;
    for (const auto& i : issues) out += i.format() + "\n";
    return out;
  }
};

Parsed parse(const std::string& yaml) {
  Parsed p;
  OptionReader reader(YAML::Load(yaml), "fleet.yaml", "targets[0]", p.issues);
  p.config = readSimOptions("leaf7", reader);
  reader.rejectUnknownKeys();
  return p;
}

TEST(SimOptions, DefaultsWhenEmpty) {
  const Parsed p = parse("{}");
  ASSERT_TRUE(p.config) << p.all();
  EXPECT_EQ(p.config->name, "leaf7");
  EXPECT_EQ(p.config->seed, hashString("leaf7"));
  EXPECT_EQ(p.config->ports, 32);
  EXPECT_EQ(p.config->module, "osfp-800g-2fr4");
  EXPECT_EQ(p.config->port_prefix, "Ethernet");
  EXPECT_FALSE(p.config->epoch_ms);
  EXPECT_TRUE(p.config->scenarios.empty());
  EXPECT_TRUE(p.issues.empty());
}

TEST(SimOptions, ReadsEveryOption) {
  const Parsed p = parse(R"(
module: qsfp-dd-400g-dr4
seed: -5
ports: 64
lanes: 4
port_prefix: swp
epoch_ms: 1700000000000
scenarios:
  - {scenario: dirty_connector, port: swp3, onset: 2m, ramp: 1h}
  - {scenario: lane_failure, port: 7, lane: 4, onset: 90s}
  - scenario: link_flapping
    port: "64"
)");
  ASSERT_TRUE(p.config) << p.all();
  const SimSwitchConfig& c = *p.config;
  EXPECT_EQ(c.module, "qsfp-dd-400g-dr4");
  EXPECT_EQ(c.seed, static_cast<std::uint64_t>(-5));
  EXPECT_EQ(c.ports, 64);
  EXPECT_EQ(c.lanes, 4);
  EXPECT_EQ(c.port_prefix, "swp");
  EXPECT_EQ(c.epoch_ms, 1'700'000'000'000);
  ASSERT_EQ(c.scenarios.size(), 3u);
  EXPECT_EQ(c.scenarios[0].kind, ScenarioKind::kDirtyConnector);
  EXPECT_EQ(c.scenarios[0].port_index, 2);
  EXPECT_EQ(c.scenarios[0].onset_ms, 120'000);
  EXPECT_EQ(c.scenarios[0].ramp_ms, 3'600'000);
  EXPECT_EQ(c.scenarios[1].kind, ScenarioKind::kLaneFailure);
  EXPECT_EQ(c.scenarios[1].port_index, 6);
  EXPECT_EQ(c.scenarios[1].lane_index, 3);
  EXPECT_EQ(c.scenarios[1].onset_ms, 90'000);
  EXPECT_EQ(c.scenarios[1].ramp_ms, defaultRampMs(ScenarioKind::kLaneFailure));
  EXPECT_EQ(c.scenarios[2].port_index, 63);
  EXPECT_EQ(c.scenarios[2].onset_ms, 0);
  EXPECT_TRUE(SimSwitch::create(c, 0));
}

TEST(SimOptions, BadScenarioNameIsReportedWithItsKeyAndLine) {
  const Parsed p = parse("scenarios:\n  - {scenario: laser_aging, port: 1}\n");
  EXPECT_FALSE(p.config);
  ASSERT_TRUE(p.hasIssue("targets[0].scenarios[0].scenario", "unknown scenario 'laser_aging'")) << p.all();
  EXPECT_TRUE(p.hasIssue("targets[0].scenarios[0].scenario", "laser_ageing")) << "lists the valid names";
  EXPECT_EQ(p.issues[0].file, "fleet.yaml");
  EXPECT_EQ(p.issues[0].line, 2);
}

TEST(SimOptions, BadPortsAreReported) {
  EXPECT_TRUE(parse("ports: -4").hasIssue("targets[0].ports", "from 1 to 4096"));
  EXPECT_TRUE(parse("ports: 0").hasIssue("targets[0].ports", "got '0'"));
  EXPECT_TRUE(parse("ports: many").hasIssue("targets[0].ports", "expected an integer"));
  EXPECT_FALSE(parse("ports: -4").config);
  const Parsed p = parse("ports: 8\nscenarios: [{scenario: dirty_connector, port: Ethernet9}]");
  EXPECT_TRUE(p.hasIssue("targets[0].scenarios[0].port", "no port 'Ethernet9'")) << p.all();
  EXPECT_TRUE(parse("scenarios: [{scenario: dirty_connector, port: eth1}]")
                  .hasIssue("targets[0].scenarios[0].port", "no port 'eth1'"));
  EXPECT_TRUE(
      parse("scenarios: [{scenario: dirty_connector, port: -1}]").hasIssue("targets[0].scenarios[0].port", "no port"));
  EXPECT_TRUE(parse("scenarios: [{scenario: dirty_connector}]").hasIssue("targets[0].scenarios[0]", "'port'"));
}

TEST(SimOptions, LaneRulesAndOtherErrors) {
  EXPECT_TRUE(
      parse("scenarios: [{scenario: lane_failure, port: 1}]").hasIssue("targets[0].scenarios[0]", "needs 'lane'"));
  EXPECT_TRUE(parse("scenarios: [{scenario: lane_failure, port: 1, lane: 9}]")
                  .hasIssue("targets[0].scenarios[0].lane", "from 1 to 8"));
  EXPECT_TRUE(parse("module: sfp-10g-lr\nscenarios: [{scenario: lane_failure, port: 1, lane: 2}]")
                  .hasIssue("targets[0].scenarios[0].lane", "from 1 to 1"));
  EXPECT_TRUE(parse("scenarios: [{scenario: dirty_connector, port: 1, lane: 2}]")
                  .hasIssue("targets[0].scenarios[0].lane", "only lane_failure"));
  EXPECT_TRUE(parse("scenarios: [{scenario: dirty_connector, port: 1, onset: soon}]")
                  .hasIssue("targets[0].scenarios[0].onset", ""));
  EXPECT_TRUE(parse("scenarios: [{scenario: dirty_connector, port: 1, severity: 3}]")
                  .hasIssue("targets[0].scenarios[0].severity", "unknown key"));
  EXPECT_TRUE(parse("scenarios: dirty_connector").hasIssue("targets[0].scenarios", "expected a list"));
  EXPECT_TRUE(parse("module: cfp2-dco").hasIssue("targets[0].module", "osfp-800g-2fr4"));
  EXPECT_TRUE(parse("module: sfp-10g-lr\nlanes: 4").hasIssue("targets[0].lanes", "from 1 to 1"));
  EXPECT_TRUE(parse("lanes: 65").hasIssue("targets[0].lanes", "from 1 to 64"));
  EXPECT_TRUE(parse("port_prefix: Eth1").hasIssue("targets[0].port_prefix", "digit"));
  EXPECT_TRUE(parse("seed: 1.5").hasIssue("targets[0].seed", "integer"));
  EXPECT_TRUE(parse("colour: blue").hasIssue("targets[0].colour", "unknown key"));
  // Every problem at once, not just the first.
  EXPECT_EQ(parse("ports: -1\nlanes: 99\nmodule: x").issues.size(), 3u);
}

}  // namespace
}  // namespace opticsd::sim
