#pragma once
// Sizes as operators write them: "500MB", "20GiB", "1TB", "4096" (bytes).
// Decimal (kB/KB, MB, GB, TB: powers of 1000) and binary (KiB, MiB, GiB,
// TiB: powers of 1024) units, as df and systemd print them.

#include <cstdint>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

Result<std::uint64_t> parseByteSize(std::string_view text);

}  // namespace opticsd
