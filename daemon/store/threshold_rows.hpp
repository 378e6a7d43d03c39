#pragma once
// The alarm and warning thresholds each module advertises, kept in history
// (module_thresholds, schemas/migrations/0009_module_thresholds.sql) so that
// a replay (`opticsd backtest`) judges a module against its own limits as the
// daemon did live: module_alarm, and alarm_forecast's extrapolation toward
// the module's own low Rx or high temperature alarm.
//
// A row when a port's table differs from the last one recorded for it; a
// poll without thresholds records nothing. Written by SampleRows beside the
// module's identity, in the writer's transaction.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "daemon/store/packed_sample.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// The table packed as module_history.data is (the migration says the layout).
std::string packThresholds(const ModuleThresholds& table, const MetricCodes& codes);
// Keys this opticsd does not know (a newer writer's) are left out.
Result<ModuleThresholds> unpackThresholds(std::string_view blob, const MetricCodes& codes);

class ThresholdRows {
 public:
  ThresholdRows() = default;  // unusable until prepare()d
  static Result<ThresholdRows> prepare(SqliteDb& db);
  // Records `sample`'s thresholds for `module_id` at its timestamp when they
  // differ from the last recorded for the module.
  Result<void> record(SqliteDb& db, std::int64_t module_id, const Sample& sample, const MetricCodes& codes);
  // What was recorded is read again when next needed (a new connection).
  void forget() { last_.clear(); }

 private:
  struct Last {
    bool loaded = false;
    CopyOnWrite<ModuleThresholds> table;  // the Samples' table last seen equal to the recorded one
    std::string data;                     // the recorded row's data, read at first sight until a table stands for it
  };
  SqliteStatement select_last_, insert_;
  std::unordered_map<std::int64_t, Last> last_;  // by module id
};

}  // namespace opticsd
