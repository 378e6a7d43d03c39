// Findings, suspects and bias baselines through the one history writer
// (SqliteStore as the rules engine's FindingSink): the same queue, connection,
// transaction and retry policy as the samples, so a file that cannot be opened
// at start, or is deleted later, delays findings history but never ends it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "daemon/store/findings_history.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

using test::TempDir;
using test::waitFor;

StoreOptions fastOptions(const std::filesystem::path& path) {
  StoreOptions o;
  o.path = path;
  o.busy_timeout = std::chrono::milliseconds(20);
  o.retry_initial = std::chrono::milliseconds(5);
  o.retry_max = std::chrono::milliseconds(50);
  o.retention = std::chrono::milliseconds(0);
  return o;
}

Finding finding(const std::string& port, std::int64_t start_ms) {
  Finding f;
  f.target = "sw";
  f.port = port;
  f.rule = "rx_power_low";
  f.start_ms = start_ms;
  f.value = -11.5;
  f.detail = "rx_power_dbm=-11.5 below -10";
  return f;
}

std::vector<std::string> storedPorts(const std::filesystem::path& db) {
  std::vector<std::string> ports;
  auto rows = loadFindings(db, FindingsFilter{});
  EXPECT_TRUE(rows) << rows.error().message;
  if (rows) {
    for (const auto& f : *rows) ports.push_back(f.port);
  }
  return ports;
}

TEST(FindingsWriterTest, FindingsAndSamplesShareOneTransactionAndFile) {
  TempDir dir;
  const auto db = dir.path() / "history.db";
  auto opened = SqliteStore::open(fastOptions(db));
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = *opened;
  ASSERT_TRUE(store->enqueue(test::cycle("sw", 2, 1000)));
  store->record(finding("Ethernet1", 1000));
  auto cleared = finding("Ethernet1", 1000);
  cleared.end_ms = 31'000;
  cleared.detail = "a later detail the clear does not keep";
  store->record(cleared);
  store->replaceSuspects("sw", {Suspect{"sw", "Ethernet1", 0.9, "rx_power_low", {}, 1000}});
  store->replaceSuspects("sw", {Suspect{"sw", "Ethernet2", 0.4, "newer snapshot", {}, 2000}});
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  const StoreStats s = store->stats();
  EXPECT_EQ(s.written_samples_total, 2u);
  EXPECT_EQ(s.dropped_finding_events_total, 0u);

  auto rows = loadFindings(db, FindingsFilter{});
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u) << "raise and clear are one row";
  EXPECT_EQ((*rows)[0].end_ms, 31'000);
  EXPECT_EQ((*rows)[0].value, -11.5);
  EXPECT_EQ((*rows)[0].detail, "rx_power_dbm=-11.5 below -10");
  auto suspects = loadSuspects(db);
  ASSERT_TRUE(suspects) << suspects.error().message;
  ASSERT_EQ(suspects->size(), 1u) << "only the newest snapshot of a target stays";
  EXPECT_EQ((*suspects)[0].port, "Ethernet2");
}

// The optic page reads one port's suspect row and baselines by their keys
// (not every row of the fleet filtered): the right port's, nothing of others.
TEST(FindingsWriterTest, OnePortsSuspectAndBaselinesAreReadByKey) {
  TempDir dir;
  const auto db = dir.path() / "history.db";
  auto opened = SqliteStore::open(fastOptions(db));
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = *opened;
  store->replaceSuspects("sw", {Suspect{"sw", "Ethernet1", 0.9, "rx_power_low", {}, 1000},
                                Suspect{"sw", "Ethernet2", 0.4, "bias_drift", {}, 1000}});
  store->recordBaseline(BiasBaseline{"sw", "Ethernet1", "SN1", 500, {7.5, 7.6}, {-2.0, std::nullopt}, {1.0, 1.1}});
  store->recordBaseline(BiasBaseline{"sw", "Ethernet2", "SN2", 600, {8.0}, {-3.0}, {0.5}});
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));

  auto one = loadSuspect(db, "sw", "Ethernet2");
  ASSERT_TRUE(one) << one.error().message;
  ASSERT_TRUE(*one);
  EXPECT_EQ((*one)->reason, "bias_drift");
  EXPECT_DOUBLE_EQ((*one)->score, 0.4);
  auto none = loadSuspect(db, "sw", "Ethernet3");
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_FALSE(*none);

  auto baselines = loadBaselines(db, "sw", "Ethernet1");
  ASSERT_TRUE(baselines) << baselines.error().message;
  ASSERT_EQ(baselines->size(), 1u);
  EXPECT_EQ((*baselines)[0].serial, "SN1");
  EXPECT_EQ((*baselines)[0].lanes_ma, (std::vector<double>{7.5, 7.6}));
  ASSERT_EQ((*baselines)[0].lanes_rx_dbm.size(), 2u);
  EXPECT_FALSE((*baselines)[0].lanes_rx_dbm[1]);  // absent stays absent
  auto other = loadBaselines(db, "sw", "Ethernet9");
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_TRUE(other->empty());
}

// Issue 15 item 3: a database that cannot be opened at start (here: its
// directory does not exist yet, as with a late mount) used to leave findings
// history off for the whole run, silently.
TEST(FindingsWriterTest, UnopenableAtStartFindingsAreWrittenOnceTheFileCanBeOpened) {
  TempDir dir;
  const auto late_mount = dir.path() / "not-yet-mounted";
  const auto db = late_mount / "history.db";
  std::vector<std::string> log;
  auto o = fastOptions(db);
  o.log = [&](std::string_view line) { log.emplace_back(line); };
  ASSERT_FALSE(SqliteStore::open(o)) << "the missing directory did not stop a first open";
  auto opened = SqliteStore::openRetrying(o);
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = *opened;
  EXPECT_TRUE(store->takeStoredBaselines().empty());

  store->record(finding("Ethernet1", 1000));
  store->enqueue(
      std::vector<Sample>{});  // its poll, queued after the rules as HistorySink does: the event goes with it
  ASSERT_TRUE(waitFor([&] { return store->stats().write_errors_total >= 2; }));
  StoreStats s = store->stats();
  EXPECT_TRUE(s.failing) << "the failure is visible in the stats (opticsd_store_write_errors_total)";
  EXPECT_FALSE(store->flush(std::chrono::milliseconds(100)));

  std::filesystem::create_directories(late_mount);
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  store->record(finding("Ethernet2", 2000));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  EXPECT_FALSE(store->stats().failing);
  EXPECT_EQ(storedPorts(db), (std::vector<std::string>{"Ethernet1", "Ethernet2"}));
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.back().find("resumed"), std::string::npos) << log.back();
}

TEST(FindingsWriterTest, DeletedDatabaseIsReopenedAndFindingsKeepComing) {
  TempDir dir;
  const auto db = dir.path() / "history.db";
  std::vector<std::string> log;
  auto o = fastOptions(db);
  o.log = [&](std::string_view line) { log.emplace_back(line); };
  auto opened = SqliteStore::open(o);
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = *opened;
  store->record(finding("p1", 1000));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db.string() + suffix);
  store->record(finding("p2", 2000));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  EXPECT_EQ(storedPorts(db), std::vector<std::string>{"p2"}) << "the finding went to the deleted file";
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.front().find("reopening"), std::string::npos) << log.front();
}

TEST(FindingsWriterTest, ShutdownWhileFailingCountsUnwrittenFindingsAsDropped) {
  TempDir dir;
  std::vector<std::string> log;
  auto o = fastOptions(dir.path() / "missing" / "history.db");
  o.log = [&](std::string_view line) { log.emplace_back(line); };
  auto opened = SqliteStore::openRetrying(o);
  ASSERT_TRUE(opened) << opened.error().message;
  auto store = std::move(*opened);
  store->record(finding("p1", 1000));
  store->record(finding("p2", 1000));
  ASSERT_TRUE(waitFor([&] { return store->stats().write_errors_total >= 1; }));
  EXPECT_EQ(store->stats().dropped_finding_events_total, 0u) << "still queued while retrying";
  store.reset();
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.back().find("2 finding events"), std::string::npos) << log.back();
}

}  // namespace
}  // namespace opticsd
