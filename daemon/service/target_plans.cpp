#include "daemon/service/target_plans.hpp"

#include "drivers/registry.hpp"

namespace opticsd {

std::vector<TargetPlan> buildTargetPlans(const Config& config, boost::asio::io_context& io,
                                         std::vector<std::string>& errors) {
  std::vector<TargetPlan> plans;
  for (const TargetConfig* target : config.targetsForThisShard()) {
    const DriverEntry* entry = findDriver(target->driver);
    if (entry == nullptr || target->driver_config == nullptr) {
      errors.push_back("target " + target->name + ": unknown driver '" + target->driver + "'");
      continue;
    }
    const auto interval = target->interval.value_or(config.poll.interval);
    // From the options the config loader validated: nothing is parsed again.
    auto driver = entry->create(DriverContext{target->name, io, interval}, *target->driver_config);
    if (!driver) {
      errors.push_back("target " + target->name + ": driver could not be created; " + driver.error().message);
      continue;
    }
    TargetPlan plan;
    plan.name = target->name;
    plan.driver_name = target->driver;
    plan.driver = std::move(*driver);
    plan.interval = interval;
    plan.timeout = target->timeout.value_or(config.poll.timeout);
    plan.fingerprint = YAML::Dump(target->options) + "|" + std::to_string(plan.interval.count()) + "|" +
                       std::to_string(plan.timeout.count());
    plans.push_back(std::move(plan));
  }
  return plans;
}

Scheduler::Options schedulerOptions(const Config& config) {
  Scheduler::Options options;
  options.concurrency = config.poll.concurrency;
  options.jitter_fraction = config.poll.jitter_fraction;
  options.max_backoff = config.poll.max_backoff;
  return options;
}

}  // namespace opticsd
