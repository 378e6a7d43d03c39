#pragma once
// Whether polling still makes progress, for the systemd watchdog: the event
// loop running is not enough (a wedged scheduler on a live loop would be
// petted for ever), so the watchdog is petted only while completed polls keep
// coming. A poll that fails completes too; the limit leaves room for a target
// that backs off to max_backoff, so only a stuck scheduler trips it.
// Not thread-safe: used from the event loop.

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace opticsd {

class PollProgress {
 public:
  using Clock = std::chrono::steady_clock;

  // Longest time a healthy daemon can go without a completed poll: two of the
  // longest waits between polls of one target, plus one poll timeout, plus a minute.
  static std::chrono::milliseconds limitFor(std::chrono::milliseconds longest_interval,
                                            std::chrono::milliseconds max_backoff, std::chrono::milliseconds timeout) {
    return 2 * std::max(longest_interval, max_backoff) + timeout + std::chrono::minutes(1);
  }

  void setLimit(std::chrono::milliseconds limit) { limit_ = limit; }

  // Called periodically with the number of polls completed so far and the
  // number of targets; with no targets there is nothing to wait for.
  void observe(std::uint64_t completed, std::size_t targets, Clock::time_point now) {
    if (completed != completed_ || targets == 0 || since_ == Clock::time_point{}) {
      completed_ = completed;
      since_ = now;
    }
  }

  bool stalled(Clock::time_point now) const { return since_ != Clock::time_point{} && now - since_ > limit_; }
  Clock::duration idleFor(Clock::time_point now) const { return now - since_; }

 private:
  std::chrono::milliseconds limit_{std::chrono::minutes(12)};
  std::uint64_t completed_ = 0;
  Clock::time_point since_{};
};

}  // namespace opticsd
