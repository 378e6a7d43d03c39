#include "daemon/store/findings_history.hpp"

#include <sqlite3.h>

#include "daemon/store/finding_rows.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_handle.hpp"

namespace opticsd {
namespace {

Result<SqliteDb> openReadOnly(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("no history database at " + path.string());
  auto db = SqliteDb::open(path.string(), SQLITE_OPEN_READONLY);
  if (!db) return tl::unexpected(db.error());
  sqlite3_busy_timeout(db->get(), 2000);
  auto version = readSchemaVersion(*db);
  if (!version) return tl::unexpected(version.error());
  if (*version < 2)
    return fail(path.string() + " has no findings yet (schema version " + std::to_string(*version) + ")");
  return db;
}

}  // namespace

Result<std::vector<Finding>> loadFindings(const std::filesystem::path& path, const FindingsFilter& filter) {
  auto db = openReadOnly(path);
  if (!db) return tl::unexpected(db.error());
  std::string sql =
      "SELECT target, port, lane, rule, severity, start_ms, end_ms, value, detail FROM findings WHERE 1 = 1";
  if (filter.active_only) sql += " AND end_ms IS NULL";
  if (filter.since_ms) sql += " AND (end_ms IS NULL OR end_ms >= ?1)";
  if (!filter.target.empty()) sql += " AND target = ?2";
  sql += " ORDER BY start_ms, target, port, lane, rule";
  auto st = db->prepare(sql);
  if (!st) return tl::unexpected(st.error());
  if (filter.since_ms) st->bind(1, filter.since_ms);
  if (!filter.target.empty()) st->bind(2, filter.target);
  std::vector<Finding> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db->error("reading findings"));
    Finding f;
    f.target = st->columnText(0);
    f.port = st->columnText(1);
    f.lane = static_cast<int>(st->columnInt(2).value_or(0));
    f.rule = st->columnText(3);
    f.severity = parseSeverity(st->columnText(4)).value_or(Severity::kWarning);
    f.start_ms = st->columnInt(5).value_or(0);
    f.end_ms = st->columnInt(6);
    f.value = st->columnDouble(7);
    f.detail = st->columnText(8);
    out.push_back(std::move(f));
  }
  return out;
}

namespace {

// The suspects, best first; one port's (through the primary key) when target is not empty.
Result<std::vector<Suspect>> readSuspects(const std::filesystem::path& path, const std::string& target,
                                          const std::string& port) {
  auto db = openReadOnly(path);
  if (!db) return tl::unexpected(db.error());
  auto st =
      db->prepare(std::string("SELECT target, port, score, reason, host, nic, gpu, rail, updated_ms FROM suspects") +
                  (target.empty() ? "" : " WHERE target = ?1 AND port = ?2") + " ORDER BY score DESC, target, port");
  if (!st) return tl::unexpected(st.error());
  if (!target.empty()) {
    st->bind(1, std::string_view(target));
    st->bind(2, std::string_view(port));
  }
  std::vector<Suspect> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db->error("reading suspects"));
    Suspect s;
    s.target = st->columnText(0);
    s.port = st->columnText(1);
    s.score = st->columnDouble(2).value_or(0);
    s.reason = st->columnText(3);
    s.endpoint.host = st->columnText(4);
    s.endpoint.nic = st->columnText(5);
    s.endpoint.gpu = st->columnText(6);
    s.endpoint.rail = st->columnText(7);
    s.updated_ms = st->columnInt(8).value_or(0);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Result<std::vector<Suspect>> loadSuspects(const std::filesystem::path& path) { return readSuspects(path, {}, {}); }

Result<std::optional<Suspect>> loadSuspect(const std::filesystem::path& path, const std::string& target,
                                           const std::string& port) {
  if (target.empty()) return std::optional<Suspect>();
  auto found = readSuspects(path, target, port);
  if (!found) return tl::unexpected(found.error());
  if (found->empty()) return std::optional<Suspect>();
  return std::optional<Suspect>(std::move(found->front()));
}

Result<std::vector<BiasBaseline>> loadBaselines(const std::filesystem::path& path, const std::string& target,
                                                const std::string& port) {
  if (target.empty()) return std::vector<BiasBaseline>{};
  auto db = openReadOnly(path);
  if (!db) return tl::unexpected(db.error());
  return readBiasBaselines(*db, target, port);
}

Result<std::vector<SerialSighting>> loadSerialSightings(const std::filesystem::path& path, const std::string& serial) {
  auto db = openReadOnly(path);
  if (!db) return tl::unexpected(db.error());
  auto st = db->prepare(
      "SELECT m.target, m.port, min(i.first_seen_ms), max(i.last_seen_ms) FROM module_identities i "
      "JOIN modules m ON m.id = i.module_id WHERE i.serial = ?1 GROUP BY m.id ORDER BY 3");
  if (!st) return tl::unexpected(st.error());
  st->bind(1, serial);
  std::vector<SerialSighting> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db->error("reading module identities"));
    out.push_back({st->columnText(0), st->columnText(1), st->columnInt(2).value_or(0), st->columnInt(3).value_or(0)});
  }
  return out;
}

}  // namespace opticsd
