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
//
// A driver plugs in through a DriverEntry (bottom of this file): validate()
// reads a target's options once into the driver's own typed config (what
// check-config and run share), create() builds the Driver from that config.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace boost::asio {
class io_context;
}

namespace opticsd {

class OptionReader;  // drivers/options/option_reader.hpp

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

// What a driver's validate() makes of one target's options: the driver's own
// typed config (DriverConfigOf<T>), handed unchanged to its create().
class DriverConfig {
 public:
  virtual ~DriverConfig() = default;
};

template <typename T>
class DriverConfigOf final : public DriverConfig {
 public:
  explicit DriverConfigOf(T typed) : value(std::move(typed)) {}
  T value;
};

template <typename T>
std::shared_ptr<const DriverConfig> makeDriverConfig(T value) {
  return std::make_shared<const DriverConfigOf<T>>(std::move(value));
}

// The T inside `config`, or null when `config` belongs to another driver.
template <typename T>
const T* driverConfigAs(const DriverConfig& config) {
  const auto* typed = dynamic_cast<const DriverConfigOf<T>*>(&config);
  return typed != nullptr ? &typed->value : nullptr;
}

// What create() gets besides the config: the target's name, the event loop
// the driver does its I/O on and posts `done` to, and how often the scheduler
// will poll it (its own interval or poll.interval), which a streaming driver
// can ask its source to send at.
struct DriverContext {
  std::string target_name;
  boost::asio::io_context& io;
  std::chrono::milliseconds poll_interval{0};  // 0: not known (tests that create a driver by hand)
};

// DriverEntry::create for a create that takes the driver's own config type:
// `&createWith<MyConfig, &create>`. Another driver's config is an error.
template <typename T, Result<std::unique_ptr<Driver>> (*create_typed)(const DriverContext&, const T&)>
Result<std::unique_ptr<Driver>> createWith(const DriverContext& context, const DriverConfig& config) {
  const T* typed = driverConfigAs<T>(config);
  if (typed == nullptr) return fail("target=" + context.target_name + " was given another driver's config");
  return create_typed(context, *typed);
}

// One driver as the registry lists it. Each driver folder defines
// `const DriverEntry& opticsd::<name>::driverEntry()`; drivers/CMakeLists.txt
// registers the folder with one opticsd_driver(<name>) line.
struct DriverEntry {
  std::string_view name;
  std::string_view summary;
  // Reads and checks the target's own keys; the caller reads the common ones
  // (name, driver, interval, timeout, export) and rejects unknown keys. Opens
  // and starts nothing. Null when the options are invalid, every problem
  // reported in `options`.
  std::shared_ptr<const DriverConfig> (*validate)(const std::string& target_name, OptionReader& options);
  // Builds a driver from what this entry's validate() returned.
  Result<std::unique_ptr<Driver>> (*create)(const DriverContext& context, const DriverConfig& config);
  // Option keys that hold secrets, each also accepted as `<key>_file`: the
  // service warns when such a file, or a config holding one inline, is
  // readable by other users.
  std::span<const std::string_view> secret_keys;
};

}  // namespace opticsd
