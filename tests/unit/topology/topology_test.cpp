#include "daemon/topology/topology.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "daemon/rules/link_analysis.hpp"

namespace opticsd {
namespace {

Topology parse(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  return parseTopology(YAML::Load(yaml), "cfg.yaml", issues);
}

TEST(Topology, FileIsReadBesideTheConfigAndItsErrorsNameIt) {
  const auto dir = std::filesystem::temp_directory_path() / ("opticsd-topology-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "fabric.yaml")
      << "links:\n  - {switch: leaf-7, ports: Ethernet1-4, host: \"gpu-node-{n}\", rail: \"3\"}\n";
  std::ofstream(dir / "list.yaml") << "- {switch: leaf-8, port: Ethernet1, host: gpu-node-99}\n";
  std::ofstream(dir / "broken.yaml") << "links:\n  - {switch: leaf-9, prt: Ethernet1}\n";
  const std::string config = (dir / "opticsd.yaml").string();
  std::vector<ConfigIssue> issues;
  auto t = parseTopology(YAML::Load("file: fabric.yaml\nlinks: [{switch: leaf-7, port: Ethernet9, host: extra}]"),
                         config, issues);
  ASSERT_TRUE(issues.empty()) << issues.front().format();
  EXPECT_EQ(t.find("leaf-7", "Ethernet3")->host, "gpu-node-3");
  EXPECT_EQ(t.find("leaf-7", "Ethernet9")->host, "extra");  // inline links add to the file's
  EXPECT_EQ(parseTopology(YAML::Load("file: list.yaml"), config, issues).find("leaf-8", "Ethernet1")->host,
            "gpu-node-99");
  ASSERT_TRUE(issues.empty()) << issues.front().format();

  parseTopology(YAML::Load("file: missing.yaml"), config, issues);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].format().find("missing.yaml"), std::string::npos) << issues[0].format();
  issues.clear();
  parseTopology(YAML::Load("file: broken.yaml"), config, issues);
  ASSERT_FALSE(issues.empty());
  EXPECT_NE(issues[0].format().find("broken.yaml"), std::string::npos) << issues[0].format();
  std::filesystem::remove_all(dir);
}

TEST(Topology, RangesExpandWithThePortNumber) {
  std::vector<ConfigIssue> issues;
  auto t = parse(R"(links:
  - {switch: leaf-2, ports: Ethernet1-32, host: "gpu-node-{n}", nic: nic1, gpu: "1", rail: "2"}
  - {switch: leaf-2, port: Ethernet33, peer_switch: spine-1, peer_port: Ethernet2})",
                 issues);
  ASSERT_TRUE(issues.empty()) << issues.front().format();
  EXPECT_EQ(t.configured(), 33u);
  auto e = t.find("leaf-2", "Ethernet17");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->host, "gpu-node-17");
  EXPECT_EQ(e->gpu, "1");
  EXPECT_EQ(e->rail, "2");
  EXPECT_EQ(e->describe(), "host=gpu-node-17 nic=nic1 gpu=1 rail=2");
  EXPECT_FALSE(t.find("leaf-2", "Ethernet34"));
  EXPECT_FALSE(t.find("leaf-1", "Ethernet1"));
  EXPECT_TRUE(t.hasPeers());
  EXPECT_EQ(t.find("leaf-2", "Ethernet33")->peer_target, "spine-1");
}

TEST(Topology, ErrorsCarryLineAndKey) {
  std::vector<ConfigIssue> issues;
  parse(R"(links:
  - {switch: leaf-1, ports: Ethernet, host: h}
  - {switch: leaf-1, port: Ethernet1}
  - {switch: leaf-1, port: Ethernet2, host: h, colour: red})",
        issues);
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_EQ(issues[0].line, 2);
  EXPECT_NE(issues[0].format().find("topology.links[0].ports"), std::string::npos) << issues[0].format();
  EXPECT_NE(issues[1].format().find("say what is behind the port"), std::string::npos);
  EXPECT_NE(issues[2].format().find("colour: unknown key"), std::string::npos) << issues[2].format();
}

TEST(Topology, LldpFillsWhatTheConfigLeavesOut) {
  std::vector<ConfigIssue> issues;
  auto t = parse("links: [{switch: leaf-1, port: Ethernet1, gpu: '0', rail: '1'}]", issues);
  ASSERT_TRUE(issues.empty());
  EXPECT_FALSE(t.hasPeers());
  t.setNeighbors("leaf-1", {{"Ethernet1", "gpu-node-1", "enp1s0f0"}, {"Ethernet2", "spine-3", "Ethernet7"}});
  auto e = t.find("leaf-1", "Ethernet1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->host, "gpu-node-1");
  EXPECT_EQ(e->nic, "enp1s0f0");
  EXPECT_EQ(e->gpu, "0");
  EXPECT_TRUE(e->from_lldp);
  auto peer = t.find("leaf-1", "Ethernet2");
  ASSERT_TRUE(peer);
  EXPECT_EQ(peer->peer_target, "spine-3");
  EXPECT_EQ(peer->peer_port, "Ethernet7");
  EXPECT_TRUE(t.hasPeers());
  EXPECT_EQ(t.discovered(), 2u);
  // A reload keeps what LLDP taught us.
  std::vector<ConfigIssue> more;
  t.replaceConfigured(parse("links: [{switch: leaf-1, port: Ethernet1, host: configured}]", more));
  EXPECT_EQ(t.find("leaf-1", "Ethernet1")->host, "configured");
  EXPECT_EQ(t.find("leaf-1", "Ethernet2")->peer_target, "spine-3");
  t.setNeighbors("leaf-1", {});
  EXPECT_FALSE(t.find("leaf-1", "Ethernet2"));
  EXPECT_FALSE(t.hasPeers());
}

TEST(LinkAnalysis, TellsPathLossFromAWeakTransmitter) {
  // Both transmitters normal, 9 dB lost on the way: the fibre or a connector.
  EXPECT_EQ(classifyLink({1.0, -8.0, -5.0}, 6.0), LinkVerdict::kPathLoss);
  // Normal 3 dB path, but the far end only sends -7 dBm: its module is failing.
  EXPECT_EQ(classifyLink({-7.0, -10.0, -5.0}, 6.0), LinkVerdict::kFarEndTxLow);
  EXPECT_EQ(classifyLink({1.0, -2.5, -5.0}, 6.0), LinkVerdict::kHealthy);
  EXPECT_EQ(classifyLink({1.0, 4.0, std::nullopt}, 6.0), LinkVerdict::kNearEndRxHigh);
}

}  // namespace
}  // namespace opticsd
