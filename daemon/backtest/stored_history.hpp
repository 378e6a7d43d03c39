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

#include "daemon/pipeline/poll_preparation.hpp"
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

// The stored rows of one target at one instant, rebuilt: one poll of the
// target as the rules engine took it live (the daemon stamps every Sample of
// a poll with the poll's start, so they share a row instant). `modules[i]`
// indexes StoredHistory::modules() for `samples[i]`. The Samples and their
// lane buffers are reused for the next poll (no allocation per row).
struct StoredPoll {
  const std::string* target = nullptr;
  std::int64_t ts = 0;
  std::vector<std::uint32_t> modules;
  std::vector<RowKind> kinds;
  std::vector<Sample> samples;
  // What rebuilding found of each Sample: every reading and limit decoded
  // was tested as PollPreparation tests it, so preparation skips the test
  // where it would drop nothing.
  std::vector<PollPreparation::Checked> checked;
};

class StoredHistory {
 public:
  static Result<std::unique_ptr<StoredHistory>> open(const std::filesystem::path& path);
  ~StoredHistory();
  StoredHistory(const StoredHistory&) = delete;
  StoredHistory& operator=(const StoredHistory&) = delete;

  const std::vector<StoredModule>& modules() const { return modules_; }
  int schemaVersion() const { return schema_version_; }  // of the file as found
  // Whether the file records the modules' own thresholds (module_thresholds, schema 9 on).
  bool keepsThresholds() const { return schema_version_ >= 9; }
  bool migratedCopy() const { return !copy_.empty(); }
  // The first and last stored instants; nullopt for a file with no rows.
  std::optional<std::pair<std::int64_t, std::int64_t>> span() const { return span_; }

  // Findings the daemon recorded, raised at or after `since_ms` and before `until_ms`.
  Result<std::vector<Finding>> recordedFindings(std::int64_t since_ms, std::int64_t until_ms);
  // The Tx bias and power baselines the daemon kept (learned_ms says when).
  Result<std::vector<BiasBaseline>> baselines();

  // Calls `visit` for every poll (the rows of one target at one instant)
  // with since_ms <= ts < until_ms, in time order (target order at one
  // instant, module order within a target). The poll is the visitor's to
  // change until it returns.
  Result<void> forEachPoll(std::int64_t since_ms, std::int64_t until_ms, const std::function<void(StoredPoll&)>& visit);

 private:
  struct Identity {
    std::int64_t first_seen_ms = 0;
    CopyOnWrite<ModuleIdentity> identity;
  };
  struct ThresholdTable {
    std::int64_t first_seen_ms = 0;
    CopyOnWrite<ModuleThresholds> table;
    bool plausible = false;  // dropImplausibleThresholds drops nothing of it
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
    // A log10 codec's decodes of 0 down to -(size-1) steps, made once by the
    // codec itself: a BER in every row is a pow() otherwise.
    std::vector<double> log10_decoded;
    double decode(std::int64_t stored) const {
      if (stored <= 0 && -stored < static_cast<std::int64_t>(log10_decoded.size())) {
        return log10_decoded[static_cast<std::size_t>(-stored)];
      }
      return codec.decode(stored);
    }
  };

  StoredHistory() = default;
  Result<void> load();
  // Returns what it found plausible (PollPreparation::Checked), or why `data` is not a readable row.
  Result<PollPreparation::Checked> rebuild(std::uint32_t module, std::int64_t ts, std::string_view data,
                                           Sample& out) const;
  // Resizes the poll's Samples to `n`, parking the surplus (with their buffers) for later polls.
  void resizePoll(StoredPoll& poll, std::size_t n);
  // Where modules_ holds the module of this id (modules_ is by id).
  std::optional<std::size_t> moduleIndex(std::int64_t id) const;
  const Identity* identityAt(std::uint32_t module, std::int64_t ts) const;
  // What rebuilding a row of `module` reads besides the row, asked for ahead
  // (drivers/prefetch.hpp): its lists of identities and limits, then, a row
  // later, once the list is in, the identity it points to.
  void prefetchLists(std::uint32_t module) const;
  void prefetchIdentity(std::uint32_t module) const;
  // The module's own limits at `ts`: the last table recorded since its identity (`since_ms`) began.
  const ThresholdTable* thresholdsAt(std::uint32_t module, std::int64_t ts, std::int64_t since_ms) const;

  std::filesystem::path path_;  // what is read: the file, or the migrated copy
  std::filesystem::path copy_;  // the migrated copy to remove, if any
  SqliteDb db_;
  int schema_version_ = 0;
  std::vector<StoredModule> modules_;
  std::vector<std::uint32_t> target_index_;              // per module: its target's rank among the targets' names
  std::vector<Sample> spare_;                            // Samples resizePoll parked
  std::vector<std::vector<Identity>> identities_;        // per module, by first_seen_ms
  std::vector<std::vector<ThresholdTable>> thresholds_;  // per module, by first_seen_ms (schema 9 on)
  std::vector<Slot> slots_;                              // by key code
  std::optional<std::pair<std::int64_t, std::int64_t>> span_;
};

}  // namespace opticsd
