// History files the backtest must take as they come: empty, of an older
// schema (migrated in a copy, the file untouched), not history at all.
#include <gtest/gtest.h>

#include <map>

#include "daemon/backtest/backtest.hpp"
#include "daemon/backtest/history_preparation.hpp"
#include "daemon/backtest/stored_history.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "tests/unit/backtest/sim_fleet_history.hpp"

namespace opticsd {
namespace {

TEST(BacktestHistoryFiles, AnEmptyHistoryReportsNothingToReplay) {
  test::TempFile db("empty.db");
  {
    StoreOptions o;
    o.path = db.path();
    auto store = SqliteStore::open(o);
    ASSERT_TRUE(store) << store.error().message;
  }
  BacktestOptions o;
  o.db = db.path();
  o.running = defaultRuleSet();
  auto r = runBacktest(o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->rows, 0u);
  EXPECT_TRUE(r->events.empty());
  EXPECT_EQ(r->agreement.recorded, 0u);
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes.back().find("no stored rows"), std::string::npos) << r->notes.back();
}

TEST(BacktestHistoryFiles, AMissingOrForeignFileIsAClearError) {
  BacktestOptions o;
  o.db = "/nonexistent/history.db";
  o.running = defaultRuleSet();
  auto r = runBacktest(o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("does not exist"), std::string::npos) << r.error().message;

  test::TempFile other("other.db");
  {
    auto db = SqliteDb::open(other.path().string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("CREATE TABLE t (x INTEGER)"));
  }
  o.db = other.path();
  r = runBacktest(o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not an opticsd history database"), std::string::npos) << r.error().message;
}

// Schema 5 kept rows in columns (module_samples, lane_samples): a lane that
// goes dark there is an event in the backtest, read from a migrated copy.
TEST(BacktestHistoryFiles, AnOlderSchemaIsReadThroughAMigratedCopy) {
  test::TempFile db("schema5.db");
  const auto all = embeddedMigrations();
  {
    auto sql = SqliteDb::open(db.path().string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(sql);
    auto v = migrate(*sql, all.subspan(0, 5));
    ASSERT_TRUE(v) << v.error().message;
    std::string rows = "INSERT INTO modules (id, target, port) VALUES (1, 'leaf', 'Ethernet1');";
    for (int i = 0; i < 6; ++i) {
      const std::string ts = std::to_string(1'000'000 + i * 30'000);
      const std::string lane2 = i < 3 ? "-3.0, 0" : "-40, 1";  // lane 2 dark from the fourth poll
      rows += "INSERT INTO module_samples (module_id, ts_ms, present, temperature_celsius, link_up) VALUES (1, " + ts +
              ", 1, 40, 1);";
      rows += "INSERT INTO lane_samples (module_id, lane, ts_ms, rx_power_dbm, rx_los) VALUES (1, 1, " + ts +
              ", -3.0, 0), (1, 2, " + ts + ", " + lane2 + ");";
    }
    ASSERT_TRUE(sql->exec(rows));
  }
  BacktestOptions o;
  o.db = db.path();
  o.running = defaultRuleSet();
  auto r = runBacktest(o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->schema_version, 5);
  EXPECT_TRUE(r->migrated_copy);
  EXPECT_EQ(r->rows, 6u);
  ASSERT_FALSE(r->events.empty());
  EXPECT_EQ(r->events.front().event.kind, EventKind::kLossOfSignal);
  EXPECT_EQ(r->events.front().event.lane, 2);
  EXPECT_EQ(r->events.front().event.time_ms, 1'000'000 + 3 * 30'000);
  // The file itself is still schema 5.
  auto sql = SqliteDb::open(db.path().string(), SQLITE_OPEN_READONLY);
  ASSERT_TRUE(sql);
  auto version = readSchemaVersion(*sql);
  ASSERT_TRUE(version);
  EXPECT_EQ(*version, 5);
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

// `count` polls of a sim switch `name` with `ports` QSFP-DD DR4 ports, in
// time order, each Sample stamped with the switch's name.
void simPolls(const std::string& name, int ports, int count, std::vector<Sample>& out) {
  sim::SimSwitchConfig c;
  c.name = name;
  c.seed = sim::hashString(c.name);
  c.ports = ports;
  c.module = "qsfp-dd-400g-dr4";
  auto sw = sim::SimSwitch::create(c, test::kEpoch);
  ASSERT_TRUE(sw) << sw.error().message;
  for (int i = 0; i < count; ++i) sw->sampleAll(test::kEpoch + i * test::kPoll, out);
  for (Sample& s : out) s.target = c.name;
}

// The module's own thresholds go into history once (not a row a poll) and
// come back with its rows; a module swapped in without thresholds does not
// inherit those of the one before it.
TEST(BacktestHistoryFiles, AModulesOwnThresholdsComeBackWithItsRows) {
  test::TempFile db("thresholds.db");
  std::vector<Sample> polls;
  ASSERT_NO_FATAL_FAILURE(simPolls("leaf-t", 1, 40, polls));
  const auto rx = polls.front().thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx && rx->low_alarm) << "the sim module advertises an Rx low alarm";
  // Then another module in the port, advertising none.
  for (int i = 40; i < 45; ++i) {
    Sample s = polls.front();
    s.timestamp_ms = test::kEpoch + i * test::kPoll;
    s.shared_identity.mutate().serial = "SWAPPED-IN";
    s.shared_thresholds.reset();
    polls.push_back(std::move(s));
  }
  {
    StoreOptions o;
    o.path = db.path();
    o.retention = std::chrono::milliseconds(0);
    o.deadband.heartbeat = std::chrono::milliseconds(0);  // every poll a row
    auto store = SqliteStore::open(o);
    ASSERT_TRUE(store) << store.error().message;
    for (const Sample& s : polls) (*store)->enqueue(std::vector<Sample>{s});
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(30)));
  }
  {
    auto raw = SqliteDb::open(db.path().string(), SQLITE_OPEN_READONLY);
    ASSERT_TRUE(raw);
    auto st = raw->prepare("SELECT count(*) FROM module_thresholds");
    ASSERT_TRUE(st && st->step() == SQLITE_ROW);
    EXPECT_EQ(st->columnInt(0).value_or(-1), 1);
  }
  auto history = StoredHistory::open(db.path());
  ASSERT_TRUE(history) << history.error().message;
  std::size_t with = 0, without = 0;
  auto walked = (*history)->forEachPoll(test::kEpoch, test::kEpoch + 45 * test::kPoll, [&](StoredPoll& poll) {
    ASSERT_EQ(poll.samples.size(), 1u);
    const Sample& s = poll.samples.front();
    const auto& got = s.thresholds(LaneMetric::kRxPowerDbm);
    if (s.identity().serial == "SWAPPED-IN") {
      EXPECT_FALSE(got.has_value());
      ++without;
      return;
    }
    ASSERT_TRUE(got && got->low_alarm);
    EXPECT_NEAR(*got->low_alarm, *rx->low_alarm, 0.005);  // kept at 0.01 dB
    ++with;
  });
  ASSERT_TRUE(walked) << walked.error().message;
  EXPECT_EQ(with, 40u);
  EXPECT_EQ(without, 5u);
}

// Modules of one part number advertise one table: the replay holds it once
// for all of them (a fleet's rows then read a few tables, not one a module),
// and a module whose table differs keeps its own.
TEST(BacktestHistoryFiles, ModulesAdvertisingEqualLimitsShareOneTable) {
  test::TempFile db("shared-thresholds.db");
  std::vector<Sample> polls;
  ASSERT_NO_FATAL_FAILURE(simPolls("leaf-s", 3, 4, polls));
  for (Sample& s : polls) {
    if (s.port != polls[2].port) continue;
    auto& rx = s.mutableThresholds(LaneMetric::kRxPowerDbm);
    ASSERT_TRUE(rx && rx->low_alarm);
    rx->low_alarm = *rx->low_alarm - 2.0;  // calibrated apart
  }
  {
    StoreOptions o;
    o.path = db.path();
    o.retention = std::chrono::milliseconds(0);
    o.deadband.heartbeat = std::chrono::milliseconds(0);
    auto store = SqliteStore::open(o);
    ASSERT_TRUE(store) << store.error().message;
    for (std::size_t i = 0; i < polls.size(); i += 3) {
      (*store)->enqueue(std::vector<Sample>(polls.begin() + static_cast<std::ptrdiff_t>(i),
                                            polls.begin() + static_cast<std::ptrdiff_t>(i + 3)));
    }
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(30)));
  }
  auto history = StoredHistory::open(db.path());
  ASSERT_TRUE(history) << history.error().message;
  std::map<std::string, CopyOnWrite<ModuleThresholds>> tables;
  auto walked = (*history)->forEachPoll(test::kEpoch, test::kEpoch + 4 * test::kPoll, [&](StoredPoll& poll) {
    for (const Sample& s : poll.samples) tables[s.port] = s.shared_thresholds;
  });
  ASSERT_TRUE(walked) << walked.error().message;
  ASSERT_EQ(tables.size(), 3u);
  const auto& a = tables[polls[0].port];
  const auto& b = tables[polls[1].port];
  const auto& own = tables[polls[2].port];
  EXPECT_TRUE(a.sharesWith(b));
  EXPECT_FALSE(own.sharesWith(a));
  const auto& rx_a = a->lane[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)];
  const auto& rx_own = own->lane[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)];
  ASSERT_TRUE(rx_a && rx_a->low_alarm && rx_own && rx_own->low_alarm);
  EXPECT_NEAR(*rx_a->low_alarm - *rx_own->low_alarm, 2.0, 0.011);  // kept at 0.01 dB
}

// Rebuilding a row tests each reading as it decodes it, so preparation skips
// the plausibility test only where it would drop nothing: a reading no module
// can report (a history written by an opticsd that kept it, or by hand) is
// still dropped and said, and the rows around it keep theirs.
TEST(BacktestHistoryFiles, AnImpossibleStoredReadingIsStillDropped) {
  test::TempFile db("implausible.db");
  std::vector<Sample> polls;
  ASSERT_NO_FATAL_FAILURE(simPolls("leaf-p", 1, 3, polls));
  polls[1].module.set(ModuleMetric::kTemperatureCelsius, 400.0);  // above the 250 degC any module reports
  {
    StoreOptions o;
    o.path = db.path();
    o.retention = std::chrono::milliseconds(0);
    o.deadband.heartbeat = std::chrono::milliseconds(0);  // every poll a row
    auto store = SqliteStore::open(o);
    ASSERT_TRUE(store) << store.error().message;
    for (const Sample& s : polls) (*store)->enqueue(std::vector<Sample>{s});
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(30)));
  }
  auto history = StoredHistory::open(db.path());
  ASSERT_TRUE(history) << history.error().message;
  HistoryPreparation preparation;
  std::vector<bool> plausible;
  std::vector<std::optional<double>> temperature;
  std::vector<std::size_t> issues;
  auto walked = (*history)->forEachPoll(test::kEpoch, test::kEpoch + 3 * test::kPoll, [&](StoredPoll& poll) {
    ASSERT_EQ(poll.samples.size(), 1u);
    ASSERT_EQ(poll.checked.size(), 1u);
    plausible.push_back(poll.checked.front().readings_plausible);
    preparation.preparePoll(*poll.target, poll.ts, poll.samples, poll.checked);
    temperature.push_back(poll.samples.front().module[ModuleMetric::kTemperatureCelsius]);
    issues.push_back(poll.samples.front().issues.size());
  });
  ASSERT_TRUE(walked) << walked.error().message;
  ASSERT_EQ(plausible.size(), 3u);
  EXPECT_EQ(plausible, (std::vector<bool>{true, false, true}));
  EXPECT_TRUE(temperature[0]);
  EXPECT_FALSE(temperature[1]) << "the impossible temperature reached the rules";
  EXPECT_TRUE(temperature[2]);
  EXPECT_EQ(issues, (std::vector<std::size_t>{0, 1, 0}));
}

}  // namespace
}  // namespace opticsd
