#pragma once
// HistoryDownsampler: the history's resolution by age. Recent rows keep the
// ingest resolution (storage.sample_interval, every state change); rows older
// than a tier's `after` keep one row per module per tier `interval` (the
// first of each interval), and their lanes with them. At 10,000 modules a
// 10 s history is about 70 M lane rows a day; thinned to 5 min after two days
// it is 30 times smaller, which is what makes two weeks fit on a management
// host. Flaps and swaps older than a tier live on in the findings table.
//
// Work is done a slice at a time (some modules of one tier per step) on the
// store's writer thread, between write batches, through the (module_id,
// ts_ms) key of module_history. Rows kept around a finding are never thinned.
// Progress is kept in the store_progress table, committed with each step, so
// a restart resumes where the last step stopped. Not thread-safe.

#include <chrono>
#include <cstdint>
#include <vector>

#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/store_options.hpp"
#include "drivers/result.hpp"

namespace opticsd {

class HistoryDownsampler {
 public:
  // Tiers in order of `after`, intervals growing (the config checks it).
  explicit HistoryDownsampler(std::vector<DownsampleTier> tiers);

  struct Step {
    std::uint64_t deleted_rows = 0;
    bool more = false;  // work is left: call again soon
  };
  // Thins up to `modules` modules of the first tier with work to do, in one
  // transaction on `db`.
  Result<Step> step(SqliteDb& db, std::int64_t now_ms, std::size_t modules);

 private:
  struct Progress {
    std::int64_t done_until_ms = 0;  // rows before this are thinned
    std::int64_t from_ms = 0;        // the pass in progress: [from_ms, to_ms)
    std::int64_t to_ms = 0;          // 0: no pass in progress
    std::int64_t next_module = 0;    // modules with a larger id are left in this pass
    bool loaded = false;             // read from store_progress
  };
  static Result<Progress> loadProgress(SqliteDb& db, const std::string& name);
  static Result<void> saveProgress(SqliteDb& db, const std::string& name, const Progress& p);
  std::vector<DownsampleTier> tiers_;
  std::vector<Progress> progress_;
};

}  // namespace opticsd
