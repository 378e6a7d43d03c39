#pragma once
// Pure timing rules of the scheduler, apart from any clock so they can be
// tested exactly: jitter spreads a fleet's polls, backoff slows down on a
// target that keeps failing and snaps back on the first success.

#include <chrono>
#include <cstdint>

namespace opticsd {

// A delay of base ± fraction·base, picked by `unit` in [0, 1).
std::chrono::milliseconds jitteredDelay(std::chrono::milliseconds base, double fraction, double unit);

// The delay before the next poll after `consecutive_failures` failures in a
// row: the interval while healthy, then interval·2^n capped at max_backoff.
std::chrono::milliseconds backoffDelay(std::chrono::milliseconds interval, std::uint32_t consecutive_failures,
                                       std::chrono::milliseconds max_backoff);

}  // namespace opticsd
