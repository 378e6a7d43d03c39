#pragma once
// A capture through the rules with a virtual clock: every step of a replay
// directory is read, checked and evaluated in turn, as fast as the machine
// can, with Sample times from the capture (fec.seq time_ms=, else
// step_interval_ms) instead of a scheduler's. Rules are exercised
// deterministically: a two-hour window over a capture takes milliseconds.

#include <cstddef>
#include <cstdint>
#include <string>

#include "daemon/rules/rules_engine.hpp"
#include "drivers/replay/replay_directory.hpp"

namespace opticsd {

struct ReplayRun {
  std::size_t steps = 0;
  std::int64_t last_sample_ms = 0;  // the time the last step was stamped with
};

// Runs `steps` steps of `capture` as target `target`, the first stamped
// `first_ms`. Each step goes the daemon's way: implausible values dropped,
// pre-FEC BER derived from the counters, then engine.evaluate().
ReplayRun runReplayThroughRules(replay::ReplayDirectory capture, const std::string& target, std::size_t steps,
                                std::int64_t first_ms, std::int64_t step_interval_ms, RulesEngine& engine);

}  // namespace opticsd
