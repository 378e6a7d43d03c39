#pragma once
// FEC counter and link-state sequences for the replay driver: one step per
// poll, one line per step (drivers/replay/README.md has the format):
//
//   # opticsd fec sequence v1
//   corrected_bits=0 corrected_blocks=0 uncorrectable_blocks=0 speed_gbps=100 lanes=4 up=1
//   corrected_bits=2578125 lane_corrected_bits=1000,-,0,2577125 ...
//
// A key left out of a line is "not reported" at that step. Pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd::replay {

struct FecStep {
  FecCounters fec;
  LinkState link;
  // `time_ms=`: when the step was read, in ms from any fixed origin (never
  // decreasing along the file); the replay stamps Samples with it.
  std::optional<std::int64_t> time_ms{};
  // `busy=1`: the kernel refused the module's pages with EBUSY (firmware
  // flashing): the port is in maintenance at this step.
  bool busy = false;
};

// Errors name the line and the key.
Result<std::vector<FecStep>> parseFecSequence(std::string_view text);

// One line (no newline) that parseFecSequence reads back to the same step.
std::string formatFecStep(const FecCounters& fec, const LinkState& link, bool busy = false);

inline constexpr std::string_view kFecSequenceMagic = "# opticsd fec sequence v1";

}  // namespace opticsd::replay
