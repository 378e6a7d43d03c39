#pragma once
// The history file as the backtest reads it: every stored row of every
// module, in time order, rebuilt into a Sample as the store defines it
// (daemon/store/README.md): the values at the row's register resolution, the
// module's identity at that instant (module_identities), absent what was not
// reported. Between two rows a module's values are those of the first within
// the deadband: no row is invented.
//
// Read-only: the file is never written. A file of an older schema is copied
// (VACUUM INTO) to a temporary file, migrated and converted there, and the
// copy removed when this object goes.
//
// Not thread-safe: one reader per replay.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rules/bias_baseline.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/store/packed_sample.hpp"
#include "daemon/store/sample_rows.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

struct StoredModule {
  std::int64_t id = 0;
  std::string target;
  std::string port;
};

// One stored row, rebuilt. `module` indexes StoredHistory::modules().
// `poll` holds the one Sample, as the rules engine takes a poll; it is
// reused for the next row (no allocation per row).
struct StoredRow {
  std::uint32_t module = 0;
  RowKind kind = RowKind::kChange;
  std::vector<Sample> poll = std::vector<Sample>(1);
  Sample& sample() { return poll.front(); }
};

class StoredHistory {
 public:
  static Result<std::unique_ptr<StoredHistory>> open(const std::filesystem::path& path);
  ~StoredHistory();
  StoredHistory(const StoredHistory&) = delete;
  StoredHistory& operator=(const StoredHistory&) = delete;

  const std::vector<StoredModule>& modules() const { return modules_; }
  int schemaVersion() const { return schema_version_; }  // of the file as found
  bool migratedCopy() const { return !copy_.empty(); }
  // The first and last stored instants; nullopt for a file with no rows.
  std::optional<std::pair<std::int64_t, std::int64_t>> span() const { return span_; }

  // Findings the daemon recorded, raised at or after `since_ms` and before `until_ms`.
  Result<std::vector<Finding>> recordedFindings(std::int64_t since_ms, std::int64_t until_ms);
  // The Tx bias and power baselines the daemon kept (learned_ms says when).
  Result<std::vector<BiasBaseline>> baselines();

  // Calls `visit` for every row with since_ms <= ts < until_ms, in time order
  // (module order at one instant). The row is the visitor's to change until it returns.
  Result<void> forEachRow(std::int64_t since_ms, std::int64_t until_ms, const std::function<void(StoredRow&)>& visit);

 private:
  struct Identity {
    std::int64_t first_seen_ms = 0;
    CopyOnWrite<ModuleIdentity> identity;
  };
  // What a key code fills in a Sample.
  struct Slot {
    enum Kind : std::uint8_t {
      kUnknown,
      kPresent,
      kMetric,  // module metric at lane 0, lane metric otherwise
      kLaneFlag,
      kDataPathState,
      kCorrectedBlocks,
      kUncorrectable,
      kCorrectedBits,
      kLinkUp,
      kLinkDownEvents,
      kLinkSpeed
    } kind = kUnknown;
    std::optional<ModuleMetric> module_metric;
    std::optional<LaneMetric> lane_metric;
    std::size_t flag = 0;  // kLaneFlagInfo index
    ValueCodec codec;
  };

  StoredHistory() = default;
  Result<void> load();
  void rebuild(std::uint32_t module, std::int64_t ts, const PackedValues& values, Sample& out) const;
  const CopyOnWrite<ModuleIdentity>* identityAt(std::uint32_t module, std::int64_t ts) const;

  std::filesystem::path path_;  // what is read: the file, or the migrated copy
  std::filesystem::path copy_;  // the migrated copy to remove, if any
  SqliteDb db_;
  int schema_version_ = 0;
  std::vector<StoredModule> modules_;
  std::vector<std::vector<Identity>> identities_;  // per module, by first_seen_ms
  std::vector<Slot> slots_;                        // by key code
  std::optional<std::pair<std::int64_t, std::int64_t>> span_;
};

}  // namespace opticsd
