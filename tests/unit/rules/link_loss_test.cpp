// Link loss end to end through the engine: with both ends of a topology link
// polled, light lost in the path between two healthy modules is a fibre or
// connector finding naming both ends (and no module is blamed); a weak
// far-end transmitter on a normal path blames that module instead.
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

using test::optic;

Topology link() {
  std::vector<ConfigIssue> issues;
  auto topo = parseTopology(YAML::Load(R"(links:
  - {switch: leaf-1, port: Ethernet1, peer_switch: spine-1, peer_port: Ethernet2}
  - {switch: spine-1, port: Ethernet2, peer_switch: leaf-1, peer_port: Ethernet1})"),
                            "topology.yaml", issues);
  EXPECT_TRUE(issues.empty()) << issues.front().format();
  return topo;
}

struct Ends {
  double spine_tx;  // spine-1:Ethernet2 transmits, leaf-1:Ethernet1 receives
  double leaf_rx;
};

// Polls both ends `polls` times from poll `first` on; the leaf->spine direction is healthy (3 dB).
void run(RulesEngine& engine, const Ends& e, int first = 1, int polls = 4) {
  for (int i = first; i < first + polls; ++i) {
    const std::int64_t t = i * 30'000LL;
    auto spine = optic("spine-1", "Ethernet2", t);
    test::setLanes(spine, LaneMetric::kTxPowerDbm, e.spine_tx);
    test::setLanes(spine, LaneMetric::kRxPowerDbm, -2.0);
    auto leaf = optic("leaf-1", "Ethernet1", t);
    test::setLanes(leaf, LaneMetric::kTxPowerDbm, 1.0);
    test::setLanes(leaf, LaneMetric::kRxPowerDbm, e.leaf_rx);
    engine.evaluate("spine-1", {spine});
    engine.evaluate("leaf-1", {leaf});
  }
}

TEST(LinkLoss, PathLossBetweenHealthyModulesIsAFibreFindingNamingBothEnds) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), link(), &sink);
  run(engine, {1.0, -7.5});  // both transmit 1 dBm; 8.5 dB lost towards the leaf
  ASSERT_EQ(sink.raises(), 1u);
  const Finding& f = sink.records[0];
  EXPECT_EQ(f.rule, "link_loss");
  EXPECT_EQ(f.target, "leaf-1");
  EXPECT_EQ(f.port, "Ethernet1");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.value, 8.5);
  EXPECT_EQ(f.detail,
            "path_loss=8.5 dB above 6 dB (lane 1): fibre or connector loss between spine-1:Ethernet2 (Tx 1 dBm) and "
            "leaf-1:Ethernet1 (Rx -7.5 dBm); both transmitters are normal");
  // No module is blamed: nothing on the spine, nothing but the link on the leaf.
  for (const auto& r : sink.records) EXPECT_EQ(r.rule, "link_loss") << r.target << " " << r.detail;

  // Worse: critical, escalated in place.
  run(engine, {1.0, -9.0}, 5);
  const auto active = engine.activeFindings();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0].severity, Severity::kCritical);
}

TEST(LinkLoss, WeakFarEndTransmitterBlamesThatModuleNotTheFibre) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), link(), &sink);
  run(engine, {-7.5, -10.5});  // the spine sends only -7.5 dBm; the path loses a normal 3 dB
  const Finding* weak = sink.firstRaise("Ethernet2", "tx_power_low");
  ASSERT_NE(weak, nullptr) << "the failing module has its own finding";
  EXPECT_EQ(weak->target, "spine-1");
  EXPECT_EQ(weak->severity, Severity::kCritical);
  const Finding* link_finding = sink.firstRaise("Ethernet1", "link_loss");
  ASSERT_NE(link_finding, nullptr);
  EXPECT_EQ(link_finding->target, "leaf-1");
  EXPECT_EQ(link_finding->detail,
            "path_loss=3 dB (lane 1): far-end transmitter weak, module spine-1:Ethernet2 sends -7.5 dBm, below its "
            "low warning -5 dBm; the path to leaf-1:Ethernet1 (Rx -10.5 dBm) is normal");
  for (const auto& r : sink.records) {
    EXPECT_EQ(r.detail.find("fibre"), std::string::npos) << r.rule << " " << r.detail;
    EXPECT_FALSE(r.target == "spine-1" && r.rule == "link_loss") << r.detail;
  }
  const auto suspects = engine.suspects();
  ASSERT_FALSE(suspects.empty());
  EXPECT_EQ(suspects.front().target, "spine-1") << suspects.front().reason;
  EXPECT_EQ(suspects.front().port, "Ethernet2");
}

TEST(LinkLoss, NoFindingWithoutTheFarEnd) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), link(), &sink);
  for (int i = 1; i <= 4; ++i) {
    auto leaf = optic("leaf-1", "Ethernet1", i * 30'000LL);
    test::setLanes(leaf, LaneMetric::kRxPowerDbm, -7.5);
    engine.evaluate("leaf-1", {leaf});
  }
  EXPECT_EQ(sink.raises(), 0u);
}

}  // namespace
}  // namespace opticsd
