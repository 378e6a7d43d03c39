#include "daemon/web/optic_story.hpp"

#include <gtest/gtest.h>

#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web {
namespace {

using test::FakePageData;

FakePageData degradingFleet() {
  FakePageData d;
  auto leaf = std::make_shared<std::vector<Sample>>();
  leaf->push_back(test::opticSample("leaf-2", "Ethernet12", 4, -10.6, d.now - 5'000));
  d.live["leaf-2"] = leaf;
  auto spine = std::make_shared<std::vector<Sample>>();
  spine->push_back(test::opticSample("spine-1", "Ethernet1", 4, -3.0, d.now - 5'000));
  d.live["spine-1"] = spine;
  auto view = std::make_shared<TargetRulesView>();
  TargetRulesView::PortRow row;
  row.port = "Ethernet12";
  row.score = 0.81;
  row.ber_critical = 2.4e-4;
  row.endpoint =
      std::make_unique<const Endpoint>(Endpoint{"gpu-node-12", "nic1", "1", "2", "spine-1", "Ethernet1", false});
  view->ports.push_back(std::move(row));
  view->findings.push_back({"Ethernet12", 0, "rx_power_low", Severity::kWarning});
  d.views["leaf-2"] = view;
  d.target_states = {{"leaf-2", "sim", d.now - 5'000, false, 1, true}, {"spine-1", "sim", d.now, false, 1, true}};
  d.histories[{"leaf-2", "Ethernet12"}] = test::opticHistory("leaf-2", "Ethernet12", 4, d.now, 120);
  Finding f;
  f.target = "leaf-2";
  f.port = "Ethernet12";
  f.rule = "rx_power_low";
  f.severity = Severity::kWarning;
  f.start_ms = d.now - 30 * 60'000;
  f.detail = "rx_power_dbm=-10.6 below -10 (lane 1)";
  d.stored_findings.push_back(f);
  return d;
}

TEST(OpticStory, LanesAgainstTheModulesOwnThresholdsWithMargin) {
  const auto d = degradingFleet();
  auto story = buildOpticStory(d, {"leaf-2", "Ethernet12", "24h"});
  ASSERT_TRUE(story);
  ASSERT_EQ(story->lanes.size(), 4u);
  const auto& rx = story->lanes[0].rx_power_dbm;
  EXPECT_EQ(rx.state, "warning");
  ASSERT_TRUE(rx.margin);
  EXPECT_NEAR(*rx.margin, -0.6, 1e-9);
  EXPECT_EQ(rx.margin_text, "0.60 dB below the low warning");
  EXPECT_EQ(story->lanes[0].tx_bias_ma.state, "ok");
  EXPECT_EQ(story->lanes[0].tx_bias_ma.margin_text, "5.0 mA below the high warning");
  EXPECT_TRUE(story->lanes[0].tx_power_dbm.state.empty());  // no Tx thresholds: no verdict
  EXPECT_DOUBLE_EQ(story->score, 0.81);
}

TEST(OpticStory, PastAnAlarmTheMarginIsToTheAlarm) {
  Thresholds t;
  t.low_alarm = -13.0;
  t.low_warning = -10.0;
  t.high_warning = 4.0;
  const auto m = measure(Reading(-13.5), t, "dB");
  EXPECT_EQ(m.state, "alarm");
  EXPECT_EQ(m.margin_text, "0.50 dB below the low alarm");
  EXPECT_EQ(measure(Reading(3.0), t, "dB").margin_text, "1.00 dB below the high warning");
  EXPECT_TRUE(measure(Reading(), t, "dB").state.empty());
}

TEST(OpticStory, HistoryFindingsActionsAndFarEnd) {
  const auto d = degradingFleet();
  auto story = buildOpticStory(d, {"leaf-2", "Ethernet12", "24h"});
  ASSERT_TRUE(story);
  EXPECT_TRUE(story->history_error.empty());
  // Rx and Tx of 4 lanes and the module temperature.
  EXPECT_EQ(story->series.size(), 9u);
  ASSERT_EQ(story->findings.size(), 1u);
  EXPECT_EQ(story->findings[0].finding.rule, "rx_power_low");
  EXPECT_NE(std::string(story->findings[0].action.step).find("far end"), std::string::npos);
  EXPECT_EQ(story->reason, "rx_power_dbm=-10.6 below -10 (lane 1)");
  ASSERT_TRUE(story->far_end);
  EXPECT_EQ(story->far_end->page_url, "/optic?target=spine-1&port=Ethernet1");
  ASSERT_EQ(story->far_end->lanes.size(), 4u);
  EXPECT_DOUBLE_EQ(*story->far_end->lanes[0].their_tx_dbm, 1.0);
  EXPECT_DOUBLE_EQ(*story->far_end->lanes[0].our_rx_dbm, -10.6);
}

TEST(OpticStory, HistoryFailingKeepsTheLiveValuesAndSaysWhy) {
  auto d = degradingFleet();
  d.history_error = "database is locked";
  auto story = buildOpticStory(d, {"leaf-2", "Ethernet12", "1h"});
  ASSERT_TRUE(story);
  EXPECT_EQ(story->history_error, "database is locked");
  EXPECT_TRUE(story->series.empty());
  ASSERT_EQ(story->lanes.size(), 4u);
  // The rules engine's active finding, without a start time.
  ASSERT_EQ(story->findings.size(), 1u);
  EXPECT_EQ(story->findings[0].finding.start_ms, 0);
  EXPECT_EQ(story->reason, "rx_power_low (warning)");
}

TEST(OpticStory, WithoutLiveValuesTheLastStoredRowStandsForNow) {
  auto d = degradingFleet();
  d.live.clear();
  d.views.clear();
  auto story = buildOpticStory(d, {"leaf-2", "Ethernet12", "24h"});
  ASSERT_TRUE(story);
  EXPECT_FALSE(story->live);
  ASSERT_EQ(story->lanes.size(), 4u);
  EXPECT_NEAR(*story->lanes[2].rx_power_dbm.value, -15.0, 1e-9);
  EXPECT_EQ(story->serial, "SN123");
}

TEST(OpticStory, UnknownPortIsNotAStory) {
  const auto d = degradingFleet();
  EXPECT_FALSE(buildOpticStory(d, {"leaf-2", "Ethernet99", "24h"}));
  EXPECT_FALSE(rangeMs("2h"));
  EXPECT_EQ(*rangeMs("14d"), 14 * 24 * 3'600'000LL);
}

}  // namespace
}  // namespace opticsd::web
