#pragma once
// Row mapping of poll samples for the history writer: a module's id (modules),
// its identity history (module_identities: a new row when the serial or any
// other identity field changes), and its values as one packed row per stored
// instant (module_history), kept by exception (deadband.hpp). Prepared once
// per connection; write() runs inside the writer's transaction.
//
// Finding context: the last `finding_context_rows` samples a module did not
// store are held here, so that when a finding on it is raised or cleared those
// rows, the row at the raise and the next ones are stored at full resolution
// (kind 2, which downsampling never thins).
//
// Not thread-safe: the writer thread owns it. After a rolled-back transaction
// call forget(): ids and kept rows cached since may not exist.

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

#include "daemon/store/deadband.hpp"
#include "daemon/store/packed_sample.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/threshold_rows.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// The module_identities value columns, comma-separated: the identity tables
// of drivers/sample.hpp, text fields first.
std::string identityColumns();

// Why a module_history row was kept (its `kind` column).
enum class RowKind : std::uint8_t { kChange = 0, kHeartbeat = 1, kFindingContext = 2, kConverted = 3 };

class SampleRows {
 public:
  static Result<SampleRows> prepare(SqliteDb& db, MetricCodes codes, DeadbandOptions deadband);

  struct Written {
    bool stored = false;  // false: within the deadband, left out
  };
  Result<Written> write(SqliteDb& db, const Sample& sample);
  // A finding on (target, port) was raised or cleared: keep the rows around it.
  Result<void> keepAroundFinding(SqliteDb& db, const std::string& target, const std::string& port);
  void forget() {
    modules_.clear();
    thresholds_.forget();
  }
  // Identity rows may have been deleted (retention): read them again when next needed.
  void forgetIdentities() {
    for (auto& [key, state] : modules_) state.identity_loaded = false;
  }

  const MetricCodes& codes() const { return codes_; }

 private:
  struct Identity {
    std::array<std::string, kIdentityTextInfo.size()> text;  // drivers/sample.hpp's identity tables
    std::array<std::optional<double>, kIdentityNumberInfo.size()> real;
    bool operator==(const Identity&) const = default;
  };
  struct Pending {
    std::int64_t ts_ms = 0;
    std::string data;
  };
  struct ModuleState {
    std::int64_t id = 0;
    bool identity_loaded = false;
    std::int64_t identity_id = 0;  // 0: none recorded yet
    Identity identity;
    std::optional<std::int64_t> kept_ms;  // the last stored row
    std::string kept_data;
    std::deque<Pending> pending;  // samples not stored, newest last
    std::size_t keep_next = 0;    // samples to store at full resolution
  };

  SampleRows() = default;
  Result<ModuleState*> module(SqliteDb& db, const std::string& target, const std::string& port, bool create);
  Result<void> recordIdentity(SqliteDb& db, ModuleState& state, const Sample& sample);
  Result<void> insert(SqliteDb& db, std::int64_t module_id, std::int64_t ts_ms, RowKind kind, const std::string& data);

  MetricCodes codes_;
  DeadbandOptions deadband_;
  SqliteStatement insert_module_, select_module_;
  SqliteStatement select_identity_, insert_identity_, touch_identity_;
  SqliteStatement insert_row_, mark_kept_;
  ThresholdRows thresholds_;                              // the modules' own limits, beside their identity
  std::unordered_map<std::string, ModuleState> modules_;  // "target\0port"
  std::string key_;
};

}  // namespace opticsd
