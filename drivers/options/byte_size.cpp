#include "drivers/options/byte_size.hpp"

#include <cctype>
#include <limits>
#include <string>

namespace opticsd {
namespace {

struct SizeUnit {
  std::string_view suffix;
  std::uint64_t bytes;
};
constexpr SizeUnit kUnits[] = {
    {"", 1},
    {"B", 1},
    {"kB", 1000},
    {"KB", 1000},
    {"MB", 1000ULL * 1000},
    {"GB", 1000ULL * 1000 * 1000},
    {"TB", 1000ULL * 1000 * 1000 * 1000},
    {"KiB", 1ULL << 10},
    {"MiB", 1ULL << 20},
    {"GiB", 1ULL << 30},
    {"TiB", 1ULL << 40},
};

}  // namespace

Result<std::uint64_t> parseByteSize(std::string_view text) {
  const std::string quoted = "'" + std::string(text) + "'";
  const auto expected = " (expected a number and an optional unit: B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)";
  std::size_t i = 0;
  std::uint64_t number = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (number > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return fail("size " + quoted + " is too large");
    number = number * 10 + static_cast<std::uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return fail("invalid size " + quoted + expected);
  std::string_view suffix = text.substr(i);
  while (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
  for (const auto& unit : kUnits) {
    if (suffix != unit.suffix) continue;
    if (number > std::numeric_limits<std::uint64_t>::max() / unit.bytes)
      return fail("size " + quoted + " is too large");
    return number * unit.bytes;
  }
  return fail("invalid size " + quoted + expected);
}

}  // namespace opticsd
