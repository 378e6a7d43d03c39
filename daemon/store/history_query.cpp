#include "daemon/store/history_query.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "daemon/store/history_buckets.hpp"
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
  for (auto c : kLaneFecColumns) out.emplace_back(c);
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

namespace {

// The columns a query returns: every module and lane column, or the one
// --metric names (module rows left out under a lane filter).
struct ColumnSelection {
  std::vector<std::string> module_cols;
  std::vector<std::string> lane_cols;
};

Result<ColumnSelection> selectColumns(const HistoryFilter& filter) {
  const std::vector<std::string> module_all = moduleColumns();
  const std::vector<std::string> lane_all = laneColumns();
  auto has = [](const std::vector<std::string>& v, const std::string& name) {
    return std::find(v.begin(), v.end(), name) != v.end();
  };
  ColumnSelection selection;
  if (filter.metric) {
    if (!has(module_all, *filter.metric) && !has(lane_all, *filter.metric)) {
      std::string names;
      for (const auto& n : HistoryQuery::metricNames()) names += (names.empty() ? "" : ", ") + n;
      return fail("unknown metric '" + *filter.metric + "' (known: " + names + ")");
    }
    if (has(module_all, *filter.metric)) selection.module_cols.push_back(*filter.metric);
    if (has(lane_all, *filter.metric)) selection.lane_cols.push_back(*filter.metric);
  } else {
    selection.module_cols = module_all;
    selection.lane_cols = lane_all;
  }
  if (filter.lane) selection.module_cols.clear();  // a lane filter asks for lane rows only
  return selection;
}

// The result's columns: module ones, then lane ones (a name in both is one column).
std::vector<HistoryColumn> resultColumns(const ColumnSelection& selection) {
  std::vector<HistoryColumn> columns;
  for (const auto& c : selection.module_cols) columns.push_back({c, true, false});
  for (const auto& c : selection.lane_cols) {
    auto it = std::find_if(columns.begin(), columns.end(), [&](const auto& col) { return col.name == c; });
    if (it != columns.end()) {
      it->lane = true;
    } else {
      columns.push_back({c, false, true});
    }
  }
  return columns;
}

Result<std::int64_t> findModule(SqliteDb& db, const HistoryFilter& filter) {
  auto find = db.prepare("SELECT id FROM modules WHERE target = ?1 AND port = ?2");
  if (!find) return tl::unexpected(find.error());
  find->bind(1, std::string_view(filter.target));
  find->bind(2, std::string_view(filter.port));
  const int found = find->step();
  if (found == SQLITE_DONE) return fail("no history for target '" + filter.target + "' port '" + filter.port + "'");
  if (found != SQLITE_ROW) return fail(db.error("looking up module"));
  return *find->columnInt(0);
}

// Metric code -> index in the result's columns, for the selected columns the database has a code for.
using ColumnIndex = std::unordered_map<std::uint32_t, std::size_t>;
ColumnIndex indexByCode(const MetricCodes& codes, const std::vector<std::string>& selected,
                        const std::vector<HistoryColumn>& columns) {
  ColumnIndex index;
  for (const auto& c : selected) {
    const auto at = static_cast<std::size_t>(
        std::find_if(columns.begin(), columns.end(), [&](const auto& col) { return col.name == c; }) - columns.begin());
    if (auto code = codes.code(c); code != 0) index[code] = at;
  }
  return index;
}

// Turns one packed module_history row into result rows: the module row, then
// a row per lane that has values, as the column layout used to return them.
class RowUnpacker {
 public:
  RowUnpacker(const HistoryFilter& filter, const ColumnSelection& selection, const MetricCodes& codes,
              HistoryResult& result)
      : filter_(filter),
        selection_(selection),
        codes_(codes),
        result_(result),
        module_index_(indexByCode(codes, selection.module_cols, result.columns)),
        lane_index_(indexByCode(codes, selection.lane_cols, result.columns)) {}

  void add(std::int64_t ts, bool heartbeat, const PackedValues& values) {
    lanes_.clear();
    HistoryRow module_row = emptyRow(ts, heartbeat);
    for (const PackedValue& v : values) {
      const ValueCodec& codec = codes_.codec(v.code);
      const HistoryValue value = codec.kind == ValueKind::kFlag || codec.kind == ValueKind::kInteger
                                     ? HistoryValue(v.stored)
                                     : HistoryValue(codec.decode(v.stored));
      if (v.lane == 0) {
        if (auto it = module_index_.find(v.code); it != module_index_.end()) module_row.values[it->second] = value;
      } else if (!filter_.lane || *filter_.lane == v.lane) {
        if (auto it = lane_index_.find(v.code); it != lane_index_.end()) {
          laneRow(ts, heartbeat, v.lane).values[it->second] = value;
        } else if (!selection_.lane_cols.empty()) {
          laneRow(ts, heartbeat, v.lane);  // the lane reported, not the selected metric
        }
      }
    }
    if (!selection_.module_cols.empty()) result_.rows.push_back(std::move(module_row));
    if (!selection_.lane_cols.empty()) {
      std::sort(lanes_.begin(), lanes_.end(), [](const HistoryRow& a, const HistoryRow& b) { return a.lane < b.lane; });
      for (auto& r : lanes_) result_.rows.push_back(std::move(r));
    }
  }

 private:
  HistoryRow emptyRow(std::int64_t ts, bool heartbeat) const {
    HistoryRow r;
    r.ts_ms = ts;
    r.heartbeat = heartbeat;
    r.values.resize(result_.columns.size());
    return r;
  }

  HistoryRow& laneRow(std::int64_t ts, bool heartbeat, int lane) {
    for (auto& r : lanes_) {
      if (r.lane == lane) return r;
    }
    HistoryRow& r = lanes_.emplace_back(emptyRow(ts, heartbeat));
    r.lane = lane;
    return r;
  }

  const HistoryFilter& filter_;
  const ColumnSelection& selection_;
  const MetricCodes& codes_;
  HistoryResult& result_;
  const ColumnIndex module_index_;
  const ColumnIndex lane_index_;
  std::vector<HistoryRow> lanes_;
};

// The rows of one module in [since, until], in time order: ts_ms and the packed blob.
Result<SqliteStatement> moduleRows(SqliteDb& db, std::int64_t module_id, std::int64_t since, std::int64_t until) {
  auto stmt = db.prepare(
      "SELECT ts_ms, kind, data FROM module_history WHERE module_id = ?1 AND ts_ms BETWEEN ?2 AND ?3 ORDER BY ts_ms");
  if (!stmt) return tl::unexpected(stmt.error());
  stmt->bind(1, std::optional<std::int64_t>(module_id));
  stmt->bind(2, std::optional<std::int64_t>(since));
  stmt->bind(3, std::optional<std::int64_t>(until));
  return stmt;
}

std::string_view blobOf(SqliteStatement& stmt, int column) {
  const auto* blob = static_cast<const char*>(sqlite3_column_blob(stmt.get(), column));
  return {blob == nullptr ? "" : blob, static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), column))};
}

// The module's packed rows in the filter's time range, unpacked into result.rows.
Result<void> readRows(SqliteDb& db, std::int64_t module_id, const HistoryFilter& filter,
                      const ColumnSelection& selection, HistoryResult& result) {
  const std::optional<std::int64_t> since = filter.since_ms.value_or(std::numeric_limits<std::int64_t>::min());
  const std::optional<std::int64_t> until = filter.until_ms.value_or(std::numeric_limits<std::int64_t>::max());
  auto codes = MetricCodes::load(db, false);
  if (!codes) return tl::unexpected(codes.error());
  auto stmt = moduleRows(db, module_id, *since, *until);
  if (!stmt) return tl::unexpected(stmt.error());
  RowUnpacker unpacker(filter, selection, *codes, result);
  int step = SQLITE_ROW;
  while ((step = stmt->step()) == SQLITE_ROW) {
    const std::int64_t ts = *stmt->columnInt(0);
    const bool heartbeat = stmt->columnInt(1) == static_cast<std::int64_t>(RowKind::kHeartbeat);
    auto values = unpack(blobOf(*stmt, 2));
    if (!values) {
      return fail("history of " + filter.target + " " + filter.port + " at " + std::to_string(ts) + ": " +
                  values.error().message);
    }
    unpacker.add(ts, heartbeat, *values);
  }
  if (step != SQLITE_DONE) return fail(db.error("reading module history"));
  return {};
}

// Every identity the module had, oldest first, without its empty fields.
Result<std::vector<IdentityRow>> readIdentities(SqliteDb& db, std::int64_t module_id) {
  auto ids = db.prepare("SELECT " + identityColumns() +
                        ", first_seen_ms, last_seen_ms FROM module_identities WHERE module_id = ?1"
                        " ORDER BY first_seen_ms, id");
  if (!ids) return tl::unexpected(ids.error());
  ids->bind(1, std::optional<std::int64_t>(module_id));
  std::vector<IdentityRow> identities;
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
    identities.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return fail(db.error("reading module identities"));
  return identities;
}

}  // namespace

Result<SeriesResult> HistoryQuery::series(const SeriesRequest& request) {
  HistoryFilter filter;
  filter.target = request.target;
  filter.port = request.port;
  auto module_id = findModule(db_, filter);
  if (!module_id) return tl::unexpected(module_id.error());
  auto codes = MetricCodes::load(db_, false);
  if (!codes) return tl::unexpected(codes.error());
  // Key code -> series key index, per level; -1: not asked for (skipped while decoding).
  std::vector<std::string> keys = request.module_keys;
  keys.insert(keys.end(), request.lane_keys.begin(), request.lane_keys.end());
  std::vector<int> module_key, lane_key;
  std::vector<ValueCodec> codec;  // by code, looked up once
  auto map = [&](std::vector<int>& by_code, std::size_t key_index) {
    const std::uint32_t code = codes->code(keys[key_index]);
    if (code == 0) return;  // the file never stored it
    if (by_code.size() <= code) by_code.resize(code + 1, -1);
    if (codec.size() <= code) codec.resize(code + 1);
    by_code[code] = static_cast<int>(key_index);
    codec[code] = codes->codec(code);
  };
  for (std::size_t k = 0; k < keys.size(); ++k) map(k < request.module_keys.size() ? module_key : lane_key, k);

  SeriesResult result;
  result.target = request.target;
  result.port = request.port;
  SeriesBuckets buckets(request, keys);
  auto stmt = moduleRows(db_, *module_id, request.since_ms, request.until_ms);
  if (!stmt) return tl::unexpected(stmt.error());
  PackedValues values;
  int step = SQLITE_ROW;
  while ((step = stmt->step()) == SQLITE_ROW) {
    const std::int64_t ts = *stmt->columnInt(0);
    if (auto ok = unpackInto(blobOf(*stmt, 2), values); !ok) {
      return fail("history of " + request.target + " " + request.port + " at " + std::to_string(ts) + ": " +
                  ok.error().message);
    }
    ++result.rows_read;
    result.last_row_ms = ts;
    for (const PackedValue& v : values) {
      const auto& by_code = v.lane == 0 ? module_key : lane_key;
      if (v.code >= by_code.size() || by_code[v.code] < 0) continue;
      const ValueCodec& c = codec[v.code];
      const double value = c.kind == ValueKind::kFlag || c.kind == ValueKind::kInteger ? static_cast<double>(v.stored)
                                                                                       : c.decode(v.stored);
      buckets.add(static_cast<std::size_t>(by_code[v.code]), v.lane, ts, value);
    }
  }
  if (step != SQLITE_DONE) return fail(db_.error("reading module history"));
  result.bucket_ms = buckets.bucketMs();
  result.series = buckets.finish();
  auto identities = readIdentities(db_, *module_id);
  if (!identities) return tl::unexpected(identities.error());
  result.identities = std::move(*identities);
  return result;
}

Result<HistoryResult> HistoryQuery::query(const HistoryFilter& filter) {
  auto selection = selectColumns(filter);
  if (!selection) return tl::unexpected(selection.error());
  HistoryResult result;
  result.target = filter.target;
  result.port = filter.port;
  result.columns = resultColumns(*selection);
  auto module_id = findModule(db_, filter);
  if (!module_id) return tl::unexpected(module_id.error());
  if (auto ok = readRows(db_, *module_id, filter, *selection, result); !ok) return tl::unexpected(ok.error());
  auto identities = readIdentities(db_, *module_id);
  if (!identities) return tl::unexpected(identities.error());
  result.identities = std::move(*identities);
  return result;
}

}  // namespace opticsd
