#include "daemon/store/legacy_history.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "daemon/store/sample_rows.hpp"
#include "drivers/lane_limit.hpp"

namespace opticsd {
namespace {

// Every column whose name is a history key, from `first` on.
void addColumns(const SqliteStatement& st, int first, int lane, const MetricCodes& codes, PackedValues& out) {
  const int n = sqlite3_column_count(st.get());
  for (int i = first; i < n; ++i) {
    if (sqlite3_column_type(st.get(), i) == SQLITE_NULL) continue;
    const std::uint32_t code = codes.code(sqlite3_column_name(st.get(), i));
    if (code == 0) continue;
    const ValueCodec& codec = codes.codec(code);
    auto stored = codec.encode(sqlite3_column_double(st.get(), i));
    if (!stored) continue;
    out.push_back({code, static_cast<std::uint8_t>(lane), codec.kind == ValueKind::kFlag, *stored});
  }
}

Result<std::int64_t> count(SqliteDb& db, std::string_view sql) {
  auto st = db.prepare(sql);
  if (!st) return tl::unexpected(st.error());
  if (st->step() != SQLITE_ROW) return fail(db.error("counting old history"));
  return st->columnInt(0).value_or(0);
}

}  // namespace

Result<std::uint64_t> convertLegacyHistory(SqliteDb& db, const MetricCodes& codes,
                                           const std::function<void(std::string_view)>& log,
                                           std::size_t rows_per_transaction) {
  auto total = count(db, "SELECT count(*) FROM module_samples");
  if (!total) return tl::unexpected(total.error());
  if (*total == 0) {
    auto lanes = count(db, "SELECT EXISTS (SELECT 1 FROM lane_samples)");
    if (!lanes) return tl::unexpected(lanes.error());
    if (*lanes != 0) {
      if (auto ok = db.exec("DELETE FROM lane_samples"); !ok)
        return tl::unexpected(ok.error());  // no module row: unreadable
    }
    return 0;
  }
  if (log) log("converting " + std::to_string(*total) + " module rows of history to the compact layout (schema 6)");
  // Columns are selected by name: the old tables have one column per catalogue
  // key of the release that made them.
  auto rows = db.prepare("SELECT rowid, module_id, ts_ms, * FROM module_samples ORDER BY rowid LIMIT ?1");
  auto lanes = db.prepare("SELECT lane, * FROM lane_samples WHERE module_id = ?1 AND ts_ms = ?2 ORDER BY lane");
  auto insert =
      db.prepare("INSERT OR IGNORE INTO module_history (module_id, ts_ms, kind, data) VALUES (?1, ?2, ?3, ?4)");
  auto drop_lanes = db.prepare("DELETE FROM lane_samples WHERE module_id = ?1 AND ts_ms = ?2");
  auto drop_row = db.prepare("DELETE FROM module_samples WHERE rowid = ?1");
  for (auto* st : {&rows, &lanes, &insert, &drop_lanes, &drop_row}) {
    if (!*st) return tl::unexpected(st->error());
  }
  std::uint64_t converted = 0;
  std::uint64_t logged = 0;
  for (;;) {
    if (auto ok = db.exec("BEGIN IMMEDIATE"); !ok) return tl::unexpected(ok.error());
    auto chunk = [&]() -> Result<std::size_t> {
      rows->bind(1, std::optional<std::int64_t>(static_cast<std::int64_t>(rows_per_transaction)));
      std::size_t n = 0;
      int rc = SQLITE_ROW;
      while ((rc = rows->step()) == SQLITE_ROW) {
        const std::int64_t rowid = rows->columnInt(0).value_or(0);
        const std::optional<std::int64_t> module_id = rows->columnInt(1);
        const std::optional<std::int64_t> ts = rows->columnInt(2);
        PackedValues values;
        addColumns(*rows, 3, 0, codes, values);
        lanes->bind(1, module_id);
        lanes->bind(2, ts);
        int lrc = SQLITE_ROW;
        while ((lrc = lanes->step()) == SQLITE_ROW) {
          const auto lane = lanes->columnInt(0).value_or(0);
          if (lane >= 1 && lane <= kMaxSampleLanes) addColumns(*lanes, 1, static_cast<int>(lane), codes, values);
        }
        lanes->reset();
        if (lrc != SQLITE_DONE) return fail(db.error("reading old lane rows"));
        std::sort(values.begin(), values.end(), [](const PackedValue& a, const PackedValue& b) {
          return a.code != b.code ? a.code < b.code : a.lane < b.lane;
        });
        values.erase(std::unique(values.begin(), values.end(),
                                 [](const PackedValue& a, const PackedValue& b) {
                                   return a.code == b.code && a.lane == b.lane;
                                 }),
                     values.end());
        const std::string data = pack(values);
        insert->bind(1, module_id);
        insert->bind(2, ts);
        insert->bind(3, std::optional<std::int64_t>(static_cast<std::int64_t>(RowKind::kConverted)));
        sqlite3_bind_blob(insert->get(), 4, data.data(), static_cast<int>(data.size()), SQLITE_TRANSIENT);
        drop_lanes->bind(1, module_id);
        drop_lanes->bind(2, ts);
        drop_row->bind(1, std::optional<std::int64_t>(rowid));
        for (auto* st : {&insert, &drop_lanes, &drop_row}) {
          const int src = (*st)->step();
          (*st)->reset();
          if (src != SQLITE_DONE) return fail(db.error("converting old history"));
        }
        ++n;
      }
      rows->reset();
      if (rc != SQLITE_DONE) return fail(db.error("reading old module rows"));
      return n;
    }();
    if (!chunk) {
      (void)db.exec("ROLLBACK");
      return tl::unexpected(chunk.error());
    }
    if (auto ok = db.exec("COMMIT"); !ok) {
      (void)db.exec("ROLLBACK");
      return tl::unexpected(ok.error());
    }
    converted += *chunk;
    if (*chunk < rows_per_transaction) break;
    if (log && converted - logged >= 100'000) {
      log("converted " + std::to_string(converted) + " of " + std::to_string(*total) + " module rows");
      logged = converted;
    }
  }
  if (log) log("history conversion done: " + std::to_string(converted) + " module rows");
  return converted;
}

}  // namespace opticsd
