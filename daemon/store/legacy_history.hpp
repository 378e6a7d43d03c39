#pragma once
// The conversion that goes with migration 0007: rows of the column layout
// (module_samples and lane_samples, schema versions 1-6) are packed into
// module_history (kind 3, converted) and deleted, a chunk per transaction, so
// an interrupted conversion resumes where it stopped and never converts a row
// twice. Progress goes to `log`. The emptied tables stay (later migrations may
// still ALTER them).

#include <cstdint>
#include <functional>
#include <string_view>

#include "daemon/store/packed_sample.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "drivers/result.hpp"

namespace opticsd {

// Returns the number of module rows converted.
Result<std::uint64_t> convertLegacyHistory(SqliteDb& db, const MetricCodes& codes,
                                           const std::function<void(std::string_view)>& log,
                                           std::size_t rows_per_transaction = 5000);

}  // namespace opticsd
