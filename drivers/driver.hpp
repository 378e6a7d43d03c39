#pragma once
// The Driver contract: how opticsd reaches one target and turns what comes
// back into Samples.
//
// Threading: a Driver is created, polled and destroyed on the scheduler's
// io_context thread. poll() must return without blocking; the driver does
// its I/O asynchronously on the same io_context (or hands blocking work to a
// thread of its own) and calls `done` exactly once, on the io_context thread.
// The scheduler, not the driver, times every poll and records its success,
// so drivers only report what they saw.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "drivers/sample.hpp"

namespace boost::asio {
class io_context;
}

namespace opticsd {

// A neighbour a target reported on one of its ports (LLDP), for topology.
struct LinkNeighbor {
  std::string port;           // our port, as in Sample::port
  std::string remote_system;  // LLDP system name of the far end (a host or switch)
  std::string remote_port;    // LLDP port id or description at the far end
};

struct PollResult {
  std::vector<Sample> samples;
  std::vector<LinkNeighbor> neighbors;  // only from drivers that discover topology
  // Empty on success. A poll may return samples and errors together: one bad
  // port never discards the good ones.
  std::vector<std::string> errors;
  bool failed() const { return samples.empty() && !errors.empty(); }
};

class Driver {
 public:
  using Done = std::function<void(PollResult)>;
  virtual ~Driver() = default;

  // Starts one poll. `now_ms` is the scheduler's UNIX time in milliseconds,
  // which deterministic drivers (sim, replay) use as their clock.
  virtual void poll(std::int64_t now_ms, Done done) = 0;

  // The scheduler gave up on the poll in flight (timeout or shutdown). The
  // driver stops its work; a later call of `done` is ignored by the caller.
  virtual void cancel() {}
};

}  // namespace opticsd
