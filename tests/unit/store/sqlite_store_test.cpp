#include "daemon/store/sqlite_store.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <mutex>

#include "daemon/store/history_query.hpp"
#include "daemon/store/value_codec.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

using test::RawDb;
using test::TempDir;
using test::waitFor;

StoreOptions fastOptions(const TempDir& dir) {
  StoreOptions o;
  o.path = dir.file("history.db");
  o.busy_timeout = std::chrono::milliseconds(20);
  o.retry_initial = std::chrono::milliseconds(5);
  o.retry_max = std::chrono::milliseconds(50);
  o.retention = std::chrono::milliseconds(0);
  o.deadband.heartbeat = std::chrono::milliseconds(0);  // every sample stored: these tests are about the writer
  return o;
}

std::unique_ptr<SqliteStore> openStore(const StoreOptions& o) {
  auto store = SqliteStore::open(o);
  EXPECT_TRUE(store) << store.error().message;
  return store ? std::move(*store) : nullptr;
}

HistoryResult read(const std::string& path, const std::string& target, const std::string& port) {
  auto q = HistoryQuery::open(path);
  EXPECT_TRUE(q) << q.error().message;
  HistoryFilter f;
  f.target = target;
  f.port = port;
  auto r = q->query(f);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : HistoryResult{};
}

const HistoryValue& value(const HistoryResult& r, const HistoryRow& row, std::string_view column) {
  for (std::size_t i = 0; i < r.columns.size(); ++i) {
    if (r.columns[i].name == column) return row.values[i];
  }
  ADD_FAILURE() << "no column " << column;
  static const HistoryValue none;
  return none;
}

// What history keeps of a value: the value at its key's register resolution.
std::optional<double> kept(std::string_view key, const std::optional<double>& v) {
  if (!v) return std::nullopt;
  const ValueCodec codec = codecFor(key);
  return codec.decode(*codec.encode(*v));
}

std::optional<double> real(const HistoryValue& v) {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::nullopt;
}

TEST(SqliteStoreTest, RoundTripKeepsEveryMetricAndNulls) {
  TempDir dir;
  auto o = fastOptions(dir);
  auto store = openStore(o);
  ASSERT_TRUE(store);

  Sample full = test::fullSample("leaf-1", "Ethernet1", 1'700'000'000'000, 2);
  Sample sparse;  // a module that reports almost nothing: a passive DAC
  sparse.target = "leaf-1";
  sparse.port = "Ethernet1";
  sparse.timestamp_ms = 1'700'000'030'000;
  sparse.mutableIdentity() = full.identity();
  sparse.module.set(ModuleMetric::kTemperatureCelsius, 0.0);  // a real zero stays zero
  Lane dark;
  dark.number = 1;
  dark.values.set(LaneMetric::kRxPowerDbm, kNoLightFloorDbm);
  dark.status.rx_no_light = true;
  sparse.lanes.push_back(dark);
  ASSERT_TRUE(store->enqueue({full}));
  ASSERT_TRUE(store->enqueue({sparse}));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));

  const StoreStats stats = store->stats();
  EXPECT_EQ(stats.written_samples_total, 2u);
  EXPECT_EQ(stats.written_lanes_total, 3u);
  EXPECT_EQ(stats.dropped_samples_total, 0u);
  EXPECT_EQ(stats.queued_cycles, 0u);
  EXPECT_FALSE(stats.failing);
  EXPECT_TRUE(stats.last_write_ms.has_value());

  const HistoryResult r = read(o.path.string(), "leaf-1", "Ethernet1");
  ASSERT_EQ(r.rows.size(), 5u);  // module row + 2 lanes, module row + 1 lane
  const HistoryRow& m1 = r.rows[0];
  ASSERT_FALSE(m1.lane);
  EXPECT_EQ(m1.ts_ms, full.timestamp_ms);
  for (std::size_t k = 0; k < kModuleMetricCount; ++k) {
    const auto metric = static_cast<ModuleMetric>(k);
    EXPECT_EQ(real(value(r, m1, info(metric).key)), kept(info(metric).key, full.module[metric])) << info(metric).key;
  }
  EXPECT_EQ(std::get<std::int64_t>(value(r, m1, "fec_corrected_bits_total")), 123456789012345);
  EXPECT_EQ(std::get<std::int64_t>(value(r, m1, "fec_uncorrectable_blocks_total")), 3);
  EXPECT_EQ(std::get<std::int64_t>(value(r, m1, "link_up")), 1);
  EXPECT_EQ(std::get<std::int64_t>(value(r, m1, "present")), 1);
  for (int l = 0; l < 2; ++l) {
    const HistoryRow& row = r.rows[1 + static_cast<std::size_t>(l)];
    ASSERT_EQ(row.lane, l + 1);
    for (std::size_t k = 0; k < kLaneMetricCount; ++k) {
      const auto metric = static_cast<LaneMetric>(k);
      EXPECT_EQ(real(value(r, row, info(metric).key)),
                kept(info(metric).key, full.lanes[static_cast<std::size_t>(l)].values[metric]))
          << info(metric).key << " lane " << l + 1;
    }
    EXPECT_EQ(std::get<std::int64_t>(value(r, row, "rx_los")), l == 1 ? 1 : 0);
    EXPECT_EQ(std::get<std::int64_t>(value(r, row, "data_path_state")), 4);
  }

  const HistoryRow& m2 = r.rows[3];
  ASSERT_FALSE(m2.lane);
  EXPECT_EQ(real(value(r, m2, "temperature_celsius")), 0.0);
  for (std::size_t k = 1; k < kModuleMetricCount; ++k) {
    EXPECT_TRUE(std::holds_alternative<std::monostate>(value(r, m2, info(static_cast<ModuleMetric>(k)).key)))
        << info(static_cast<ModuleMetric>(k)).key;
  }
  EXPECT_TRUE(std::holds_alternative<std::monostate>(value(r, m2, "fec_corrected_blocks_total")));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(value(r, m2, "link_up")));
  const HistoryRow& l2 = r.rows[4];
  ASSERT_EQ(l2.lane, 1);
  EXPECT_EQ(real(value(r, l2, "rx_power_dbm")), kNoLightFloorDbm);
  EXPECT_EQ(std::get<std::int64_t>(value(r, l2, "rx_no_light")), 1);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(value(r, l2, "tx_power_dbm")));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(value(r, l2, "rx_los")));
}

TEST(SqliteStoreTest, ModuleSwapStartsANewIdentityRowAndSurvivesReopen) {
  TempDir dir;
  auto o = fastOptions(dir);
  {
    auto store = openStore(o);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->enqueue({test::fullSample("t", "p1", 1000, 1, "SN-A")}));
    ASSERT_TRUE(store->enqueue({test::fullSample("t", "p1", 2000, 1, "SN-A")}));
    ASSERT_TRUE(store->enqueue({test::fullSample("t", "p1", 3000, 1, "SN-B")}));
    ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  }
  {
    // A restart must recognise the module already in the port.
    auto store = openStore(o);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->enqueue({test::fullSample("t", "p1", 4000, 1, "SN-B")}));
    Sample empty;
    empty.target = "t";
    empty.port = "p1";
    empty.timestamp_ms = 5000;
    empty.module_present = false;
    ASSERT_TRUE(store->enqueue({empty}));
    ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  }
  const HistoryResult r = read(o.path.string(), "t", "p1");
  ASSERT_EQ(r.identities.size(), 2u);
  auto field = [](const IdentityRow& id, const std::string& key) {
    for (const auto& [k, v] : id.fields) {
      if (k == key) return v;
    }
    return std::string();
  };
  EXPECT_EQ(field(r.identities[0], "serial"), "SN-A");
  EXPECT_EQ(r.identities[0].first_seen_ms, 1000);
  EXPECT_EQ(r.identities[0].last_seen_ms, 2000);
  EXPECT_EQ(field(r.identities[1], "serial"), "SN-B");
  EXPECT_EQ(r.identities[1].first_seen_ms, 3000);
  EXPECT_EQ(r.identities[1].last_seen_ms, 4000);
  EXPECT_EQ(field(r.identities[1], "vendor"), "ACME");
  ASSERT_FALSE(r.rows.empty());
  EXPECT_EQ(r.rows.back().ts_ms, 5000);
  EXPECT_EQ(std::get<std::int64_t>(value(r, r.rows.back(), "present")), 0);
}

TEST(SqliteStoreTest, QueueOverflowIsCountedNotSilent) {
  TempDir dir;
  auto o = fastOptions(dir);
  o.queue_capacity_cycles = 2;
  auto store = openStore(o);
  ASSERT_TRUE(store);
  // Another process holds the write lock, so nothing drains.
  RawDb other(o.path.string());
  ASSERT_EQ(other.exec("BEGIN IMMEDIATE"), SQLITE_OK);

  int accepted = 0;
  for (int i = 0; i < 5; ++i) accepted += store->enqueue(test::cycle("t", 3, 1000 + i, 2)) ? 1 : 0;
  EXPECT_EQ(accepted, 2);
  StoreStats s = store->stats();
  EXPECT_EQ(s.dropped_cycles_total, 3u);
  EXPECT_EQ(s.dropped_samples_total, 9u);
  EXPECT_EQ(s.queued_cycles, 2u);
  EXPECT_FALSE(store->flush(std::chrono::milliseconds(50)));

  ASSERT_EQ(other.exec("COMMIT"), SQLITE_OK);
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  s = store->stats();
  EXPECT_EQ(s.written_cycles_total, 2u);
  EXPECT_EQ(s.written_samples_total, 6u);
  EXPECT_EQ(s.dropped_samples_total, 9u);
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 6);
}

TEST(SqliteStoreTest, LockedDatabaseIsRetriedThenResumes) {
  TempDir dir;
  auto o = fastOptions(dir);
  std::mutex log_mutex;
  std::vector<std::string> log;
  o.log = [&](std::string_view line) {
    std::lock_guard lock(log_mutex);
    log.emplace_back(line);
  };
  auto store = openStore(o);
  ASSERT_TRUE(store);
  RawDb other(o.path.string());
  ASSERT_EQ(other.exec("BEGIN IMMEDIATE"), SQLITE_OK);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 4, 1000)));
  ASSERT_TRUE(waitFor([&] { return store->stats().write_errors_total >= 2; }));
  StoreStats s = store->stats();
  EXPECT_TRUE(s.failing);
  EXPECT_NE(s.last_error.find("locked"), std::string::npos) << s.last_error;
  EXPECT_EQ(s.queued_cycles, 1u);
  EXPECT_EQ(s.written_samples_total, 0u);
  EXPECT_GT(s.lag_seconds, 0.0);
  // The polling side still gets through while the writer is stuck.
  EXPECT_TRUE(store->enqueue(test::cycle("t", 4, 2000)));

  ASSERT_EQ(other.exec("COMMIT"), SQLITE_OK);
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  s = store->stats();
  EXPECT_FALSE(s.failing);
  EXPECT_EQ(s.written_samples_total, 8u);
  EXPECT_EQ(s.dropped_samples_total, 0u);
  EXPECT_EQ(s.lag_seconds, 0.0);
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 8);
  std::lock_guard lock(log_mutex);
  ASSERT_GE(log.size(), 2u);
  EXPECT_NE(log.front().find("failing"), std::string::npos);
  EXPECT_NE(log.back().find("resumed"), std::string::npos);
}

TEST(SqliteStoreTest, DatabaseLockedAtStartIsRetriedNotDisabled) {
  TempDir dir;
  auto o = fastOptions(dir);
  // Another process holds an exclusive lock on the file from before start-up.
  RawDb other(o.path.string());
  ASSERT_EQ(other.exec("PRAGMA locking_mode = EXCLUSIVE"), SQLITE_OK);
  ASSERT_EQ(other.exec("BEGIN EXCLUSIVE"), SQLITE_OK);
  ASSERT_EQ(other.exec("CREATE TABLE someone_elses (x)"), SQLITE_OK);
  EXPECT_FALSE(SqliteStore::open(o)) << "the lock did not stop a first open";

  auto opened = SqliteStore::openRetrying(o);
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = *opened;
  StoreStats s = store->stats();
  EXPECT_TRUE(s.failing);
  EXPECT_NE(s.last_error.find("locked"), std::string::npos) << s.last_error;
  ASSERT_TRUE(store->enqueue(test::cycle("t", 4, 1000)));
  EXPECT_FALSE(store->flush(std::chrono::milliseconds(200)));

  ASSERT_EQ(other.exec("COMMIT"), SQLITE_OK);
  ASSERT_EQ(other.exec("PRAGMA locking_mode = NORMAL"), SQLITE_OK);
  ASSERT_EQ(other.count("SELECT count(*) FROM someone_elses"), 0);  // a read releases the exclusive lock
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  s = store->stats();
  EXPECT_FALSE(s.failing);
  EXPECT_EQ(s.written_samples_total, 4u);
  EXPECT_EQ(s.dropped_samples_total, 0u);
}

TEST(SqliteStoreTest, DiskFullKeepsTheBatchAndResumesWhenSpaceReturns) {
  TempDir dir;
  auto o = fastOptions(dir);
  o.max_size_bytes = 1;  // clamped by SQLite to the pages the schema already uses
  auto store = openStore(o);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 64, 1000)));
  ASSERT_TRUE(waitFor([&] { return store->stats().write_errors_total >= 2; }));
  StoreStats s = store->stats();
  EXPECT_TRUE(s.failing);
  EXPECT_NE(s.last_error.find("full"), std::string::npos) << s.last_error;
  EXPECT_EQ(s.written_samples_total, 0u);
  EXPECT_EQ(s.queued_cycles, 1u);
  {
    RawDb other(o.path.string());
    EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 0);  // nothing half-written
  }

  store->setMaxSizeBytes(0);
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  s = store->stats();
  EXPECT_FALSE(s.failing);
  EXPECT_EQ(s.written_samples_total, 64u);
  EXPECT_EQ(s.written_lanes_total, 512u);
  RawDb other(o.path.string());
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 64);
}

TEST(SqliteStoreTest, DeletedFileIsRecreatedAndWritesResume) {
  TempDir dir;
  auto o = fastOptions(dir);
  auto store = openStore(o);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 2, 1000)));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  std::filesystem::remove(o.path);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 2, 2000)));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  EXPECT_GE(store->stats().reopens_total, 1u);
  ASSERT_TRUE(std::filesystem::exists(o.path));
  RawDb other(o.path.string());
  // The second cycle is in the new file, not lost in the unlinked one.
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history WHERE ts_ms = 2000"), 2);
  EXPECT_EQ(other.count("SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"), 1);
}

TEST(SqliteStoreTest, CorruptReplacementIsReportedAndClearedByRemoval) {
  TempDir dir;
  auto o = fastOptions(dir);
  auto store = openStore(o);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 2, 1000)));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));

  // Something replaces the file with garbage (a new inode under the same name).
  const std::string junk_path = dir.file("junk");
  {
    std::FILE* f = std::fopen(junk_path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string junk(16384, '\x5a');
    std::fwrite(junk.data(), 1, junk.size(), f);
    std::fclose(f);
  }
  std::filesystem::rename(junk_path, o.path);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 2, 2000)));
  ASSERT_TRUE(waitFor([&] { return store->stats().write_errors_total >= 2; }, std::chrono::seconds(3)))
      << store->stats().last_error << " written " << store->stats().written_cycles_total;
  StoreStats s = store->stats();
  EXPECT_TRUE(s.failing);
  EXPECT_NE(s.last_error.find("not a database"), std::string::npos) << s.last_error;
  EXPECT_EQ(s.queued_cycles, 1u);

  // The operator moves the broken file away: history starts afresh with the queued cycle.
  std::filesystem::remove(o.path);
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  EXPECT_FALSE(store->stats().failing);
  RawDb other(o.path.string());
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history WHERE ts_ms = 2000"), 2);
}

TEST(SqliteStoreTest, ShutdownWhileFailingCountsUnwrittenCyclesAsDropped) {
  TempDir dir;
  auto o = fastOptions(dir);
  std::mutex log_mutex;
  std::vector<std::string> log;
  o.log = [&](std::string_view line) {
    std::lock_guard lock(log_mutex);
    log.emplace_back(line);
  };
  auto store = openStore(o);
  ASSERT_TRUE(store);
  RawDb other(o.path.string());
  ASSERT_EQ(other.exec("BEGIN IMMEDIATE"), SQLITE_OK);
  ASSERT_TRUE(store->enqueue(test::cycle("t", 3, 1000)));
  ASSERT_TRUE(store->enqueue(test::cycle("t", 3, 2000)));
  EXPECT_FALSE(store->flush(std::chrono::milliseconds(30)));
  store.reset();  // joins the writer after its last attempt
  {
    std::lock_guard lock(log_mutex);
    ASSERT_FALSE(log.empty());
    EXPECT_NE(log.back().find("2 cycles (6 samples) counted as dropped"), std::string::npos) << log.back();
  }
  ASSERT_EQ(other.exec("COMMIT"), SQLITE_OK);
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 0);
}

TEST(SqliteStoreTest, RetentionDeletesOldRowsOnly) {
  TempDir dir;
  auto o = fastOptions(dir);
  std::atomic<std::int64_t> now{10 * 3'600'000};
  o.now_ms = [&] { return now.load(); };
  o.retention = std::chrono::hours(1);
  o.retention_interval = std::chrono::milliseconds(0);
  o.retention_modules_per_step = 2;  // several steps
  auto store = openStore(o);
  ASSERT_TRUE(store);
  std::vector<Sample> old_cycle = test::cycle("t", 3, now - 2 * 3'600'000, 4);
  old_cycle.push_back(test::fullSample("t", "gone", now - 2 * 3'600'000, 4, "SN-OLD"));
  ASSERT_TRUE(store->enqueue(old_cycle));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  ASSERT_TRUE(store->enqueue(test::cycle("t", 3, now - 10 * 60'000, 4)));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));

  RawDb other(o.path.string());
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history WHERE ts_ms < " + std::to_string(now - 3'600'000)), 0);
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 3);
  EXPECT_EQ(other.count("SELECT count(*) FROM module_identities WHERE serial = 'SN-OLD'"), 0);
  // The first cycle's identities were only seen two hours ago: gone, and
  // recorded afresh when the modules were seen again.
  EXPECT_EQ(other.count("SELECT count(*) FROM module_identities"), 3);
  EXPECT_EQ(other.count("SELECT min(first_seen_ms) FROM module_identities"), now - 10 * 60'000);
  EXPECT_EQ(store->stats().retention_deleted_rows_total, 4u + 4u);  // module rows, identities
}

TEST(SqliteStoreTest, OldRowsKeepOneRowPerModulePerTierInterval) {
  TempDir dir;
  auto o = fastOptions(dir);
  constexpr std::int64_t kMinute = 60'000;
  const std::int64_t start = 944'444 * 30 * kMinute;  // on a 30-minute boundary
  std::atomic<std::int64_t> now{start};
  o.now_ms = [&] { return now.load(); };
  o.retention = std::chrono::hours(24);
  o.retention_interval = std::chrono::milliseconds(0);
  o.downsample = {{std::chrono::hours(1), std::chrono::minutes(10)}, {std::chrono::hours(2), std::chrono::minutes(30)}};
  o.downsample_modules_per_step = 1;  // several steps per tier
  auto store = openStore(o);
  ASSERT_TRUE(store);
  // Three hours, a poll a minute, two modules of two lanes.
  for (std::int64_t m = 0; m < 180; ++m) ASSERT_TRUE(store->enqueue(test::cycle("t", 2, start + m * kMinute, 2)));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  now = start + 180 * kMinute;
  RawDb other(o.path.string());
  const auto rows = [&](const char* table, std::int64_t from, std::int64_t to) {
    return other.count(std::string("SELECT count(*) FROM ") + table + " WHERE ts_ms >= " +
                       std::to_string(start + from * kMinute) + " AND ts_ms < " + std::to_string(start + to * kMinute));
  };
  // Per module: the oldest hour at 30 min (2 rows), the next at 10 min (6), the last hour whole (60).
  ASSERT_TRUE(waitFor([&] {
    return rows("module_history", 0, 60) == 2 * 2 && rows("module_history", 60, 120) == 2 * 6;
  })) << rows("module_history", 0, 60)
      << " and " << rows("module_history", 60, 120);
  EXPECT_EQ(rows("module_history", 120, 180), 2 * 60);
  // The first of each interval is kept.
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history WHERE ts_ms < " + std::to_string(start + 120 * kMinute) +
                        " AND (ts_ms - " + std::to_string(start) + ") % " + std::to_string(10 * kMinute) + " != 0"),
            0);
  ASSERT_TRUE(waitFor([&] { return store->stats().downsampled_rows_total == 2u * (180 - 68); }))
      << store->stats().downsampled_rows_total;
}

TEST(SqliteStoreTest, ManyCyclesFromManyThreadsAllArrive) {
  TempDir dir;
  auto o = fastOptions(dir);
  o.max_batch_cycles = 4;
  auto store = openStore(o);
  ASSERT_TRUE(store);
  std::vector<std::thread> pollers;
  for (int t = 0; t < 4; ++t) {
    pollers.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) store->enqueue(test::cycle("t" + std::to_string(t), 4, 1000 * i, 2));
    });
  }
  for (auto& p : pollers) p.join();
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  const StoreStats s = store->stats();
  EXPECT_EQ(s.written_cycles_total + s.dropped_cycles_total, 100u);
  EXPECT_EQ(s.dropped_cycles_total, 0u);
  RawDb other(o.path.string());
  EXPECT_EQ(other.count("SELECT count(*) FROM module_history"), 400);
  EXPECT_EQ(other.count("SELECT count(*) FROM modules"), 16);
}

TEST(SqliteStoreTest, RejectsBadOptions) {
  StoreOptions o;
  EXPECT_FALSE(SqliteStore::open(o));
  TempDir dir;
  o.path = dir.file("h.db");
  o.queue_capacity_cycles = 0;
  EXPECT_FALSE(SqliteStore::open(o));
}

}  // namespace
}  // namespace opticsd
