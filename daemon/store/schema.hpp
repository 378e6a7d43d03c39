#pragma once
// The history schema: migrations applied at open, and the state and counter
// keys the writer and the reader share besides the catalogue keys of
// drivers/measurement.hpp (packed_sample.hpp).
//
// Free functions on a connection the caller owns; no shared state.

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "daemon/store/migrations.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// module_samples columns besides module_id, ts_ms, present and the ModuleMetric keys.
// From fec_tail_symbols on, keys history has kept since issue 30 (no
// migration: the packed rows give each key a code at open). The link-down
// reason is stored as the kernel's state x 256 + substate
// (drivers/link_down_reason.hpp), maintenance as 1 while in maintenance.
inline constexpr std::array<std::string_view, 10> kModuleCounterColumns{
    "fec_corrected_blocks_total", "fec_uncorrectable_blocks_total",
    "fec_corrected_bits_total",   "link_up",
    "link_down_events_total",     "link_speed_gbps",
    "fec_tail_symbols",           "fec_margin_symbols",
    "link_down_reason_code",      "maintenance"};

// Lane keys of the FEC tail, where the histogram is counted per lane.
inline constexpr std::array<std::string_view, 2> kLaneFecColumns{"fec_tail_symbols", "fec_margin_symbols"};

// lane_samples columns besides module_id, lane, ts_ms and the LaneMetric keys:
// the lane flags of drivers/sample.hpp, then data_path_state.
inline constexpr auto kLaneStatusColumns = [] {
  std::array<std::string_view, kLaneFlagInfo.size() + 1> columns{};
  for (std::size_t i = 0; i < kLaneFlagInfo.size(); ++i) columns[i] = kLaneFlagInfo[i].key;
  columns.back() = "data_path_state";
  return columns;
}();

// The highest version in `migrations` (the embedded set by default).
int latestSchemaVersion(std::span<const Migration> migrations = embeddedMigrations());

// The version recorded in the database; 0 for a database opticsd never touched.
Result<int> readSchemaVersion(SqliteDb& db);

// Applies every migration newer than the database's version, each in its own
// transaction with its schema_version row, and returns the resulting version.
// Refuses a database whose version is newer than the newest migration known.
Result<int> migrate(SqliteDb& db, std::span<const Migration> migrations = embeddedMigrations());

}  // namespace opticsd
