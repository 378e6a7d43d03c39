#include "daemon/store/schema.hpp"

#include <chrono>

namespace opticsd {
namespace {

constexpr std::string_view kCreateVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)";

Result<void> checkSequence(std::span<const Migration> migrations) {
  int expected = 1;
  for (const auto& m : migrations) {
    if (m.version != expected) {
      return fail("migration " + std::string(m.name) + " has version " + std::to_string(m.version) + ", expected " +
                  std::to_string(expected) + " (migrations are numbered 1, 2, 3 ... without gaps)");
    }
    ++expected;
  }
  return {};
}

}  // namespace

int latestSchemaVersion(std::span<const Migration> migrations) {
  return migrations.empty() ? 0 : migrations.back().version;
}

Result<int> readSchemaVersion(SqliteDb& db) {
  auto exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
  if (!exists) return tl::unexpected(exists.error());
  const int rc = exists->step();
  if (rc == SQLITE_DONE) return 0;
  if (rc != SQLITE_ROW) return fail(db.error("reading schema"));
  auto version = db.prepare("SELECT coalesce(max(version), 0) FROM schema_version");
  if (!version) return tl::unexpected(version.error());
  if (version->step() != SQLITE_ROW) return fail(db.error("reading schema_version"));
  return static_cast<int>(version->columnInt(0).value_or(0));
}

Result<int> migrate(SqliteDb& db, std::span<const Migration> migrations) {
  if (auto ok = checkSequence(migrations); !ok) return tl::unexpected(ok.error());
  const int latest = latestSchemaVersion(migrations);
  // Fast path without a write lock: an up-to-date database (every restart).
  auto current = readSchemaVersion(db);
  if (!current) return current;
  if (*current > latest) {
    return fail("the history database has schema version " + std::to_string(*current) +
                ", newer than this opticsd knows (" + std::to_string(latest) +
                "); it was written by a newer opticsd: upgrade opticsd or point storage.path elsewhere");
  }
  if (*current == latest) return latest;

  for (const auto& m : migrations) {
    // Each migration and its version row commit together or not at all. The
    // version is re-read under the write lock in case another process migrated.
    if (auto ok = db.exec("BEGIN IMMEDIATE"); !ok)
      return fail("migration " + std::string(m.name) + ": " + ok.error().message);
    auto step = [&]() -> Result<bool> {
      if (auto ok = db.exec(kCreateVersionTable); !ok) return tl::unexpected(ok.error());
      auto now = readSchemaVersion(db);
      if (!now) return tl::unexpected(now.error());
      if (*now >= m.version) return false;
      if (auto ok = db.exec(m.sql); !ok) return tl::unexpected(ok.error());
      auto insert = db.prepare("INSERT INTO schema_version (version, name, applied_ms) VALUES (?1, ?2, ?3)");
      if (!insert) return tl::unexpected(insert.error());
      insert->bind(1, std::optional<std::int64_t>(m.version));
      insert->bind(2, m.name);
      insert->bind(3, std::optional<std::int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                      std::chrono::system_clock::now().time_since_epoch())
                                                      .count()));
      if (insert->step() != SQLITE_DONE) return fail(db.error("recording schema version"));
      return true;
    }();
    if (!step) {
      (void)db.exec("ROLLBACK");
      return fail("migration " + std::string(m.name) + " failed: " + step.error().message);
    }
    if (auto ok = db.exec("COMMIT"); !ok) {
      (void)db.exec("ROLLBACK");
      return fail("migration " + std::string(m.name) + " failed to commit: " + ok.error().message);
    }
  }
  return readSchemaVersion(db);
}

}  // namespace opticsd
