// A permanent loss is not forgotten (issue 19 item 4): a lane that sagged
// 4 dB and stopped stays in rx_power_drop after its window has moved past the
// fall, until it recovers; the lane's Rx baseline survives a restart through
// the findings store and a swapped module learns its own.
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000;
constexpr std::int64_t kPollMs = 30'000;

// The history store the daemon gives the engine as its FindingSink.
Result<std::unique_ptr<SqliteStore>> openHistory(const std::filesystem::path& db) {
  StoreOptions o;
  o.path = db;
  return SqliteStore::open(o);
}

// Lane 2 at -3 dBm less `loss`; the others steady at -3 dBm.
Sample withLoss(std::int64_t t, double loss, const std::string& serial = "SN-A") {
  Sample s = test::optic("sw", "p1", t);
  s.mutableIdentity().serial = serial;
  s.lanes[1].values.set(LaneMetric::kRxPowerDbm, -3.0 - loss);
  return s;
}

bool dropActive(const RulesEngine& engine) {
  for (const auto& f : engine.activeFindings()) {
    if (f.rule == "rx_power_drop") return true;
  }
  return false;
}

TEST(PowerBaseline, ALossThatStaysIsHeldPastTheWindowUntilTheLaneRecovers) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::int64_t t = kT0;
  for (int i = 0; i < 10; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 0.0)});
  // Sag 0.1 dB a poll to -4 dB, then stay there for 3 hours (the window is 1 h).
  for (int i = 1; i <= 40; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 0.1 * i)});
  ASSERT_TRUE(dropActive(engine));
  for (int i = 0; i < 360; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 4.0)});
  ASSERT_TRUE(dropActive(engine)) << "forgotten once the window moved past the fall";
  const auto suspects = engine.suspects();
  ASSERT_FALSE(suspects.empty());
  EXPECT_EQ(suspects[0].port, "p1");
  EXPECT_NE(suspects[0].reason.find("rx_power_drop"), std::string::npos) << suspects[0].reason;
  // Recovered (cleaned): cleared after the usual clean polls.
  for (int i = 0; i < 5; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 0.0)});
  EXPECT_FALSE(dropActive(engine));
}

TEST(PowerBaseline, RxBaselineSurvivesARestartAndASwappedModuleLearnsItsOwn) {
  test::TempDir dir;
  const auto db = dir.file("history.db");
  std::int64_t t = kT0;
  {
    auto store = openHistory(db);
    ASSERT_TRUE(store) << store.error().message;
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    for (int i = 0; i < 6; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 0.0)});
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  }
  {
    auto store = openHistory(db);
    ASSERT_TRUE(store);
    auto stored = (*store)->takeStoredBaselines();
    ASSERT_EQ(stored.size(), 1u);
    ASSERT_EQ(stored[0].lanes_rx_dbm.size(), 4u);
    ASSERT_TRUE(stored[0].lanes_rx_dbm[1].has_value());
    EXPECT_NEAR(*stored[0].lanes_rx_dbm[1], -3.0, 1e-4);
    ASSERT_TRUE(stored[0].lanes_tx_dbm[1].has_value());
    EXPECT_NEAR(*stored[0].lanes_tx_dbm[1], 1.0, 1e-4);
  }
  {
    // Restarted while lane 2 had lost 4 dB: flagged against the stored baseline.
    auto store = openHistory(db);
    ASSERT_TRUE(store);
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    for (int i = 0; i < 3; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 4.0)});
    EXPECT_TRUE(dropActive(engine));
    // Without it, the same polls hide the loss.
    RulesEngine forgetful(defaultRuleSet(), Topology{}, nullptr);
    for (int i = 0; i < 10; ++i) forgetful.evaluate("sw", {withLoss(t + i * kPollMs, 4.0)});
    EXPECT_FALSE(dropActive(forgetful));
  }
  {
    // A new module in the port, its lane 2 4 dB lower from the start: its own baseline.
    auto store = openHistory(db);
    ASSERT_TRUE(store);
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    for (int i = 0; i < 10; ++i) engine.evaluate("sw", {withLoss(t += kPollMs, 4.0, "SN-B")});
    EXPECT_FALSE(dropActive(engine));
  }
}

}  // namespace
}  // namespace opticsd
