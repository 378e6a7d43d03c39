#include <gtest/gtest.h>

#include "daemon/web/fleet_overview.hpp"
#include "daemon/web/fleet_page.hpp"
#include "daemon/web/triage.hpp"
#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web {
namespace {

TargetRulesView::PortRow port(const std::string& name, double score, const std::string& host, const std::string& rail,
                              const std::string& peer_target = "", const std::string& peer_port = "") {
  TargetRulesView::PortRow row;
  row.port = name;
  row.score = score;
  row.endpoint = std::make_unique<const Endpoint>(Endpoint{host, "nic0", "0", rail, peer_target, peer_port, false});
  return row;
}

test::FakePageData fleet() {
  test::FakePageData d;
  auto leaf = std::make_shared<TargetRulesView>();
  leaf->ports.push_back(port("Ethernet1", 0.0, "gpu-node-1", "1"));
  leaf->ports.push_back(port("Ethernet2", 0.9, "gpu-node-2", "1", "spine-1", "Ethernet7"));
  leaf->ports.push_back(port("Ethernet3", 0.3, "gpu-node-3", "2"));
  leaf->findings.push_back({"Ethernet2", 0, "pre_fec_ber", Severity::kCritical});
  leaf->findings.push_back({"Ethernet3", 2, "rx_power_low", Severity::kWarning});
  d.views["leaf-1"] = leaf;
  auto spine = std::make_shared<TargetRulesView>();
  spine->ports.push_back(port("Ethernet7", 0.4, "", ""));
  d.views["spine-1"] = spine;
  d.target_states = {{"leaf-1", "snmp", d.now - 1000, false, 3, true},
                     {"spine-1", "snmp", d.now - 1000, true, 1, true}};
  return d;
}

TEST(FleetOverview, SuspectsRankedWithReasonAndModulesByHealth) {
  auto d = fleet();
  d.history_error = "history is off (storage.enabled: false)";
  const auto f = buildFleetOverview(d);
  ASSERT_EQ(f.suspects.size(), 3u);
  EXPECT_EQ(f.suspects[0].port, "Ethernet2");
  EXPECT_EQ(f.suspects[0].reason, "pre_fec_ber (critical)");
  EXPECT_EQ(f.suspects[1].target, "spine-1");
  EXPECT_EQ(f.suspects[2].reason, "rx_power_low (warning) on lane 2");
  EXPECT_EQ(f.modules, 4u);
  EXPECT_EQ(f.modules_critical, 1u);
  EXPECT_EQ(f.modules_warning, 1u);
  EXPECT_EQ(f.findings.size(), 2u);
  const std::string page = renderFleetPage(f);
  EXPECT_NE(page.find("History is unavailable"), std::string::npos);
  EXPECT_NE(page.find("kept (polls failing)"), std::string::npos);
  EXPECT_LT(page.find("/optic?target=leaf-1&amp;port=Ethernet2"), page.find("/optic?target=spine-1"));
}

TEST(FleetOverview, StoredReasonWins) {
  auto d = fleet();
  d.stored_suspects.push_back({"leaf-1", "Ethernet2", 0.9, "pre-FEC BER 2e-04 is at the FEC limit", {}, 0});
  const auto f = buildFleetOverview(d);
  EXPECT_EQ(f.suspects[0].reason, "pre-FEC BER 2e-04 is at the FEC limit");
}

TEST(Triage, HostsAndRailsSelectLinksWithBothEnds) {
  const auto d = fleet();
  TriageQuery q;
  q.hosts = splitNames("gpu-node-2, gpu-node-3");
  auto t = buildTriage(d, q);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].near.port, "Ethernet2");
  ASSERT_TRUE(t.rows[0].far);
  EXPECT_EQ(t.rows[0].far->target, "spine-1");
  EXPECT_DOUBLE_EQ(t.rows[0].far->score, 0.4);
  EXPECT_FALSE(t.rows[1].far);
  q = {};
  q.rail = "2";
  t = buildTriage(d, q);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].near.port, "Ethernet3");
  EXPECT_TRUE(buildTriage(d, TriageQuery{}).rows.empty());
  EXPECT_NE(renderTriagePage(t).find("gpu-node-3"), std::string::npos);
}

}  // namespace
}  // namespace opticsd::web
