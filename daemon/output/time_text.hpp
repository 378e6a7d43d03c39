#pragma once
// Timestamps as people type and read them in `opticsd history`: RFC 3339 in
// UTC with milliseconds, and bounds given either as RFC 3339 or as a duration
// back from now ("1h" = one hour ago).

#include <cstdint>
#include <string>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

// UNIX ms to "2024-05-01T12:00:00.123Z".
std::string formatRfc3339Ms(std::int64_t unix_ms);

// "2024-05-01T12:00:00Z", "2024-05-01T12:00:00.5+02:00", "2024-05-01 12:00:00Z" to UNIX ms.
Result<std::int64_t> parseRfc3339(std::string_view text);

// RFC 3339, or a duration (drivers/options/duration.hpp) meaning that long before now_ms, or "now".
Result<std::int64_t> parseTimeBound(std::string_view text, std::int64_t now_ms);

}  // namespace opticsd
