#include "daemon/store/store_connection.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "daemon/store/legacy_history.hpp"
#include "daemon/store/schema.hpp"

namespace opticsd {

bool headerIsSqlite(const std::string& path) {
  static constexpr char kMagic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return true;  // gone: the inode check handles it
  char head[16];
  const std::size_t n = std::fread(head, 1, sizeof(head), f);
  std::fclose(f);
  return n == 0 || (n == sizeof(head) && std::memcmp(head, kMagic, sizeof(head)) == 0);
}

bool keepsConnection(int extended_code) {
  const int primary = extended_code & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED || primary == SQLITE_FULL;
}

Result<void> StoreConnection::stepDone(SqliteStatement& stmt, std::string_view what) {
  const int rc = stmt.step();
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
    noteError();
    auto message = db.error(what);
    stmt.reset();
    return fail(message);
  }
  stmt.reset();
  return {};
}

Result<std::unique_ptr<StoreConnection>> StoreConnection::open(const StoreOptions& options) {
  const std::string path = options.path.string();
  removeOrphanedWal(options.path);
  auto db = SqliteDb::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db) return tl::unexpected(db.error());
  auto c = std::make_unique<StoreConnection>();
  c->db = std::move(*db);
  sqlite3_busy_timeout(c->db.get(), static_cast<int>(std::min<std::int64_t>(options.busy_timeout.count(), 1 << 30)));
  auto where = [&](const Error& e) { return fail("history database " + path + ": " + e.message); };

  // WAL lets readers (opticsd history) run beside the writer; NORMAL sync
  // loses at most the last commits on power loss, never consistency.
  auto mode = c->db.prepare("PRAGMA journal_mode = WAL");
  if (!mode) return where(mode.error());
  if (mode->step() != SQLITE_ROW || mode->columnText(0) != "wal") {
    return where(Error{"cannot switch to WAL journal mode: " + std::string(sqlite3_errmsg(c->db.get()))});
  }
  mode->reset();
  if (auto ok = c->db.exec("PRAGMA synchronous = NORMAL"); !ok) return where(ok.error());
  if (auto ok = migrate(c->db); !ok) return where(ok.error());
  auto codes = MetricCodes::load(c->db, true);
  if (!codes) return where(codes.error());
  if (auto converted = convertLegacyHistory(c->db, *codes, options.log); !converted) return where(converted.error());

  const std::pair<SqliteStatement*, const char*> statements[] = {
      {&c->begin, "BEGIN IMMEDIATE"}, {&c->commit, "COMMIT"}, {&c->rollback, "ROLLBACK"}};
  for (const auto& [into, sql] : statements) {
    auto stmt = c->db.prepare(sql);
    if (!stmt) return where(stmt.error());
    *into = std::move(*stmt);
  }
  auto samples = SampleRows::prepare(c->db, std::move(*codes), options.deadband);
  if (!samples) return where(samples.error());
  c->samples.emplace(std::move(*samples));
  auto findings = FindingRows::prepare(c->db);
  if (!findings) return where(findings.error());
  c->findings.emplace(std::move(*findings));

  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    c->dev = st.st_dev;
    c->ino = st.st_ino;
  }
  return c;
}

bool StoreConnection::stillAt(const std::string& path) const {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && st.st_ino == ino && st.st_dev == dev;
}

Result<void> StoreConnection::limitSize(std::uint64_t max_bytes) {
  auto page = db.prepare("PRAGMA page_size");
  std::int64_t page_size = 4096;
  if (page && page->step() == SQLITE_ROW) page_size = page->columnInt(0).value_or(4096);
  // SQLite clamps the count to what the file already holds and to its own maximum.
  const std::uint64_t pages =
      max_bytes == 0 ? 0xFFFFFFFEull : std::max<std::uint64_t>(1, max_bytes / static_cast<std::uint64_t>(page_size));
  if (auto ok = db.exec("PRAGMA max_page_count = " + std::to_string(pages)); !ok) {
    return fail("setting the size limit: " + ok.error().message);
  }
  return {};
}

Result<std::pair<std::uint64_t, std::uint64_t>> StoreConnection::usedAndLimitBytes() {
  auto read = [&](const char* pragma) -> Result<std::uint64_t> {
    auto st = db.prepare(pragma);
    if (!st) return tl::unexpected(st.error());
    if (st->step() != SQLITE_ROW) return fail(db.error(pragma));
    return static_cast<std::uint64_t>(st->columnInt(0).value_or(0));
  };
  auto page_size = read("PRAGMA page_size");
  auto pages = read("PRAGMA page_count");
  auto free_pages = read("PRAGMA freelist_count");
  auto max_pages = read("PRAGMA max_page_count");
  for (auto* r : {&page_size, &pages, &free_pages, &max_pages}) {
    if (!*r) return tl::unexpected(r->error());
  }
  const std::uint64_t used = (*pages - std::min(*pages, *free_pages)) * *page_size;
  const std::uint64_t limit = *max_pages >= 0xFFFFFFFEull ? 0 : *max_pages * *page_size;
  return std::pair{used, limit};
}

}  // namespace opticsd
