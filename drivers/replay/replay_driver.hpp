#pragma once
// The replay driver: serves a captured host (a replay directory, see
// replay_directory.hpp) through the same page-read and decode path as the
// live ethtool driver, one step of every sequence per poll. It is how tests,
// demos and bug reports reproduce a host.
//
// Target options:
//   directory: /path/to/capture   (required)
//
// Threads: created, polled and destroyed on the io_context thread; `done`
// is posted to the io_context (never called from inside poll()).

#include <cstddef>
#include <memory>
#include <string>

#include "drivers/driver.hpp"
#include "drivers/options/option_reader.hpp"
#include "drivers/registry.hpp"
#include "drivers/replay/replay_directory.hpp"

namespace opticsd::replay {

class ReplayDriver : public Driver {
 public:
  // `io` null: poll() answers synchronously (tests, validation).
  ReplayDriver(std::string target, boost::asio::io_context* io, ReplayDirectory directory);

  void poll(std::int64_t now_ms, Done done) override;

  // The Samples of the next step, synchronously (what poll() delivers).
  PollResult step(std::int64_t now_ms);
  std::size_t stepsTaken() const { return step_; }

 private:
  std::string target_;
  boost::asio::io_context* io_;
  ReplayDirectory directory_;
  std::size_t step_ = 0;
};

std::unique_ptr<Driver> createReplayDriver(const DriverContext& context, OptionReader& options);

}  // namespace opticsd::replay
