// The plots' read of the history (history_buckets.hpp): min, max and last per
// time bucket, absent values absent, and the store's stepping query agreeing
// with the same buckets built from full rows.
#include "daemon/store/history_buckets.hpp"

#include <gtest/gtest.h>

#include "daemon/store/sqlite_store.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

SeriesRequest request(std::int64_t since, std::int64_t until, int buckets) {
  SeriesRequest r;
  r.target = "leaf-1";
  r.port = "Ethernet1";
  r.since_ms = since;
  r.until_ms = until;
  r.buckets = buckets;
  return r;
}

TEST(SeriesBuckets, KeepsTheLowestHighestAndLastOfEachBucketInTimeOrder) {
  // [0, 999] in 10 buckets of 100 ms.
  SeriesBuckets b(request(0, 999, 10), {"rx_power_dbm"});
  EXPECT_EQ(b.bucketMs(), 100);
  // Bucket 0: a dip at 30 and a spike at 60 between ordinary values.
  for (auto [t, v] : std::vector<std::pair<std::int64_t, double>>{{0, -3}, {30, -9}, {60, 2}, {90, -3.1}}) {
    b.add(0, 1, t, v);
  }
  b.add(0, 1, 150, -3.2);  // bucket 1: one value, min = max = last
  // Buckets 2..8 have nothing; bucket 9 ends at the range's last instant.
  b.add(0, 1, 999, -4);
  b.add(0, 1, 1000, 99);  // after the range: left out
  const auto series = b.finish();
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].key, "rx_power_dbm");
  EXPECT_EQ(series[0].lane, 1);
  const std::vector<HistoryPoint> expected{{30, -9}, {60, 2}, {90, -3.1}, {150, -3.2}, {999, -4}};
  EXPECT_EQ(series[0].points, expected);  // the first value (0, -3) is neither min, max nor last
}

TEST(SeriesBuckets, SeriesWithoutValuesAreLeftOutAndLevelsStayApart) {
  SeriesBuckets b(request(1000, 1999, 5), {"temperature_celsius", "rx_power_dbm"});
  b.add(1, 2, 1500, -5);
  b.add(1, 0, 1500, 7);  // the same key at module level is its own series
  b.add(0, 0, 500, 40);  // before the range
  const auto series = b.finish();
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].key, "rx_power_dbm");
  EXPECT_EQ(series[0].lane, 0);
  EXPECT_EQ(series[1].lane, 2);
  EXPECT_EQ(series[1].points, (std::vector<HistoryPoint>{{1500, -5}}));
}

TEST(SeriesBuckets, AnEmptyOrInvertedRangeStillHasAWidth) {
  SeriesBuckets b(request(5000, 4000, 0), {"x"});
  EXPECT_GE(b.bucketMs(), 1);
  b.add(0, 0, 5000, 1);
  EXPECT_EQ(b.finish().size(), 1u);
}

class HistorySeriesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.path = dir_.file("h.db");
    o.retention = std::chrono::milliseconds(0);
    o.deadband.heartbeat = std::chrono::milliseconds(0);
    auto store = SqliteStore::open(o);
    ASSERT_TRUE(store) << store.error().message;
    // 60 polls a second apart. Lane 1's Rx power falls 0.1 dB a poll with one
    // spike up to +3 dBm at t=17 s; lane 2 reports no Rx power from t=30 s on;
    // from t=40 s the module carries a FEC tail of 9 symbols (margin 6).
    for (int i = 0; i < 60; ++i) {
      const std::int64_t ts = kT0 + i * 1000;
      Sample s = test::fullSample("leaf-1", "Ethernet1", ts, 2);
      s.lanes[0].values.set(LaneMetric::kRxPowerDbm, i == 17 ? 3.0 : -2.0 - 0.1 * i);
      if (i >= 30) s.lanes[1].values[LaneMetric::kRxPowerDbm] = std::nullopt;
      if (i >= 40) {
        s.fec.correctable_symbols = 15;
        s.fec.tail.symbols = 9;
        s.fec.tail.lane_symbols = {9, 4};
      }
      ASSERT_TRUE((*store)->enqueue({std::move(s), test::fullSample("leaf-1", "Ethernet2", ts, 2)}));
    }
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(20)));
    auto q = HistoryQuery::open(o.path.string());
    ASSERT_TRUE(q) << q.error().message;
    query_.emplace(std::move(*q));
  }

  SeriesRequest plotRequest(int buckets) const {
    SeriesRequest r = request(kT0, kT0 + 59'999, buckets);
    r.module_keys = {"temperature_celsius", "fec_tail_symbols", "fec_margin_symbols", "no_such_key"};
    r.lane_keys = {"rx_power_dbm", "fec_tail_symbols"};
    return r;
  }

  static const HistorySeries* find(const SeriesResult& r, std::string_view key, int lane) {
    for (const auto& s : r.series) {
      if (s.key == key && s.lane == lane) return &s;
    }
    return nullptr;
  }

  static constexpr std::int64_t kT0 = 1'700'000'000'000;
  test::TempDir dir_;
  std::optional<HistoryQuery> query_;
};

TEST_F(HistorySeriesTest, BucketsKeepTheSpikeAndTheLastValue) {
  auto r = query_->series(plotRequest(6));  // 10 s buckets
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bucket_ms, 10'000);
  EXPECT_EQ(r->rows_read, 60u);
  EXPECT_EQ(r->last_row_ms, kT0 + 59'000);
  const auto* rx1 = find(*r, "rx_power_dbm", 1);
  ASSERT_NE(rx1, nullptr);
  // Bucket 1 (10-19 s): the spike at 17 s is its max; the values fall, so
  // its lowest is its last, at 19 s: two points.
  std::vector<HistoryPoint> bucket1;
  for (const auto& p : rx1->points) {
    if (p.ts_ms >= kT0 + 10'000 && p.ts_ms < kT0 + 20'000) bucket1.push_back(p);
  }
  ASSERT_EQ(bucket1.size(), 2u);
  EXPECT_EQ(bucket1[0].ts_ms, kT0 + 17'000);
  EXPECT_DOUBLE_EQ(bucket1[0].value, 3.0);
  EXPECT_EQ(bucket1[1].ts_ms, kT0 + 19'000);  // the lowest and the last
  EXPECT_NEAR(bucket1[1].value, -3.9, 1e-9);
  EXPECT_NEAR(rx1->points.back().value, -7.9, 1e-9);
  EXPECT_LE(rx1->points.size(), 6u * 3);
}

TEST_F(HistorySeriesTest, AbsentValuesStayAbsent) {
  auto r = query_->series(plotRequest(6));
  ASSERT_TRUE(r) << r.error().message;
  const auto* rx2 = find(*r, "rx_power_dbm", 2);
  ASSERT_NE(rx2, nullptr);
  EXPECT_LT(rx2->points.back().ts_ms, kT0 + 30'000);  // nothing after it stopped reporting
  // The FEC tail exists from 40 s on only: no point before, none invented as 0.
  const auto* tail = find(*r, "fec_tail_symbols", 0);
  ASSERT_NE(tail, nullptr);
  EXPECT_GE(tail->points.front().ts_ms, kT0 + 40'000);
  EXPECT_DOUBLE_EQ(tail->points.back().value, 9);
  const auto* margin = find(*r, "fec_margin_symbols", 0);
  ASSERT_NE(margin, nullptr);
  EXPECT_DOUBLE_EQ(margin->points.back().value, 6);
  const auto* lane2_tail = find(*r, "fec_tail_symbols", 2);
  ASSERT_NE(lane2_tail, nullptr);
  EXPECT_DOUBLE_EQ(lane2_tail->points.back().value, 4);
  EXPECT_EQ(find(*r, "no_such_key", 0), nullptr);
  EXPECT_EQ(find(*r, "rx_power_dbm", 0), nullptr);  // asked per lane only
  ASSERT_EQ(r->identities.size(), 1u);
}

TEST_F(HistorySeriesTest, TheSteppingQueryAgreesWithBucketsOfFullRows) {
  for (int buckets : {1, 7, 60, 600}) {
    const SeriesRequest req = plotRequest(buckets);
    auto fast = query_->series(req);
    ASSERT_TRUE(fast) << fast.error().message;
    HistoryFilter f;
    f.target = req.target;
    f.port = req.port;
    auto rows = query_->query(f);
    ASSERT_TRUE(rows) << rows.error().message;
    const SeriesResult slow = seriesFromRows(*rows, req);
    EXPECT_EQ(fast->rows_read, slow.rows_read) << buckets;
    EXPECT_EQ(fast->last_row_ms, slow.last_row_ms) << buckets;
    ASSERT_EQ(fast->series.size(), slow.series.size()) << buckets;
    for (std::size_t i = 0; i < fast->series.size(); ++i) {
      EXPECT_EQ(fast->series[i].key, slow.series[i].key);
      EXPECT_EQ(fast->series[i].lane, slow.series[i].lane);
      EXPECT_EQ(fast->series[i].points, slow.series[i].points) << fast->series[i].key << " " << buckets;
    }
  }
}

TEST_F(HistorySeriesTest, AnUnknownPortIsAnError) {
  SeriesRequest r = plotRequest(10);
  r.port = "Ethernet9";
  auto s = query_->series(r);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("Ethernet9"), std::string::npos);
}

}  // namespace
}  // namespace opticsd
