#include "drivers/sim/sim_driver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <memory>
#include <optional>
#include <utility>

#include "drivers/fec_tail.hpp"
#include "drivers/sim/sim_options.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {
namespace {

constexpr std::int64_t kDefaultWindowMs = 30'000;  // poll.interval's default

class SimDriver final : public Driver {
 public:
  SimDriver(boost::asio::io_context& io, SimSwitchConfig config, std::chrono::milliseconds interval)
      : io_(io), config_(std::move(config)), interval_ms_(interval.count() > 0 ? interval.count() : kDefaultWindowMs) {}

  void poll(std::int64_t now_ms, Done done) override {
    PollResult result;
    if (!switch_) {
      // The sim epoch is fixed by the first poll unless the config pins it.
      auto created = SimSwitch::create(config_, config_.epoch_ms.value_or(now_ms));
      if (created) {
        switch_.emplace(std::move(*created));
        // The simulated past exists (counters integrate from each link's
        // uptime): the first poll's FEC tail is the window one interval back.
        std::vector<Sample> before;
        switch_->sampleAll(now_ms - interval_ms_, before);
        for (Sample& s : before) fec_tails_.apply(s);
      } else {
        result.errors.push_back(created.error().message);
      }
    }
    if (switch_) switch_->sampleAll(now_ms, result.samples);
    for (Sample& s : result.samples) fec_tails_.apply(s);
    // One token per poll: cancel() or destruction silences the handler in
    // flight without touching `this` from it.
    cancelled_ = std::make_shared<bool>(false);
    boost::asio::post(io_, [cancelled = cancelled_, done = std::move(done), result = std::move(result)]() mutable {
      if (!*cancelled) done(std::move(result));
    });
  }

  void cancel() override { *cancelled_ = true; }
  ~SimDriver() override { *cancelled_ = true; }

 private:
  boost::asio::io_context& io_;
  SimSwitchConfig config_;
  std::optional<SimSwitch> switch_;
  std::int64_t interval_ms_;
  FecTailTracker fec_tails_;  // the switch is stateless: the window's tail is the driver's
  std::shared_ptr<bool> cancelled_ = std::make_shared<bool>(false);
};

std::shared_ptr<const DriverConfig> validate(const std::string& target_name, OptionReader& options) {
  auto config = readSimOptions(target_name, options);
  if (!config) return nullptr;
  return makeDriverConfig(std::move(*config));
}

Result<std::unique_ptr<Driver>> create(const DriverContext& context, const SimSwitchConfig& config) {
  return std::make_unique<SimDriver>(context.io, config, context.poll_interval);
}

}  // namespace

const DriverEntry& driverEntry() {
  static constexpr DriverEntry entry{"sim",
                                     "simulated fabric with degradation scenarios (demo, tests, load)",
                                     &validate,
                                     &createWith<SimSwitchConfig, &create>,
                                     {}};
  return entry;
}

std::span<const std::string_view> validScenarioNames() { return scenarioNames(); }

}  // namespace opticsd::sim
