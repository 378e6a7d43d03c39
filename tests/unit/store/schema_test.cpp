#include "daemon/store/schema.hpp"

#include <gtest/gtest.h>

#include "daemon/store/history_query.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "daemon/store/value_codec.hpp"
#include "drivers/measurement.hpp"
#include "store_test_support.hpp"

namespace opticsd {
namespace {

SqliteDb openDb(const std::string& path) {
  auto db = SqliteDb::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  EXPECT_TRUE(db) << db.error().message;
  return std::move(*db);
}

TEST(SchemaTest, EmbeddedMigrationsAreNumberedFromOneWithoutGaps) {
  const auto migrations = embeddedMigrations();
  ASSERT_FALSE(migrations.empty());
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    EXPECT_EQ(migrations[i].version, static_cast<int>(i + 1)) << migrations[i].name;
    EXPECT_FALSE(migrations[i].sql.empty()) << migrations[i].name;
  }
  EXPECT_EQ(latestSchemaVersion(), migrations.back().version);
}

TEST(SchemaTest, MigrationsApplyOnceAndReopenIsIdempotent) {
  test::TempDir dir;
  const std::string path = dir.file("h.db");
  for (int round = 0; round < 3; ++round) {
    StoreOptions options;
    options.path = path;
    auto store = SqliteStore::open(options);
    ASSERT_TRUE(store) << store.error().message;
  }
  test::RawDb raw(path);
  EXPECT_EQ(raw.count("SELECT count(*) FROM schema_version"), static_cast<std::int64_t>(embeddedMigrations().size()));
  EXPECT_EQ(raw.count("SELECT max(version) FROM schema_version"), latestSchemaVersion());
  EXPECT_EQ(raw.count("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'lane_samples'"), 1);
  auto db = openDb(path);
  auto again = migrate(db);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, latestSchemaVersion());
  EXPECT_EQ(raw.count("SELECT count(*) FROM schema_version"), static_cast<std::int64_t>(embeddedMigrations().size()));
}

// The optic page's "where was this serial seen before" and its reads of one
// port's history, baselines and suspect row go through indexes, not scans of
// the fleet's tables (a 64,000-module file).
TEST(SchemaTest, ThePagesLookupsUseIndexes) {
  test::TempDir dir;
  const std::string path = dir.file("h.db");
  StoreOptions options;
  options.path = path;
  ASSERT_TRUE(SqliteStore::open(options));
  auto db = openDb(path);
  auto plan = [&](const std::string& sql) {
    auto st = db.prepare("EXPLAIN QUERY PLAN " + sql);
    EXPECT_TRUE(st) << st.error().message;
    std::string out;
    while (st && st->step() == SQLITE_ROW) out += st->columnText(3) + "\n";
    return out;
  };
  const std::string serial = plan(
      "SELECT m.target FROM module_identities i JOIN modules m ON m.id = i.module_id WHERE i.serial = 'x' GROUP BY "
      "m.id");
  EXPECT_NE(serial.find("USING INDEX module_identities_by_serial"), std::string::npos) << serial;
  const std::string rows =
      plan("SELECT ts_ms, data FROM module_history WHERE module_id = 1 AND ts_ms BETWEEN 0 AND 9 ORDER BY ts_ms");
  EXPECT_NE(rows.find("USING PRIMARY KEY (module_id=? AND ts_ms>? AND ts_ms<?)"), std::string::npos) << rows;
  EXPECT_EQ(rows.find("TEMP B-TREE"), std::string::npos) << rows;
  for (const char* table : {"bias_baselines", "suspects"}) {
    const std::string one = plan(std::string("SELECT * FROM ") + table + " WHERE target = 'a' AND port = 'b'");
    EXPECT_NE(one.find("USING INDEX sqlite_autoindex_" + std::string(table)), std::string::npos) << one;
  }
}

// A field added to the identity tables of drivers/sample.hpp needs its
// module_identities column (a migration): the writer's INSERT names it.
TEST(SchemaTest, EveryIdentityTableRowHasAColumn) {
  test::TempDir dir;
  const std::string path = dir.file("h.db");
  {
    StoreOptions options;
    options.path = path;
    auto store = SqliteStore::open(options);
    ASSERT_TRUE(store) << store.error().message;
  }
  test::RawDb raw(path);
  auto hasColumn = [&](std::string_view key) {
    return raw.count("SELECT count(*) FROM pragma_table_info('module_identities') WHERE name = '" + std::string(key) +
                     "'") == 1;
  };
  for (const auto& field : kIdentityTextInfo) EXPECT_TRUE(hasColumn(field.key)) << field.key;
  for (const auto& field : kIdentityNumberInfo) EXPECT_TRUE(hasColumn(field.key)) << field.key;
  EXPECT_FALSE(hasColumn("no_such_field"));
}

// Lane flags are stored as flags (one bit a lane), whatever their name.
TEST(SchemaTest, EveryLaneFlagIsStoredAsAFlag) {
  for (const auto& flag : kLaneFlagInfo) EXPECT_EQ(codecFor(flag.key).kind, ValueKind::kFlag) << flag.key;
  EXPECT_EQ(kLaneStatusColumns.size(), kLaneFlagInfo.size() + 1);
  EXPECT_EQ(kLaneStatusColumns.back(), "data_path_state");
  EXPECT_EQ(codecFor("data_path_state").kind, ValueKind::kInteger);
}

TEST(SchemaTest, WalModeIsSet) {
  test::TempDir dir;
  StoreOptions options;
  options.path = dir.file("h.db");
  auto store = SqliteStore::open(options);
  ASSERT_TRUE(store) << store.error().message;
  test::RawDb raw(dir.file("h.db"));
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(raw.get(), "PRAGMA journal_mode", -1, &stmt, nullptr);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
}

TEST(SchemaTest, NewerSchemaIsRefusedWithAClearError) {
  test::TempDir dir;
  const std::string path = dir.file("h.db");
  {
    StoreOptions options;
    options.path = path;
    ASSERT_TRUE(SqliteStore::open(options));
  }
  {
    test::RawDb raw(path);
    ASSERT_EQ(raw.exec("INSERT INTO schema_version VALUES (999, '0999_future.sql', 0)"), SQLITE_OK);
  }
  StoreOptions options;
  options.path = path;
  auto store = SqliteStore::open(options);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("schema version 999"), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find("newer"), std::string::npos) << store.error().message;
  auto reader = HistoryQuery::open(path);
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("newer"), std::string::npos) << reader.error().message;
}

TEST(SchemaTest, FailedMigrationRollsBackAndNamesTheFile) {
  test::TempDir dir;
  auto db = openDb(dir.file("h.db"));
  const Migration migrations[] = {
      {1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"},
      {2, "0002_b.sql", "CREATE TABLE b (x INTEGER); INSERT INTO no_such_table VALUES (1);"},
  };
  auto result = migrate(db, migrations);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("0002_b.sql"), std::string::npos) << result.error().message;
  auto version = readSchemaVersion(db);
  ASSERT_TRUE(version);
  EXPECT_EQ(*version, 1);
  test::RawDb raw(dir.file("h.db"));
  EXPECT_EQ(raw.count("SELECT count(*) FROM sqlite_master WHERE name = 'a'"), 1);
  EXPECT_EQ(raw.count("SELECT count(*) FROM sqlite_master WHERE name = 'b'"), 0);
}

TEST(SchemaTest, GapInMigrationNumbersIsRejected) {
  test::TempDir dir;
  auto db = openDb(dir.file("h.db"));
  const Migration migrations[] = {{1, "0001_a.sql", "CREATE TABLE a (x);"}, {3, "0003_c.sql", "CREATE TABLE c (x);"}};
  auto result = migrate(db, migrations);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("0003_c.sql"), std::string::npos);
}

TEST(SchemaTest, NotADatabaseFailsAtOpen) {
  test::TempDir dir;
  const std::string path = dir.file("h.db");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::string junk(8192, 'x');
    std::fwrite(junk.data(), 1, junk.size(), f);
    std::fclose(f);
  }
  StoreOptions options;
  options.path = path;
  auto store = SqliteStore::open(options);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find(path), std::string::npos) << store.error().message;
  EXPECT_FALSE(HistoryQuery::open(path));
}

TEST(SchemaTest, MissingDirectoryFailsAtOpen) {
  test::TempDir dir;
  StoreOptions options;
  options.path = dir.path() / "no" / "such" / "h.db";
  auto store = SqliteStore::open(options);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("h.db"), std::string::npos) << store.error().message;
}

}  // namespace
}  // namespace opticsd
