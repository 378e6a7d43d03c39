#pragma once
// The replay driver: serves a captured host (a replay directory, see
// replay_directory.hpp) through the same page-read and decode path as the
// live ethtool driver, one step of every sequence per poll. It is how tests,
// demos and bug reports reproduce a host.
//
// Target options:
//   directory: /path/to/capture   (required)
//   step_interval: 30s            (optional) the capture's own poll interval:
//     Samples are stamped first-poll-time + step x step_interval, not with the
//     scheduler's clock, so a capture polled every second exercises a 30-minute
//     trend window in a minute, deterministically.
//   fec.seq lines with time_ms= (README.md): each step's own capture time,
//     which wins over step_interval.
//
// Threads: created, polled and destroyed on the io_context thread; `done`
// is posted to the io_context (never called from inside poll()).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "drivers/driver.hpp"
#include "drivers/fec_tail.hpp"
#include "drivers/replay/replay_directory.hpp"

namespace opticsd::replay {

class ReplayDriver : public Driver {
 public:
  // `io` null: poll() answers synchronously (tests, validation).
  // `step_interval_ms` set: Sample times from the capture (see above).
  ReplayDriver(std::string target, boost::asio::io_context* io, ReplayDirectory directory,
               std::optional<std::int64_t> step_interval_ms = std::nullopt);

  void poll(std::int64_t now_ms, Done done) override;

  // The Samples of the next step, synchronously (what poll() delivers).
  PollResult step(std::int64_t now_ms);
  std::size_t stepsTaken() const { return step_; }

 private:
  std::string target_;
  boost::asio::io_context* io_;
  ReplayDirectory directory_;
  std::size_t step_ = 0;
  FecTailTracker fec_tails_;  // the tail of each step from the one before
  std::optional<std::int64_t> step_interval_ms_;
  std::optional<std::int64_t> first_ms_;  // the first poll's time, with step_interval
};

// validate: reads `directory` (the whole capture, so check-config sees a bad
// one) and `step_interval`; create: a ReplayDriver over that capture.
const DriverEntry& driverEntry();

}  // namespace opticsd::replay
