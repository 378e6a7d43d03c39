#include "daemon/store/history_query.hpp"

#include <algorithm>
#include <filesystem>

#include "daemon/store/schema.hpp"
#include "drivers/measurement.hpp"

namespace opticsd {
namespace {

std::vector<std::string> moduleColumns() {
  std::vector<std::string> out{"present"};
  for (const auto& m : kModuleMetricInfo) out.emplace_back(m.key);
  for (auto c : kModuleCounterColumns) out.emplace_back(c);
  return out;
}

std::vector<std::string> laneColumns() {
  std::vector<std::string> out;
  for (const auto& m : kLaneMetricInfo) out.emplace_back(m.key);
  for (auto c : kLaneStatusColumns) out.emplace_back(c);
  return out;
}

HistoryValue readValue(const SqliteStatement& stmt, int index) {
  switch (sqlite3_column_type(stmt.get(), index)) {
    case SQLITE_INTEGER:
      return static_cast<std::int64_t>(sqlite3_column_int64(stmt.get(), index));
    case SQLITE_FLOAT:
      return sqlite3_column_double(stmt.get(), index);
    default:
      return std::monostate{};
  }
}

std::string selectList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += ", " + quoteIdentifier(n);
  return out;
}

}  // namespace

std::vector<std::string> HistoryQuery::metricNames() {
  std::vector<std::string> out = moduleColumns();
  for (auto& c : laneColumns()) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
  }
  return out;
}

Result<HistoryQuery> HistoryQuery::open(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("history database " + path + " does not exist");
  auto db = SqliteDb::open(path, SQLITE_OPEN_READONLY);
  if (!db) return tl::unexpected(db.error());
  sqlite3_busy_timeout(db->get(), 5000);
  auto version = readSchemaVersion(*db);
  if (!version) return fail(path + " is not a readable opticsd history database: " + version.error().message);
  if (*version == 0) return fail(path + " is not an opticsd history database (no schema_version table)");
  if (*version > latestSchemaVersion()) {
    return fail(path + " has schema version " + std::to_string(*version) + ", newer than this opticsd knows (" +
                std::to_string(latestSchemaVersion()) + "); use a newer opticsd to read it");
  }
  return HistoryQuery(std::move(*db));
}

Result<HistoryResult> HistoryQuery::query(const HistoryFilter& filter) {
  const std::vector<std::string> module_all = moduleColumns();
  const std::vector<std::string> lane_all = laneColumns();
  auto has = [](const std::vector<std::string>& v, const std::string& name) {
    return std::find(v.begin(), v.end(), name) != v.end();
  };

  HistoryResult result;
  result.target = filter.target;
  result.port = filter.port;
  std::vector<std::string> module_cols;
  std::vector<std::string> lane_cols;
  if (filter.metric) {
    if (!has(module_all, *filter.metric) && !has(lane_all, *filter.metric)) {
      std::string names;
      for (const auto& n : metricNames()) names += (names.empty() ? "" : ", ") + n;
      return fail("unknown metric '" + *filter.metric + "' (known: " + names + ")");
    }
    if (has(module_all, *filter.metric)) module_cols.push_back(*filter.metric);
    if (has(lane_all, *filter.metric)) lane_cols.push_back(*filter.metric);
  } else {
    module_cols = module_all;
    lane_cols = lane_all;
  }
  if (filter.lane) module_cols.clear();  // a lane filter asks for lane rows only

  for (const auto& c : module_cols) result.columns.push_back({c, true, false});
  for (const auto& c : lane_cols) {
    auto it =
        std::find_if(result.columns.begin(), result.columns.end(), [&](const auto& col) { return col.name == c; });
    if (it != result.columns.end()) {
      it->lane = true;
    } else {
      result.columns.push_back({c, false, true});
    }
  }
  auto column_index = [&](const std::string& name) {
    return static_cast<std::size_t>(
        std::find_if(result.columns.begin(), result.columns.end(), [&](const auto& col) { return col.name == name; }) -
        result.columns.begin());
  };

  auto find = db_.prepare("SELECT id FROM modules WHERE target = ?1 AND port = ?2");
  if (!find) return tl::unexpected(find.error());
  find->bind(1, std::string_view(filter.target));
  find->bind(2, std::string_view(filter.port));
  const int found = find->step();
  if (found == SQLITE_DONE) return fail("no history for target '" + filter.target + "' port '" + filter.port + "'");
  if (found != SQLITE_ROW) return fail(db_.error("looking up module"));
  const std::int64_t module_id = *find->columnInt(0);

  const std::optional<std::int64_t> since = filter.since_ms.value_or(std::numeric_limits<std::int64_t>::min());
  const std::optional<std::int64_t> until = filter.until_ms.value_or(std::numeric_limits<std::int64_t>::max());

  std::vector<HistoryRow> module_rows;
  if (!module_cols.empty()) {
    auto stmt = db_.prepare("SELECT ts_ms" + selectList(module_cols) +
                            " FROM module_samples WHERE module_id = ?1 AND ts_ms BETWEEN ?2 AND ?3 ORDER BY ts_ms");
    if (!stmt) return tl::unexpected(stmt.error());
    stmt->bind(1, std::optional<std::int64_t>(module_id));
    stmt->bind(2, since);
    stmt->bind(3, until);
    int rc = SQLITE_ROW;
    while ((rc = stmt->step()) == SQLITE_ROW) {
      HistoryRow row;
      row.ts_ms = *stmt->columnInt(0);
      row.values.resize(result.columns.size());
      for (std::size_t i = 0; i < module_cols.size(); ++i) {
        row.values[column_index(module_cols[i])] = readValue(*stmt, static_cast<int>(1 + i));
      }
      module_rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) return fail(db_.error("reading module samples"));
  }

  std::vector<HistoryRow> lane_rows;
  if (!lane_cols.empty()) {
    auto stmt = db_.prepare("SELECT ts_ms, lane" + selectList(lane_cols) +
                            " FROM lane_samples WHERE module_id = ?1 AND ts_ms BETWEEN ?2 AND ?3"
                            " AND (?4 IS NULL OR lane = ?4) ORDER BY ts_ms, lane");
    if (!stmt) return tl::unexpected(stmt.error());
    stmt->bind(1, std::optional<std::int64_t>(module_id));
    stmt->bind(2, since);
    stmt->bind(3, until);
    stmt->bind(4, filter.lane ? std::optional<std::int64_t>(*filter.lane) : std::nullopt);
    int rc = SQLITE_ROW;
    while ((rc = stmt->step()) == SQLITE_ROW) {
      HistoryRow row;
      row.ts_ms = *stmt->columnInt(0);
      row.lane = static_cast<int>(*stmt->columnInt(1));
      row.values.resize(result.columns.size());
      for (std::size_t i = 0; i < lane_cols.size(); ++i) {
        row.values[column_index(lane_cols[i])] = readValue(*stmt, static_cast<int>(2 + i));
      }
      lane_rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) return fail(db_.error("reading lane samples"));
  }

  // Both lists are sorted by time; at equal times the module row goes first.
  result.rows.reserve(module_rows.size() + lane_rows.size());
  std::merge(std::make_move_iterator(module_rows.begin()), std::make_move_iterator(module_rows.end()),
             std::make_move_iterator(lane_rows.begin()), std::make_move_iterator(lane_rows.end()),
             std::back_inserter(result.rows), [](const HistoryRow& a, const HistoryRow& b) {
               if (a.ts_ms != b.ts_ms) return a.ts_ms < b.ts_ms;
               return !a.lane.has_value() && b.lane.has_value();
             });

  auto ids = db_.prepare(
      "SELECT family, form_factor, media, vendor, vendor_oui, part_number, revision, serial, date_code, connector,"
      " firmware_version, spec_revision, modulation, wavelength_nm, cable_length_m, lane_rate_gbps,"
      " first_seen_ms, last_seen_ms FROM module_identities WHERE module_id = ?1 ORDER BY first_seen_ms, id");
  if (!ids) return tl::unexpected(ids.error());
  ids->bind(1, std::optional<std::int64_t>(module_id));
  int rc = SQLITE_ROW;
  while ((rc = ids->step()) == SQLITE_ROW) {
    IdentityRow row;
    const int n = sqlite3_column_count(ids->get());
    for (int i = 0; i < n - 2; ++i) {
      if (sqlite3_column_type(ids->get(), i) == SQLITE_NULL) continue;
      row.fields.emplace_back(sqlite3_column_name(ids->get(), i), ids->columnText(i));
    }
    row.first_seen_ms = ids->columnInt(n - 2).value_or(0);
    row.last_seen_ms = ids->columnInt(n - 1).value_or(0);
    result.identities.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return fail(db_.error("reading module identities"));
  return result;
}

}  // namespace opticsd
