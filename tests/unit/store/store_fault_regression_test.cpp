// A database file overwritten in place (same inode: `dd`, a careless `cp`
// onto it) under the writer. In WAL mode SQLite keeps trusting its cached
// pages, so before the header check the writer went on "committing" into
// garbage and reported success (found by tests/integration/81-store-faults.sh).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "daemon/store/sqlite_store.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

TEST(StoreOverwrittenInPlaceTest, FailsVisiblyKeepsTheCycleAndResumesWhenTheFileIsMovedAway) {
  test::TempDir dir;
  StoreOptions o;
  o.path = dir.file("history.db");
  o.retry_initial = std::chrono::milliseconds(10);
  o.retry_max = std::chrono::milliseconds(50);
  o.retention = std::chrono::milliseconds(0);
  o.deadband.heartbeat = std::chrono::milliseconds(0);
  auto opened = SqliteStore::open(o);
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = *opened;
  ASSERT_TRUE(store->enqueue(test::cycle("t", 2, 1000)));
  ASSERT_TRUE(store->flush(std::chrono::seconds(10)));
  const auto written_before = store->stats().written_cycles_total;

  // Same inode, every byte garbage.
  const auto size = std::filesystem::file_size(o.path);
  {
    std::FILE* f = std::fopen(o.path.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    const std::string junk(size, '\x5a');
    ASSERT_EQ(std::fwrite(junk.data(), 1, junk.size(), f), junk.size());
    std::fclose(f);
  }
  ASSERT_TRUE(store->enqueue(test::cycle("t", 2, 2000)));
  ASSERT_TRUE(test::waitFor([&] { return store->stats().write_errors_total >= 1; }))
      << "written " << store->stats().written_cycles_total;
  StoreStats s = store->stats();
  EXPECT_TRUE(s.failing);
  EXPECT_EQ(s.written_cycles_total, written_before) << "a batch was reported written into a garbage file";
  EXPECT_EQ(s.queued_cycles, 1u);
  EXPECT_NE(s.last_error.find("not a SQLite file"), std::string::npos) << s.last_error;

  // The operator moves the broken file away: the queued cycle goes to a fresh file.
  std::filesystem::rename(o.path, dir.file("broken.db"));
  ASSERT_TRUE(store->flush(std::chrono::seconds(20)));
  EXPECT_FALSE(store->stats().failing);
  test::RawDb fresh(o.path.string());
  EXPECT_EQ(fresh.count("SELECT count(*) FROM module_history WHERE ts_ms = 2000"), 2);
}

// The destructor makes one last attempt and counts the rest as dropped: a
// backlog left after flush() timed out must not hold shutdown until it is all
// written (10,048 modules at 1 s left 3,137 cycles and a 68 s stop, past the
// unit's TimeoutStopSec=30s; found by the soak).
TEST(StoreShutdownTest, BacklogAfterTheLastAttemptIsCountedAsDroppedNotWritten) {
  test::TempDir dir;
  StoreOptions o;
  o.path = dir.file("history.db");
  o.busy_timeout = std::chrono::milliseconds(20);
  o.retry_initial = std::chrono::milliseconds(5);
  o.retry_max = std::chrono::milliseconds(50);
  o.retention = std::chrono::milliseconds(0);
  o.max_batch_cycles = 4;
  o.deadband.heartbeat = std::chrono::milliseconds(0);
  std::mutex log_mutex;
  std::vector<std::string> log;
  o.log = [&](std::string_view line) {
    std::lock_guard lock(log_mutex);
    log.emplace_back(line);
  };
  auto opened = SqliteStore::open(o);
  ASSERT_TRUE(opened) << opened.error().message;
  auto store = std::move(*opened);
  test::RawDb other(o.path.string());
  ASSERT_EQ(other.exec("BEGIN IMMEDIATE"), SQLITE_OK);  // the backlog builds up behind this lock
  constexpr int kCycles = 40;
  for (int i = 0; i < kCycles; ++i) ASSERT_TRUE(store->enqueue(test::cycle("t", 1, 1000 + i, 1)));
  EXPECT_FALSE(store->flush(std::chrono::milliseconds(50)));
  ASSERT_EQ(other.exec("COMMIT"), SQLITE_OK);  // the cause clears just as the daemon stops
  store.reset();
  const auto rows = other.count("SELECT count(*) FROM module_history");
  EXPECT_GE(rows, 1) << "the last attempt wrote nothing";
  EXPECT_LT(rows, kCycles / 2) << "the destructor wrote the whole backlog instead of one last attempt";
  std::lock_guard lock(log_mutex);
  const std::string expected =
      std::to_string(kCycles - rows) + " cycles (" + std::to_string(kCycles - rows) + " samples) counted as dropped";
  bool said = false;
  for (const auto& line : log) said = said || line.find(expected) != std::string::npos;
  EXPECT_TRUE(said) << "no log line says: " << expected;
}

}  // namespace
}  // namespace opticsd
