#pragma once
// Expiry of module_history rows, a bounded step at a time on the writer
// thread between batches:
// - by age: rows older than storage.retention go, module by module through
//   the (module_id, ts_ms) key;
// - by size: when the file nears storage.max_size, the oldest rows of every
//   module go, an hour of history at a time, so the newest writes keep
//   succeeding (the history that matters during an incident is the newest).
// Module identities not seen within the retention go with the age pass.
// Not thread-safe.

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"

namespace opticsd {

class HistoryRetention {
 public:
  struct Step {
    std::uint64_t deleted_rows = 0;
    bool more = false;  // work is left: call again soon
  };

  // Deletes rows older than cutoff_ms of up to `modules` modules in one transaction.
  Result<Step> expireOlderThan(SqliteDb& db, std::int64_t cutoff_ms, std::size_t modules);

  // Deletes, in one transaction, every row within `slice` of the oldest row.
  static Result<Step> expireOldest(SqliteDb& db, std::chrono::milliseconds slice);

 private:
  std::int64_t next_module_ = 0;  // the age pass in progress: modules with a larger id are left
};

}  // namespace opticsd
