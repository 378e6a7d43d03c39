#include "daemon/store/history_query.hpp"

#include <gtest/gtest.h>

#include "daemon/store/sqlite_store.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

class HistoryQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.path = dir_.file("h.db");
    o.retention = std::chrono::milliseconds(0);
    o.deadband.heartbeat = std::chrono::milliseconds(0);  // three identical polls, all stored
    auto store = SqliteStore::open(o);
    ASSERT_TRUE(store) << store.error().message;
    for (std::int64_t ts : {1000, 2000, 3000}) {
      ASSERT_TRUE((*store)->enqueue(
          {test::fullSample("leaf-1", "Ethernet1", ts, 2), test::fullSample("leaf-1", "Ethernet2", ts, 2)}));
    }
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(20)));
    auto q = HistoryQuery::open(o.path.string());
    ASSERT_TRUE(q) << q.error().message;
    query_.emplace(std::move(*q));
  }

  HistoryResult run(HistoryFilter f) {
    f.target = f.target.empty() ? "leaf-1" : f.target;
    f.port = f.port.empty() ? "Ethernet1" : f.port;
    auto r = query_->query(f);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : HistoryResult{};
  }

  test::TempDir dir_;
  std::optional<HistoryQuery> query_;
};

std::vector<std::string> names(const HistoryResult& r) {
  std::vector<std::string> out;
  for (const auto& c : r.columns) out.push_back(c.name);
  return out;
}

TEST_F(HistoryQueryTest, AllRowsInTimeOrderModuleFirst) {
  const HistoryResult r = run({});
  ASSERT_EQ(r.rows.size(), 9u);
  EXPECT_EQ(r.rows[0].ts_ms, 1000);
  EXPECT_FALSE(r.rows[0].lane);
  EXPECT_EQ(r.rows[1].lane, 1);
  EXPECT_EQ(r.rows[2].lane, 2);
  EXPECT_EQ(r.rows[3].ts_ms, 2000);
  EXPECT_FALSE(r.rows[3].lane);
  // pre_fec_ber_ratio exists at both levels and is one column.
  const auto n = names(r);
  EXPECT_EQ(std::count(n.begin(), n.end(), "pre_fec_ber_ratio"), 1);
  ASSERT_EQ(r.identities.size(), 1u);
}

TEST_F(HistoryQueryTest, SinceAndUntilAreInclusive) {
  HistoryFilter f;
  f.since_ms = 2000;
  f.until_ms = 2000;
  HistoryResult r = run(f);
  ASSERT_EQ(r.rows.size(), 3u);
  for (const auto& row : r.rows) EXPECT_EQ(row.ts_ms, 2000);
  f.since_ms = 2001;
  f.until_ms = std::nullopt;
  r = run(f);
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[0].ts_ms, 3000);
}

TEST_F(HistoryQueryTest, LaneFilterLeavesOutModuleRows) {
  HistoryFilter f;
  f.lane = 2;
  const HistoryResult r = run(f);
  ASSERT_EQ(r.rows.size(), 3u);
  for (const auto& row : r.rows) EXPECT_EQ(row.lane, 2);
  const auto n = names(r);
  EXPECT_EQ(std::count(n.begin(), n.end(), "temperature_celsius"), 0);
}

TEST_F(HistoryQueryTest, MetricFilterSelectsOneColumn) {
  HistoryFilter f;
  f.metric = "rx_power_dbm";
  HistoryResult r = run(f);
  EXPECT_EQ(names(r), std::vector<std::string>{"rx_power_dbm"});
  ASSERT_EQ(r.rows.size(), 6u);
  for (const auto& row : r.rows) EXPECT_TRUE(row.lane);

  f.metric = "temperature_celsius";
  r = run(f);
  EXPECT_EQ(names(r), std::vector<std::string>{"temperature_celsius"});
  ASSERT_EQ(r.rows.size(), 3u);
  for (const auto& row : r.rows) {
    EXPECT_FALSE(row.lane);
    EXPECT_DOUBLE_EQ(std::get<double>(row.values[0]), 10.5);
  }

  f.metric = "pre_fec_ber_ratio";
  r = run(f);
  EXPECT_EQ(r.rows.size(), 9u);
  ASSERT_EQ(r.columns.size(), 1u);
  EXPECT_TRUE(r.columns[0].module);
  EXPECT_TRUE(r.columns[0].lane);
}

TEST_F(HistoryQueryTest, UnknownMetricOrModuleIsAnError) {
  HistoryFilter f{"leaf-1", "Ethernet1", std::nullopt, std::string("bogus"), std::nullopt, std::nullopt};
  auto r = query_->query(f);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("rx_power_dbm"), std::string::npos) << r.error().message;
  f.metric = std::nullopt;
  f.port = "Ethernet99";
  r = query_->query(f);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("Ethernet99"), std::string::npos);
}

TEST(HistoryQueryOpenTest, MissingOrForeignFileIsAnError) {
  test::TempDir dir;
  auto missing = HistoryQuery::open(dir.file("none.db"));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("does not exist"), std::string::npos);
  {
    test::RawDb raw(dir.file("other.db"));
    ASSERT_EQ(raw.exec("CREATE TABLE t (x)"), SQLITE_OK);
  }
  auto foreign = HistoryQuery::open(dir.file("other.db"));
  ASSERT_FALSE(foreign);
  EXPECT_NE(foreign.error().message.find("not an opticsd history database"), std::string::npos);
}

TEST(HistoryQueryOpenTest, MetricNamesCoverTheCatalogue) {
  const auto all = HistoryQuery::metricNames();
  for (const auto& m : kModuleMetricInfo) EXPECT_NE(std::find(all.begin(), all.end(), m.key), all.end()) << m.key;
  for (const auto& m : kLaneMetricInfo) EXPECT_NE(std::find(all.begin(), all.end(), m.key), all.end()) << m.key;
}

}  // namespace
}  // namespace opticsd
