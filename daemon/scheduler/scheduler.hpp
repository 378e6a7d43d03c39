#pragma once
// Polls every target on its own timer on one Boost.Asio io_context.
//
// - A new target's first poll lands at a random point in its interval and
//   every later delay is jittered, so a fleet never polls in lock-step.
// - At most `concurrency` polls are in flight; the rest wait in FIFO order.
// - Each poll has a timeout; a target that keeps failing backs off
//   exponentially and returns to its interval on the first success.
// - The scheduler, not the driver, times every poll and reports it.
//
// Threading: every method, and the report sink, runs on the io_context's
// thread. A slow or dead target never delays another one because drivers
// never block that thread.

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "drivers/driver.hpp"

namespace opticsd {

struct TargetPlan {
  std::string name;
  std::string driver_name;
  std::unique_ptr<Driver> driver;
  std::chrono::milliseconds interval{30'000};
  std::chrono::milliseconds timeout{10'000};
  std::string fingerprint;  // same fingerprint on reload: keep the running driver and its state
};

struct PollReport {
  std::string target;
  std::string driver;
  PollResult result;
  std::int64_t started_ms = 0;  // UNIX ms
  double seconds = 0;
  bool ok = false;  // false: timed out, or errors and no samples
  bool timed_out = false;
  std::uint32_t consecutive_failures = 0;
  std::chrono::milliseconds next_delay{0};
};

class Scheduler {
 public:
  struct Options {
    std::uint32_t concurrency = 64;
    double jitter_fraction = 0.1;
    std::chrono::milliseconds max_backoff{300'000};
    bool single_round = false;  // poll-once: every target once, at once, then on_round_complete
    std::uint64_t seed = std::random_device{}();
  };
  using Sink = std::function<void(PollReport&)>;

  Scheduler(boost::asio::io_context& io, Options options, Sink sink);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Replaces the target set. Targets with an unchanged name and fingerprint
  // keep their driver, timer and failure count; removed ones are cancelled.
  // Returns the names of the targets that were removed.
  std::vector<std::string> setTargets(std::vector<TargetPlan> targets);
  void setOptions(const Options& options);

  // Cancels every timer and in-flight poll; no report is delivered after this.
  void stop();

  void onRoundComplete(std::function<void()> callback) { round_complete_ = std::move(callback); }
  std::size_t targetCount() const { return targets_.size(); }
  std::size_t inFlight() const { return in_flight_; }
  std::size_t maxInFlightSeen() const { return max_in_flight_seen_; }

 private:
  struct TargetState;
  void schedule(const std::shared_ptr<TargetState>& state, std::chrono::milliseconds delay);
  void request(const std::shared_ptr<TargetState>& state);
  void start(const std::shared_ptr<TargetState>& state);
  void finish(const std::shared_ptr<TargetState>& state, std::uint64_t generation, PollResult result, bool timed_out);
  void drainWaiting();
  void retire(const std::shared_ptr<TargetState>& state);
  double unit();

  boost::asio::io_context& io_;
  Options options_;
  Sink sink_;
  std::function<void()> round_complete_;
  std::map<std::string, std::shared_ptr<TargetState>> targets_;
  std::deque<std::weak_ptr<TargetState>> waiting_;
  std::size_t in_flight_ = 0;
  std::size_t max_in_flight_seen_ = 0;
  std::size_t round_remaining_ = 0;
  bool stopped_ = false;
  std::mt19937_64 rng_;
};

}  // namespace opticsd
