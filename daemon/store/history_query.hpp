#pragma once
// The read side of the history store: a read-only connection for
// `opticsd history` and for tests. It never writes, so it can run beside the
// daemon's writer (WAL readers do not block the writer, nor it them).
//
// One HistoryQuery is used by one thread at a time.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"

namespace opticsd {

struct HistoryFilter {
  std::string target;
  std::string port;
  std::optional<int> lane;               // only this lane (module rows are left out)
  std::optional<std::string> metric;     // only this column (a catalogue key, FEC/link/status column)
  std::optional<std::int64_t> since_ms;  // inclusive
  std::optional<std::int64_t> until_ms;  // inclusive
};

// NULL (not reported), an integer column, or a real one.
using HistoryValue = std::variant<std::monostate, std::int64_t, double>;

struct HistoryColumn {
  std::string name;
  bool module = false;  // present in module rows
  bool lane = false;    // present in lane rows
};

struct HistoryRow {
  std::int64_t ts_ms = 0;
  std::optional<int> lane;           // nullopt: a module-level row
  std::vector<HistoryValue> values;  // one per HistoryResult::columns
  bool heartbeat = false;            // kept at the deadband heartbeat: nothing moved since the last row
};

struct IdentityRow {
  std::vector<std::pair<std::string, std::string>> fields;  // column, value; empty values left out
  std::int64_t first_seen_ms = 0;
  std::int64_t last_seen_ms = 0;
};

struct SeriesRequest;
struct SeriesResult;

struct HistoryResult {
  std::string target;
  std::string port;
  std::vector<HistoryColumn> columns;
  std::vector<HistoryRow> rows;         // by time; at one instant the module row, then lanes in order
  std::vector<IdentityRow> identities;  // oldest first
};

class HistoryQuery {
 public:
  // Fails on a missing file, a file that is not opticsd history, or a schema
  // newer than this binary knows.
  static Result<HistoryQuery> open(const std::string& path);

  Result<HistoryResult> query(const HistoryFilter& filter);

  // What a plot needs (history_buckets.hpp): only the requested keys, as
  // min/max/last per time bucket, decoded while stepping the module's rows
  // once through the (module_id, ts_ms) key; no full rows are built.
  Result<SeriesResult> series(const SeriesRequest& request);

  // Every column name --metric accepts.
  static std::vector<std::string> metricNames();

 private:
  explicit HistoryQuery(SqliteDb db) : db_(std::move(db)) {}
  SqliteDb db_;
};

}  // namespace opticsd
