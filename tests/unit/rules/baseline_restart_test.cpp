// Tx bias baselines survive a restart through the findings store (a real
// SQLite file): a drift that began before the restart is still measured
// against what the module drew when first seen, not re-learned from the
// drifted module; a module swapped while the daemon was down learns its own.
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "daemon/store/findings_history.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

using test::optic;

// The history store the daemon gives the engine as its FindingSink.
Result<std::unique_ptr<SqliteStore>> openHistory(const std::filesystem::path& db) {
  StoreOptions o;
  o.path = db;
  return SqliteStore::open(o);
}

constexpr std::int64_t kEpoch = 1'700'000'000'000;

Sample withBias(std::int64_t t, double bias_ma, const std::string& serial = "SN-A") {
  auto s = optic("sw", "p1", t);
  s.mutableIdentity().serial = serial;
  test::setLanes(s, LaneMetric::kTxBiasMilliamperes, bias_ma);
  return s;
}

std::vector<BiasBaseline> storedIn(const std::filesystem::path& db) {
  auto store = openHistory(db);
  EXPECT_TRUE(store) << store.error().message;
  return store ? (*store)->takeStoredBaselines() : std::vector<BiasBaseline>{};
}

TEST(BiasBaselineRestart, DriftStartedBeforeARestartIsStillFlagged) {
  test::TempDir dir;
  const auto db = dir.file("history.db");
  std::int64_t t = kEpoch;
  {
    auto store = openHistory(db);
    ASSERT_TRUE(store) << store.error().message;
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    for (int i = 0; i < 5; ++i) engine.evaluate("sw", {withBias(t += 30'000, 6.0)});  // the baseline: 6 mA
    for (int i = 0; i < 5; ++i) engine.evaluate("sw", {withBias(t += 30'000, 6.6)});  // +10%: drifting, not yet 20%
    EXPECT_TRUE(engine.activeFindings().empty());
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  }
  const auto stored = storedIn(db);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].target, "sw");
  EXPECT_EQ(stored[0].port, "p1");
  EXPECT_EQ(stored[0].serial, "SN-A");
  ASSERT_EQ(stored[0].lanes_ma.size(), 4u);
  for (double b : stored[0].lanes_ma) EXPECT_NEAR(b, 6.0, 1e-4);

  // Restart: the module is now at +25%.
  auto store = openHistory(db);
  ASSERT_TRUE(store);
  RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
  for (int i = 0; i < 3; ++i) engine.evaluate("sw", {withBias(t += 30'000, 7.5)});
  const auto active = engine.activeFindings();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0].rule, "bias_drift");
  EXPECT_EQ(active[0].severity, Severity::kWarning);
  EXPECT_NE(active[0].detail.find("tx_bias_drift=25% above 20%"), std::string::npos) << active[0].detail;

  // Without the stored baseline, the same polls would have hidden the drift.
  RulesEngine forgetful(defaultRuleSet(), Topology{}, nullptr);
  for (int i = 0; i < 10; ++i) forgetful.evaluate("sw", {withBias(t + i * 30'000, 7.5)});
  EXPECT_TRUE(forgetful.activeFindings().empty());
}

TEST(BiasBaselineRestart, ASwappedModuleLearnsItsOwn) {
  test::TempDir dir;
  const auto db = dir.file("history.db");
  std::int64_t t = kEpoch;
  {
    auto store = openHistory(db);
    ASSERT_TRUE(store);
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    for (int i = 0; i < 5; ++i) engine.evaluate("sw", {withBias(t += 30'000, 6.0)});
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  }
  {
    auto store = openHistory(db);
    ASSERT_TRUE(store);
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    // Another module in the same port, drawing 8 mA from the start: not a drift.
    for (int i = 0; i < 8; ++i) engine.evaluate("sw", {withBias(t += 30'000, 8.0, "SN-B")});
    EXPECT_TRUE(engine.activeFindings().empty());
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  }
  const auto stored = storedIn(db);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].serial, "SN-B");
  ASSERT_FALSE(stored[0].lanes_ma.empty());
  EXPECT_NEAR(stored[0].lanes_ma[0], 8.0, 1e-4);
}

}  // namespace
}  // namespace opticsd
