#include "daemon/store/history_retention.hpp"

#include <algorithm>
#include <vector>

namespace opticsd {
namespace {

template <typename Body>
Result<HistoryRetention::Step> inTransaction(SqliteDb& db, Body body) {
  if (auto ok = db.exec("BEGIN IMMEDIATE"); !ok) return tl::unexpected(ok.error());
  auto step = body();
  if (!step) {
    (void)db.exec("ROLLBACK");
    return step;
  }
  if (auto ok = db.exec("COMMIT"); !ok) {
    (void)db.exec("ROLLBACK");
    return tl::unexpected(ok.error());
  }
  return step;
}

Result<std::uint64_t> deleteBefore(SqliteDb& db, SqliteStatement& del, std::int64_t module_id, std::int64_t cutoff) {
  del.bind(1, std::optional<std::int64_t>(module_id));
  del.bind(2, std::optional<std::int64_t>(cutoff));
  const int rc = del.step();
  del.reset();
  if (rc != SQLITE_DONE) return fail(db.error("expiring old history"));
  return static_cast<std::uint64_t>(sqlite3_changes64(db.get()));
}

}  // namespace

Result<HistoryRetention::Step> HistoryRetention::expireOlderThan(SqliteDb& db, std::int64_t cutoff_ms,
                                                                 std::size_t modules) {
  return inTransaction(db, [&]() -> Result<Step> {
    auto ids = db.prepare("SELECT id FROM modules WHERE id > ?1 ORDER BY id LIMIT ?2");
    auto del = db.prepare("DELETE FROM module_history WHERE module_id = ?1 AND ts_ms < ?2");
    if (!ids) return tl::unexpected(ids.error());
    if (!del) return tl::unexpected(del.error());
    ids->bind(1, std::optional<std::int64_t>(next_module_));
    ids->bind(2, std::optional<std::int64_t>(static_cast<std::int64_t>(modules)));
    std::vector<std::int64_t> batch;
    while (ids->step() == SQLITE_ROW) batch.push_back(ids->columnInt(0).value_or(0));
    Step out;
    for (const std::int64_t id : batch) {
      auto n = deleteBefore(db, *del, id, cutoff_ms);
      if (!n) return tl::unexpected(n.error());
      out.deleted_rows += *n;
    }
    if (batch.size() < modules) {
      next_module_ = 0;  // pass complete
      auto ok = db.exec("DELETE FROM module_identities WHERE last_seen_ms < " + std::to_string(cutoff_ms));
      if (!ok) return tl::unexpected(ok.error());
      out.deleted_rows += static_cast<std::uint64_t>(sqlite3_changes64(db.get()));
    } else {
      next_module_ = batch.back();
      out.more = true;
    }
    return out;
  });
}

Result<HistoryRetention::Step> HistoryRetention::expireOldest(SqliteDb& db, std::chrono::milliseconds slice) {
  return inTransaction(db, [&]() -> Result<Step> {
    // The oldest row: one key lookup per module, never a scan of the table.
    auto oldest = db.prepare(
        "SELECT min((SELECT ts_ms FROM module_history WHERE module_id = modules.id ORDER BY ts_ms LIMIT 1)) "
        "FROM modules");
    if (!oldest) return tl::unexpected(oldest.error());
    if (oldest->step() != SQLITE_ROW) return fail(db.error("finding the oldest history"));
    const auto first = oldest->columnInt(0);
    Step out;
    if (!first) return out;  // nothing stored
    const std::int64_t cutoff = *first + std::max<std::int64_t>(1, slice.count());
    auto ids = db.prepare("SELECT id FROM modules");
    auto del = db.prepare("DELETE FROM module_history WHERE module_id = ?1 AND ts_ms < ?2");
    if (!ids) return tl::unexpected(ids.error());
    if (!del) return tl::unexpected(del.error());
    std::vector<std::int64_t> all;
    while (ids->step() == SQLITE_ROW) all.push_back(ids->columnInt(0).value_or(0));
    for (const std::int64_t id : all) {
      auto n = deleteBefore(db, *del, id, cutoff);
      if (!n) return tl::unexpected(n.error());
      out.deleted_rows += *n;
    }
    out.more = out.deleted_rows > 0;
    return out;
  });
}

}  // namespace opticsd
