#include "daemon/store/history_decimator.hpp"

#include <gtest/gtest.h>

#include "daemon/store/sqlite_store.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

using std::chrono::seconds;

std::vector<std::int64_t> keptTimes(HistoryDecimator& d, std::vector<Sample> cycle) {
  d.thin(cycle);
  std::vector<std::int64_t> out;
  for (const Sample& s : cycle) out.push_back(s.timestamp_ms);
  return out;
}

TEST(HistoryDecimatorTest, KeepsOneSamplePerModulePerInterval) {
  HistoryDecimator d(seconds(10));
  std::size_t kept = 0;
  for (std::int64_t t = 0; t < 60'000; t += 1'000) {
    std::vector<Sample> cycle = test::cycle("leaf-1", 4, t, 2);
    const std::size_t removed = d.thin(cycle);
    EXPECT_EQ(removed + cycle.size(), 4u);
    kept += cycle.size();
  }
  // Polled every second for a minute: t = 0, 10, 20, 30, 40, 50 s per module.
  EXPECT_EQ(kept, 6u * 4u);
}

TEST(HistoryDecimatorTest, ZeroIntervalKeepsEverything) {
  HistoryDecimator d(seconds(0));
  for (std::int64_t t = 0; t < 5'000; t += 1'000) {
    std::vector<Sample> cycle = test::cycle("leaf-1", 3, t, 1);
    EXPECT_EQ(d.thin(cycle), 0u);
    EXPECT_EQ(cycle.size(), 3u);
  }
}

TEST(HistoryDecimatorTest, ModulesAreTrackedApart) {
  HistoryDecimator d(seconds(10));
  EXPECT_EQ(keptTimes(d, {test::fullSample("a", "p1", 0)}).size(), 1u);
  // Same port name on another target, and another port on the same target: both new.
  EXPECT_EQ(keptTimes(d, {test::fullSample("b", "p1", 1'000), test::fullSample("a", "p2", 1'000)}).size(), 2u);
  EXPECT_TRUE(keptTimes(d, {test::fullSample("a", "p1", 2'000)}).empty());
}

TEST(HistoryDecimatorTest, ModulesNotSeenForAnHourAreForgottenAndKeptWhenTheyReturn) {
  HistoryDecimator d(seconds(10));
  std::vector<Sample> gone = test::cycle("removed", 4, 0, 1);
  d.thin(gone);
  std::int64_t t = 0;
  for (; t <= 2 * 3'600'000; t += 10'000) {
    std::vector<Sample> cycle = test::cycle("stays", 2, t, 1);
    d.thin(cycle);
  }
  EXPECT_EQ(d.tracked(), 2u) << "the removed target's modules are still remembered";
  EXPECT_EQ(keptTimes(d, test::cycle("removed", 4, t, 1)).size(), 4u);
  EXPECT_EQ(d.tracked(), 6u);
}

TEST(HistoryDecimatorTest, AStateChangeIsAlwaysKeptAndSoIsItsReturn) {
  HistoryDecimator d(seconds(10));
  ASSERT_EQ(keptTimes(d, {test::fullSample("t", "p", 0)}).size(), 1u);
  ASSERT_TRUE(keptTimes(d, {test::fullSample("t", "p", 1'000)}).empty());

  Sample los = test::fullSample("t", "p", 2'000);
  los.lanes[0].status.rx_los = true;  // a one-poll LOS between two kept samples
  EXPECT_EQ(keptTimes(d, {los}), std::vector<std::int64_t>{2'000});
  EXPECT_EQ(keptTimes(d, {test::fullSample("t", "p", 3'000)}), std::vector<std::int64_t>{3'000});
  EXPECT_TRUE(keptTimes(d, {test::fullSample("t", "p", 4'000)}).empty());

  Sample down = test::fullSample("t", "p", 5'000);
  down.link.up = false;
  EXPECT_EQ(keptTimes(d, {down}).size(), 1u);
  Sample empty = test::fullSample("t", "p", 6'000);
  empty.module_present = false;
  EXPECT_EQ(keptTimes(d, {empty}).size(), 1u);
  EXPECT_EQ(keptTimes(d, {test::fullSample("t", "p", 7'000, 4, "SN-SWAPPED")}).size(), 1u);
  Sample dp = test::fullSample("t", "p", 8'000, 4, "SN-SWAPPED");
  dp.lanes[3].status.data_path_state = 1;
  EXPECT_EQ(keptTimes(d, {dp}).size(), 1u);
}

TEST(HistoryDecimatorTest, AValueChangeAloneWaitsForTheInterval) {
  HistoryDecimator d(seconds(10));
  ASSERT_EQ(keptTimes(d, {test::fullSample("t", "p", 0)}).size(), 1u);
  Sample drift = test::fullSample("t", "p", 1'000);
  drift.lanes[0].values.set(LaneMetric::kRxPowerDbm, -9.0);
  EXPECT_TRUE(keptTimes(d, {drift}).empty());
  drift.timestamp_ms = 10'000;
  EXPECT_EQ(keptTimes(d, {drift}).size(), 1u);
}

TEST(HistoryDecimatorTest, AClockSteppingBackDoesNotMuteHistory) {
  HistoryDecimator d(seconds(10));
  ASSERT_EQ(keptTimes(d, {test::fullSample("t", "p", 100'000)}).size(), 1u);
  EXPECT_EQ(keptTimes(d, {test::fullSample("t", "p", 50'000)}).size(), 1u);
  EXPECT_TRUE(keptTimes(d, {test::fullSample("t", "p", 51'000)}).empty());
}

TEST(HistoryDecimatorTest, StoreCountsWhatItLeavesOutAndWritesTheRest) {
  test::TempDir dir;
  StoreOptions o;
  o.path = dir.file("history.db");
  o.retention = std::chrono::milliseconds(0);
  o.sample_interval = seconds(10);
  o.deadband.heartbeat = std::chrono::milliseconds(0);  // the decimator alone
  auto store = SqliteStore::open(o);
  ASSERT_TRUE(store) << store.error().message;
  for (std::int64_t t = 0; t < 30'000; t += 1'000) ASSERT_TRUE((*store)->enqueue(test::cycle("leaf", 5, t, 2)));
  ASSERT_TRUE((*store)->flush(seconds(20)));
  const StoreStats stats = (*store)->stats();
  EXPECT_EQ(stats.written_samples_total, 3u * 5u);
  EXPECT_EQ(stats.decimated_samples_total, 27u * 5u);
  EXPECT_EQ(stats.dropped_samples_total, 0u);
  test::RawDb db(o.path.string());
  EXPECT_EQ(db.count("SELECT count(*) FROM module_history"), 15);
  EXPECT_EQ(db.count("SELECT count(DISTINCT ts_ms) FROM module_history"), 3);
}

}  // namespace
}  // namespace opticsd
