#include "daemon/store/value_codec.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "drivers/sample.hpp"

namespace opticsd {
namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isFlag(std::string_view key) {
  if (key == "present" || key == "link_up" || key == "maintenance") return true;
  return std::any_of(kLaneFlagInfo.begin(), kLaneFlagInfo.end(), [key](const auto& flag) { return flag.key == key; });
}

std::int64_t clampToInt64(double v) {
  constexpr double kMax = 9.2e18;  // inside int64, and exactly representable
  return static_cast<std::int64_t>(std::llround(std::clamp(v, -kMax, kMax)));
}

}  // namespace

ValueCodec codecFor(std::string_view key) {
  if (isFlag(key)) return {ValueKind::kFlag, 1};
  if (endsWith(key, "_total") || endsWith(key, "_symbols") || key == "data_path_state" ||
      key == "link_down_reason_code") {
    return {ValueKind::kInteger, 1};
  }
  if (endsWith(key, "_ratio") &&
      (key.find("ber") != std::string_view::npos || key.find("errored_frames") != std::string_view::npos)) {
    return {ValueKind::kLog10, 100};
  }
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"_dbm", 100},          {"_decibels", 100}, {"_celsius", 256}, {"_volts", 10'000},
      {"_milliamperes", 500}, {"_percent", 100},  {"_gbps", 1000},   {"_ratio", 10'000},
  };
  for (const auto& [suffix, steps] : kUnits) {
    if (endsWith(key, suffix)) return {ValueKind::kFixed, steps};
  }
  return {ValueKind::kFixed, 1000};
}

std::optional<std::int64_t> ValueCodec::encode(double value) const {
  if (!std::isfinite(value)) return std::nullopt;
  switch (kind) {
    case ValueKind::kFlag:
      return value != 0 ? 1 : 0;
    case ValueKind::kInteger:
      return clampToInt64(value);
    case ValueKind::kLog10:
      // 0 is its own code; a positive ratio is 1 + its log10 in steps (zigzag-free: never 0).
      if (value <= 0) return 0;
      {
        const std::int64_t steps = clampToInt64(std::log10(value) * steps_per_unit);
        return steps >= 0 ? steps + 1 : steps;
      }
    case ValueKind::kFixed:
      return clampToInt64(value * steps_per_unit);
  }
  return std::nullopt;
}

}  // namespace opticsd
