#include "drivers/options/duration.hpp"

#include <cctype>
#include <cstdint>
#include <limits>

namespace opticsd {
namespace {

struct UnitScale {
  std::string_view suffix;
  std::int64_t ms;
};
// Longest suffix first so "ms" is not read as "m" followed by garbage.
constexpr UnitScale kUnits[] = {{"ms", 1},        {"s", 1000},       {"m", 60'000},
                                {"h", 3'600'000}, {"d", 86'400'000}, {"w", 604'800'000}};

}  // namespace

Result<std::chrono::milliseconds> parseDuration(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  if (text.empty()) return fail("empty duration (expected e.g. 30s, 5m, 1h30m)");
  std::int64_t total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      return fail("invalid duration " + quoted + " (expected a number followed by ms, s, m, h, d or w, e.g. 30s)");
    }
    std::int64_t number = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (number > (std::numeric_limits<std::int64_t>::max() - 9) / 10)
        return fail("duration " + quoted + " is too large");
      number = number * 10 + (text[i] - '0');
      ++i;
    }
    const UnitScale* unit = nullptr;
    for (const auto& u : kUnits) {
      if (text.substr(i, u.suffix.size()) == u.suffix) {
        unit = &u;
        break;
      }
    }
    if (unit == nullptr)
      return fail("invalid duration " + quoted + " (missing or unknown unit; use ms, s, m, h, d or w)");
    i += unit->suffix.size();
    if (number > (std::numeric_limits<std::int64_t>::max() - total) / unit->ms)
      return fail("duration " + quoted + " is too large");
    total += number * unit->ms;
  }
  return std::chrono::milliseconds(total);
}

std::string formatDuration(std::chrono::milliseconds d) {
  std::int64_t ms = d.count();
  if (ms == 0) return "0s";
  std::string out;
  // Largest unit first; weeks are skipped because days read better in messages.
  for (std::size_t i = std::size(kUnits) - 1; i-- > 0;) {
    const UnitScale& u = kUnits[i];
    if (ms >= u.ms) {
      out += std::to_string(ms / u.ms) + std::string(u.suffix);
      ms %= u.ms;
    }
  }
  return out;
}

}  // namespace opticsd
