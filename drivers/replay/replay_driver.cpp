#include "drivers/replay/replay_driver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <filesystem>

#include "drivers/options/option_reader.hpp"

namespace opticsd::replay {

ReplayDriver::ReplayDriver(std::string target, boost::asio::io_context* io, ReplayDirectory directory,
                           std::optional<std::int64_t> step_interval_ms)
    : target_(std::move(target)), io_(io), directory_(std::move(directory)), step_interval_ms_(step_interval_ms) {}

PollResult ReplayDriver::step(std::int64_t now_ms) {
  PollResult result;
  if (!first_ms_) first_ms_ = now_ms;
  if (const auto t = captureTimeMs(directory_, step_)) {
    // The capture's own times, from the first poll: a replay polled at any
    // interval shows the rules the intervals it was captured with.
    now_ms = *first_ms_ + (*t - captureTimeMs(directory_, 0).value_or(*t));
  } else if (step_interval_ms_) {
    now_ms = *first_ms_ + static_cast<std::int64_t>(step_) * *step_interval_ms_;
  }
  for (const auto& port : directory_.ports) {
    auto reading = readingAt(port, step_);
    if (!reading.module_present && reading.fec.empty() && !reading.link.up) continue;  // an emptied cage
    Sample sample = module::sampleFromReading(target_, now_ms, reading);
    fec_tails_.apply(sample);
    result.samples.push_back(std::move(sample));
  }
  ++step_;
  return result;
}

void ReplayDriver::poll(std::int64_t now_ms, Done done) {
  auto result = step(now_ms);
  if (io_ == nullptr) {
    done(std::move(result));
    return;
  }
  boost::asio::post(*io_, [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
}

namespace {

struct ReplayTarget {
  ReplayDirectory directory;
  std::optional<std::int64_t> step_interval_ms;
};

std::shared_ptr<const DriverConfig> validate(const std::string&, OptionReader& options) {
  const auto directory = options.requiredString("directory");
  std::optional<std::int64_t> step_interval_ms;
  if (auto d = options.optionalDuration("step_interval")) {
    if (*d < std::chrono::seconds(1) || *d > std::chrono::hours(24)) {
      options.error("step_interval", "expected 1s to 24h");
    } else {
      step_interval_ms = d->count();
    }
  }
  if (!options.valid()) return nullptr;
  std::filesystem::path path(directory);
  if (path.is_relative() && !options.file().empty()) {
    path = std::filesystem::path(options.file()).parent_path() / path;  // relative to the config file
  }
  auto loaded = loadReplayDirectory(path);
  if (!loaded) {
    options.error("directory", loaded.error().message);
    return nullptr;
  }
  return makeDriverConfig(ReplayTarget{std::move(*loaded), step_interval_ms});
}

Result<std::unique_ptr<Driver>> create(const DriverContext& context, const ReplayTarget& target) {
  return std::make_unique<ReplayDriver>(context.target_name, &context.io, target.directory, target.step_interval_ms);
}

}  // namespace

const DriverEntry& driverEntry() {
  static constexpr DriverEntry entry{"replay",
                                     "a captured host (opticsd capture) replayed through the ethtool decode path",
                                     &validate,
                                     &createWith<ReplayTarget, &create>,
                                     {}};
  return entry;
}

}  // namespace opticsd::replay
