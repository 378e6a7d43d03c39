#pragma once
// Durations as operators write them in Prometheus-style configs: "30s", "5m",
// "1h30m", "250ms", "2d".

#include <chrono>
#include <string>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

Result<std::chrono::milliseconds> parseDuration(std::string_view text);
std::string formatDuration(std::chrono::milliseconds d);

}  // namespace opticsd
