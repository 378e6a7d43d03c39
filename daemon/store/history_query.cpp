#include "daemon/store/history_query.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "daemon/store/packed_sample.hpp"
#include "daemon/store/sample_rows.hpp"
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

  // One packed row per stored instant (module_history): the module row, then
  // a row per lane that has values, as the column layout used to return them.
  auto codes = MetricCodes::load(db_, false);
  if (!codes) return tl::unexpected(codes.error());
  std::unordered_map<std::uint32_t, std::size_t> module_index;
  std::unordered_map<std::uint32_t, std::size_t> lane_index;
  for (const auto& c : module_cols) {
    if (auto code = codes->code(c); code != 0) module_index[code] = column_index(c);
  }
  for (const auto& c : lane_cols) {
    if (auto code = codes->code(c); code != 0) lane_index[code] = column_index(c);
  }
  auto stmt = db_.prepare(
      "SELECT ts_ms, kind, data FROM module_history WHERE module_id = ?1 AND ts_ms BETWEEN ?2 AND ?3 ORDER BY ts_ms");
  if (!stmt) return tl::unexpected(stmt.error());
  stmt->bind(1, std::optional<std::int64_t>(module_id));
  stmt->bind(2, since);
  stmt->bind(3, until);
  int step = SQLITE_ROW;
  std::vector<HistoryRow> lanes;
  while ((step = stmt->step()) == SQLITE_ROW) {
    const std::int64_t ts = *stmt->columnInt(0);
    const bool heartbeat = stmt->columnInt(1) == static_cast<std::int64_t>(RowKind::kHeartbeat);
    const auto* blob = static_cast<const char*>(sqlite3_column_blob(stmt->get(), 2));
    auto values = unpack(std::string_view(blob == nullptr ? "" : blob,
                                          static_cast<std::size_t>(sqlite3_column_bytes(stmt->get(), 2))));
    if (!values) return fail("history of " + filter.target + " " + filter.port + " at " + std::to_string(ts) + ": " +
                             values.error().message);
    lanes.clear();
    auto lane_row = [&](int lane) -> HistoryRow& {
      for (auto& r : lanes) {
        if (r.lane == lane) return r;
      }
      HistoryRow& r = lanes.emplace_back();
      r.ts_ms = ts;
      r.lane = lane;
      r.heartbeat = heartbeat;
      r.values.resize(result.columns.size());
      return r;
    };
    HistoryRow module_row;
    module_row.ts_ms = ts;
    module_row.heartbeat = heartbeat;
    module_row.values.resize(result.columns.size());
    for (const PackedValue& v : *values) {
      const ValueCodec& codec = codes->codec(v.code);
      HistoryValue value = codec.kind == ValueKind::kFlag || codec.kind == ValueKind::kInteger
                               ? HistoryValue(v.stored)
                               : HistoryValue(codec.decode(v.stored));
      if (v.lane == 0) {
        if (auto it = module_index.find(v.code); it != module_index.end()) module_row.values[it->second] = value;
      } else if (!filter.lane || *filter.lane == v.lane) {
        if (auto it = lane_index.find(v.code); it != lane_index.end()) {
          lane_row(v.lane).values[it->second] = value;
        } else if (!lane_cols.empty()) {
          lane_row(v.lane);  // the lane reported, not the selected metric
        }
      }
    }
    if (!module_cols.empty()) result.rows.push_back(std::move(module_row));
    if (!lane_cols.empty()) {
      std::sort(lanes.begin(), lanes.end(), [](const HistoryRow& a, const HistoryRow& b) { return a.lane < b.lane; });
      for (auto& r : lanes) result.rows.push_back(std::move(r));
    }
  }
  if (step != SQLITE_DONE) return fail(db_.error("reading module history"));

  auto ids = db_.prepare("SELECT " + identityColumns() +
                         ", first_seen_ms, last_seen_ms FROM module_identities WHERE module_id = ?1"
                         " ORDER BY first_seen_ms, id");
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
