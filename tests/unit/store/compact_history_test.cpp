// The compact history layout (migration 0007): values at register
// resolution packed per module per instant, deadband recording with
// heartbeats, rows around findings kept, the conversion of a database made
// by the column layout, the size cap that drops the oldest history, and
// downsampling progress that survives a restart.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>

#include "daemon/store/history_downsampler.hpp"
#include "daemon/store/history_format.hpp"
#include "daemon/store/history_query.hpp"
#include "daemon/store/packed_sample.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "daemon/store/value_codec.hpp"
#include "drivers/measurement.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

using test::RawDb;
using test::TempDir;

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kT0 = 944'444LL * 30 * kMinute;  // on a 30-minute boundary

StoreOptions options(const TempDir& dir) {
  StoreOptions o;
  o.path = dir.file("history.db");
  o.busy_timeout = std::chrono::milliseconds(20);
  o.retry_initial = std::chrono::milliseconds(5);
  o.retry_max = std::chrono::milliseconds(50);
  o.retention = std::chrono::milliseconds(0);
  return o;
}

std::unique_ptr<SqliteStore> openStore(const StoreOptions& o) {
  auto store = SqliteStore::open(o);
  EXPECT_TRUE(store) << store.error().message;
  return store ? std::move(*store) : nullptr;
}

// A healthy 8-lane module: values that a deadband should hold still.
Sample optic(std::int64_t ts, double rx_dbm = -2.0, bool rx_los = false) {
  Sample s;
  s.target = "leaf";
  s.port = "Ethernet1";
  s.timestamp_ms = ts;
  s.mutableIdentity().vendor = "ACME";
  s.mutableIdentity().serial = "SN1";
  s.module.set(ModuleMetric::kTemperatureCelsius, 41.5);
  s.module.set(ModuleMetric::kSupplyVoltageVolts, 3.3);
  s.fec.corrected_blocks_total = static_cast<std::uint64_t>(ts / 1000);  // moves every poll
  s.link.up = true;
  for (int l = 1; l <= 8; ++l) {
    Lane lane;
    lane.number = static_cast<std::uint16_t>(l);
    lane.values.set(LaneMetric::kTxBiasMilliamperes, 7.5);
    lane.values.set(LaneMetric::kTxPowerDbm, 1.0);
    lane.values.set(LaneMetric::kRxPowerDbm, rx_dbm);
    lane.values.set(LaneMetric::kPreFecBerRatio, 2.4e-7);
    lane.status.rx_los = rx_los && l == 1;
    lane.status.data_path_state = 4;
    s.lanes.push_back(lane);
  }
  return s;
}

HistoryResult history(const std::string& path) {
  auto q = HistoryQuery::open(path);
  EXPECT_TRUE(q) << q.error().message;
  HistoryFilter f;
  f.target = "leaf";
  f.port = "Ethernet1";
  f.metric = "rx_power_dbm";
  f.lane = 1;
  auto r = q->query(f);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : HistoryResult{};
}

// The minutes after kT0 of the rows history kept for the optic.
std::vector<std::int64_t> storedMinutes(const std::string& path) {
  std::vector<std::int64_t> minutes;
  for (const auto& row : history(path).rows) minutes.push_back((row.ts_ms - kT0) / kMinute);
  return minutes;
}

// An rx_power_low finding on the optic, raised at `start_ms`.
Finding rxLowFinding(std::int64_t start_ms) {
  Finding f;
  f.target = "leaf";
  f.port = "Ethernet1";
  f.rule = "rx_power_low";
  f.start_ms = start_ms;
  return f;
}

TEST(ValueCodecTest, RegisterResolutionByUnit) {
  EXPECT_EQ(codecFor("rx_power_dbm").decode(*codecFor("rx_power_dbm").encode(-3.21)), -3.21);
  EXPECT_EQ(codecFor("temperature_celsius").decode(*codecFor("temperature_celsius").encode(41.5)), 41.5);
  EXPECT_NEAR(codecFor("temperature_celsius").decode(*codecFor("temperature_celsius").encode(41.51)), 41.51, 1.0 / 512);
  EXPECT_EQ(codecFor("supply_voltage_volts").decode(*codecFor("supply_voltage_volts").encode(3.3001)), 3.3001);
  EXPECT_EQ(codecFor("tx_bias_milliamperes").decode(*codecFor("tx_bias_milliamperes").encode(7.502)), 7.502);
  const ValueCodec ber = codecFor("pre_fec_ber_ratio");
  EXPECT_EQ(ber.kind, ValueKind::kLog10);
  for (double v : {2.4e-7, 1e-12, 0.5, 1.0}) {
    EXPECT_NEAR(std::log10(ber.decode(*ber.encode(v))), std::log10(v), 0.005 + 1e-9) << v;
  }
  EXPECT_EQ(ber.decode(*ber.encode(0.0)), 0.0) << "no errors at all stays exactly zero";
  EXPECT_EQ(codecFor("rx_los").kind, ValueKind::kFlag);
  EXPECT_EQ(codecFor("fec_corrected_bits_total").kind, ValueKind::kInteger);
  EXPECT_EQ(codecFor("some_future_quantity_furlongs").kind, ValueKind::kFixed) << "an unknown unit is still kept";
  EXPECT_FALSE(codecFor("rx_power_dbm").encode(std::nan("")));
}

TEST(PackedSampleTest, PackUnpackRoundTripsAndGarbageIsAnError) {
  const PackedValues values{{1, 0, false, -7}, {2, 0, true, 1}, {3, 1, false, 300}, {3, 2, false, -300},
                            {3, 8, false, 0},  {4, 1, true, 1}, {4, 2, true, 0},    {4, 8, true, 1}};
  const std::string blob = pack(values);
  auto back = unpack(blob);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, values);
  EXPECT_LT(blob.size(), 25u) << "8 values packed into " << blob.size() << " bytes";
  const PackedValues wide{{5, 64, false, 1}, {6, 64, true, 1}};  // the highest lane a blob holds
  EXPECT_EQ(unpack(pack(wide)), wide);
  EXPECT_FALSE(unpack(""));
  EXPECT_FALSE(unpack(std::string("\x02\x01", 2))) << "an unknown format version";
  EXPECT_FALSE(unpack(blob.substr(0, blob.size() - 1))) << "a truncated blob";
  EXPECT_FALSE(unpack(std::string("\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 12)));
}

TEST(DeadbandTest, SteadyModuleStoresHeartbeatsAndEveryRealChange) {
  TempDir dir;
  auto o = options(dir);
  o.deadband.heartbeat = std::chrono::minutes(10);
  o.deadband.finding_context_rows = 0;
  auto store = openStore(o);
  ASSERT_TRUE(store);
  // 30 polls a minute apart: steady, then Rx moves 0.03 dB (inside the 0.2 dB
  // default), then 0.5 dB (a dirty connector), then LOS on lane 1.
  for (int i = 0; i < 30; ++i) {
    double rx = -2.0;
    if (i >= 5) rx = -2.03;
    if (i >= 12) rx = -2.53;
    ASSERT_TRUE(store->enqueue({optic(kT0 + i * kMinute, rx, i >= 20)}));
  }
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  const auto s = store->stats();
  EXPECT_EQ(s.written_samples_total, 30u);
  const HistoryResult r = history(o.path.string());
  std::vector<std::pair<std::int64_t, bool>> rows;  // minute, heartbeat
  for (const auto& row : r.rows) rows.emplace_back((row.ts_ms - kT0) / kMinute, row.heartbeat);
  // 0 the first, 10 a heartbeat (5's 0.03 dB is inside the deadband), 12 the
  // 0.5 dB step, 20 LOS; the next heartbeat would be at 30, after the last poll.
  const std::vector<std::pair<std::int64_t, bool>> expected{{0, false}, {10, true}, {12, false}, {20, false}};
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(s.stored_rows_total, 4u);
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(std::get<double>(r.rows[1].values[0]), -2.03) << "a heartbeat stores the values of its poll";
  EXPECT_EQ(std::get<double>(r.rows[2].values[0]), -2.53);
}

TEST(DeadbandTest, HistoryOutputMarksHeartbeatRows) {
  HistoryResult r;
  r.target = "leaf";
  r.port = "Ethernet1";
  r.columns = {{"rx_power_dbm", false, true}};
  r.rows.push_back({kT0, 1, {HistoryValue(-2.0)}});
  r.rows.push_back({kT0 + 20 * kMinute, 1, {HistoryValue(-2.0)}, true});
  const std::string table = formatHistoryTable(r);
  EXPECT_EQ(table.find(" ~"), table.rfind(" ~")) << "only the heartbeat row is marked:\n" << table;
  EXPECT_NE(table.find("~ heartbeat"), std::string::npos) << table;
  const std::string json = formatHistoryJson(r);
  EXPECT_EQ(json.find("\"heartbeat\": true"), json.rfind("\"heartbeat\": true")) << json;
  EXPECT_NE(json.find("\"heartbeat\": true"), std::string::npos) << json;
  r.rows.pop_back();
  EXPECT_EQ(formatHistoryTable(r).find('~'), std::string::npos) << "no heartbeat, no marker";
}

TEST(DeadbandTest, RowsAroundAFindingAreKeptAndNeverDownsampled) {
  TempDir dir;
  auto o = options(dir);
  std::atomic<std::int64_t> now{kT0};
  o.now_ms = [&] { return now.load(); };
  o.deadband.heartbeat = std::chrono::hours(1);
  o.deadband.finding_context_rows = 2;
  o.retention_interval = std::chrono::milliseconds(0);
  auto store = openStore(o);
  ASSERT_TRUE(store);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(store->enqueue({optic(kT0 + i * kMinute)}));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  store->record(rxLowFinding(kT0 + 9 * kMinute));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  for (int i = 10; i < 20; ++i) ASSERT_TRUE(store->enqueue({optic(kT0 + i * kMinute)}));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  const std::vector<std::int64_t> minutes = storedMinutes(o.path.string());
  // 0 the first; 8, 9 the two polls before the finding; 10, 11 the two after.
  EXPECT_EQ(minutes, (std::vector<std::int64_t>{0, 8, 9, 10, 11}));
  RawDb raw(o.path.string());
  EXPECT_EQ(raw.count("SELECT count(*) FROM module_history WHERE kind = 2"), 4);
  store.reset();

  // Two days later a tier that keeps one row an hour would keep only minute 0.
  o.downsample = {{std::chrono::hours(24), std::chrono::hours(1)}};
  now = kT0 + 48 * 60 * kMinute;
  store = openStore(o);
  ASSERT_TRUE(store);
  ASSERT_TRUE(test::waitFor([&] {
    return store->stats().downsampled_rows_total == 0 &&
           raw.count(
               "SELECT count(*) FROM store_progress WHERE name LIKE 'downsample/%/done_until_ms' AND value > 0") == 1;
  }));
  EXPECT_EQ(raw.count("SELECT count(*) FROM module_history"), 5) << "rows around a finding were thinned";
}

// The rules judge a poll before the store queues it: a finding reaches the
// writer before its own poll's cycle. The writer, woken by the finding, must
// not write it ahead of that cycle (it would keep minute 7, 8 before and 9,
// 10 after, a poll early), however long the cycle takes to come.
TEST(DeadbandTest, AFindingQueuedBeforeItsPollKeepsTheRowsOfItsOwnPoll) {
  TempDir dir;
  auto o = options(dir);
  o.deadband.heartbeat = std::chrono::hours(1);
  o.deadband.finding_context_rows = 2;
  auto store = openStore(o);
  ASSERT_TRUE(store);
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(store->enqueue({optic(kT0 + i * kMinute)}));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  store->record(rxLowFinding(kT0 + 9 * kMinute));
  // Time for the writer to take the finding alone, as it did before.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (int i = 9; i < 20; ++i) ASSERT_TRUE(store->enqueue({optic(kT0 + i * kMinute)}));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  const std::vector<std::int64_t> minutes = storedMinutes(o.path.string());
  EXPECT_EQ(minutes, (std::vector<std::int64_t>{0, 8, 9, 10, 11}));
}

TEST(CompactLayoutTest, ANewCatalogueKeyGetsACodeAtOpenWithoutAMigration) {
  TempDir dir;
  auto o = options(dir);
  { ASSERT_TRUE(openStore(o)); }
  {
    // As if the file were made by an opticsd whose catalogue lacked rx_power_dbm.
    RawDb raw(o.path.string());
    ASSERT_EQ(raw.exec("DELETE FROM metric_codes WHERE key = 'rx_power_dbm'"), SQLITE_OK);
  }
  const int version_before = [&] {
    RawDb raw(o.path.string());
    return static_cast<int>(raw.count("SELECT max(version) FROM schema_version"));
  }();
  auto store = openStore(o);
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->enqueue({optic(kT0, -4.56)}));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  RawDb raw(o.path.string());
  EXPECT_EQ(raw.count("SELECT count(*) FROM metric_codes WHERE key = 'rx_power_dbm'"), 1);
  EXPECT_EQ(raw.count("SELECT max(version) FROM schema_version"), version_before);
  const HistoryResult r = history(o.path.string());
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(std::get<double>(r.rows[0].values[0]), -4.56);
  for (const auto& m : kLaneMetricInfo) {
    EXPECT_EQ(raw.count("SELECT count(*) FROM metric_codes WHERE key = '" + std::string(m.key) + "'"), 1) << m.key;
  }
}

// A database made by the previous schema (migrations 1-5, the column layout)
// is migrated in place and its rows read back through the new layout.
TEST(CompactLayoutTest, ADatabaseOfThePreviousSchemaIsConvertedInPlace) {
  TempDir dir;
  auto o = options(dir);
  const auto all = embeddedMigrations();
  ASSERT_GE(all.size(), 6u);
  {
    auto db = SqliteDb::open(o.path.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db);
    auto v = migrate(*db, all.subspan(0, 5));
    ASSERT_TRUE(v) << v.error().message;
    ASSERT_EQ(*v, 5);
    ASSERT_TRUE(db->exec(
        "INSERT INTO modules (id, target, port) VALUES (1, 'leaf', 'Ethernet1');"
        "INSERT INTO module_samples (module_id, ts_ms, present, temperature_celsius, pre_fec_ber_ratio, link_up,"
        " fec_corrected_bits_total) VALUES (1, 1000, 1, 40.25, 1e-6, 1, 123456789012), (1, 2000, 1, 40.5, NULL, 0, "
        "NULL);"
        "INSERT INTO lane_samples (module_id, lane, ts_ms, rx_power_dbm, tx_bias_milliamperes, rx_los, data_path_state)"
        " VALUES (1, 1, 1000, -3.5, 7.25, 0, 4), (1, 2, 1000, -40, NULL, 1, 4), (1, 1, 2000, -3.75, 7.5, 0, 4);"));
  }
  std::vector<std::string> log;
  o.log = [&](std::string_view line) { log.emplace_back(line); };
  { ASSERT_TRUE(openStore(o)); }
  RawDb raw(o.path.string());
  EXPECT_EQ(raw.count("SELECT max(version) FROM schema_version"), static_cast<std::int64_t>(all.size()));
  EXPECT_EQ(raw.count("SELECT count(*) FROM module_samples"), 0);
  EXPECT_EQ(raw.count("SELECT count(*) FROM lane_samples"), 0);
  EXPECT_EQ(raw.count("SELECT count(*) FROM module_history WHERE kind = 3"), 2);
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.front().find("converting 2 module rows"), std::string::npos) << log.front();

  auto q = HistoryQuery::open(o.path.string());
  ASSERT_TRUE(q);
  HistoryFilter f;
  f.target = "leaf";
  f.port = "Ethernet1";
  auto r = q->query(f);
  ASSERT_TRUE(r) << r.error().message;
  auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < r->columns.size(); ++i) {
      if (r->columns[i].name == name) return i;
    }
    ADD_FAILURE() << name;
    return std::size_t{0};
  };
  ASSERT_EQ(r->rows.size(), 5u);  // module, lanes 1-2 at 1000; module, lane 1 at 2000
  EXPECT_EQ(std::get<double>(r->rows[0].values[col("temperature_celsius")]), 40.25);
  EXPECT_NEAR(std::get<double>(r->rows[0].values[col("pre_fec_ber_ratio")]), 1e-6, 1e-6 * 0.012);
  EXPECT_EQ(std::get<std::int64_t>(r->rows[0].values[col("fec_corrected_bits_total")]), 123456789012);
  EXPECT_EQ(std::get<double>(r->rows[1].values[col("rx_power_dbm")]), -3.5);
  EXPECT_EQ(std::get<double>(r->rows[1].values[col("tx_bias_milliamperes")]), 7.25);
  EXPECT_EQ(r->rows[2].lane, 2);
  EXPECT_EQ(std::get<std::int64_t>(r->rows[2].values[col("rx_los")]), 1);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r->rows[2].values[col("tx_bias_milliamperes")]));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r->rows[3].values[col("pre_fec_ber_ratio")]));
  EXPECT_EQ(std::get<std::int64_t>(r->rows[3].values[col("link_up")]), 0);
  EXPECT_EQ(std::get<double>(r->rows[4].values[col("rx_power_dbm")]), -3.75);
}

TEST(CompactLayoutTest, AFullStoreDropsTheOldestHistoryAndKeepsWriting) {
  TempDir dir;
  auto o = options(dir);
  o.deadband.heartbeat = std::chrono::milliseconds(0);  // every sample stored
  o.max_size_bytes = 1024 * 1024;
  o.size_expiry_slice = std::chrono::hours(1);
  auto store = openStore(o);
  ASSERT_TRUE(store);
  // Ten hours of 64 modules polled every minute: far more than 1 MiB.
  for (int m = 0; m < 600; ++m) {
    std::vector<Sample> cycle;
    for (int p = 1; p <= 64; ++p) {
      auto s = optic(kT0 + m * kMinute, -2.0 - m * 0.01);
      s.port = "Ethernet" + std::to_string(p);
      cycle.push_back(std::move(s));
    }
    ASSERT_TRUE(store->enqueue(std::move(cycle)));
    if (m % 50 == 0) {
      ASSERT_TRUE(store->flush(std::chrono::seconds(60)));
    }
  }
  ASSERT_TRUE(store->flush(std::chrono::seconds(60)));
  const auto s = store->stats();
  EXPECT_EQ(s.dropped_samples_total, 0u);
  EXPECT_GT(s.expired_rows_size_total, 0u);
  RawDb raw(o.path.string());
  EXPECT_EQ(raw.count("SELECT max(ts_ms) FROM module_history"), kT0 + 599 * kMinute) << "the newest poll is stored";
  EXPECT_GT(raw.count("SELECT min(ts_ms) FROM module_history"), kT0) << "the oldest history went";
  EXPECT_LE(raw.count("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size"), 1024 * 1024);
}

TEST(DownsamplerTest, ProgressIsKeptOnDiskAndAResumedPassContinuesWhereItStopped) {
  TempDir dir;
  auto o = options(dir);
  o.deadband.heartbeat = std::chrono::milliseconds(0);
  {
    auto store = openStore(o);
    ASSERT_TRUE(store);
    for (int m = 0; m < 60; ++m) {
      std::vector<Sample> cycle;
      for (int p = 1; p <= 3; ++p) {
        auto s = optic(kT0 + m * kMinute);
        s.port = "Ethernet" + std::to_string(p);
        cycle.push_back(std::move(s));
      }
      ASSERT_TRUE(store->enqueue(std::move(cycle)));
    }
    ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  }
  auto db = SqliteDb::open(o.path.string(), SQLITE_OPEN_READWRITE);
  ASSERT_TRUE(db);
  const std::vector<DownsampleTier> tiers{{std::chrono::hours(1), std::chrono::minutes(10)}};
  const std::int64_t now = kT0 + 3 * 60 * kMinute;
  {
    HistoryDownsampler first(tiers);
    auto step = first.step(*db, now, 1);  // the first module only
    ASSERT_TRUE(step) << step.error().message;
    EXPECT_EQ(step->deleted_rows, 60u - 6u);
  }
  RawDb raw(o.path.string());
  EXPECT_EQ(raw.count("SELECT value FROM store_progress WHERE name LIKE 'downsample/%/next_module'"), 1);
  // A "restarted" downsampler goes on with the second module, not the first again.
  HistoryDownsampler second(tiers);
  auto step = second.step(*db, now, 1);
  ASSERT_TRUE(step) << step.error().message;
  EXPECT_EQ(step->deleted_rows, 60u - 6u);
  EXPECT_EQ(raw.count("SELECT count(*) FROM module_history WHERE module_id = 2"), 6);
  step = second.step(*db, now, 5);  // the rest, and the pass completes
  ASSERT_TRUE(step);
  EXPECT_EQ(step->deleted_rows, 60u - 6u);
  EXPECT_EQ(raw.count("SELECT count(*) FROM module_history"), 18);
  EXPECT_GT(raw.count("SELECT value FROM store_progress WHERE name LIKE 'downsample/%/done_until_ms'"), 0);
}

}  // namespace
}  // namespace opticsd
