#pragma once
// Turns a loaded Config into what the scheduler runs: one driver per target
// of this shard, with the config's poll settings.

#include <boost/asio/io_context.hpp>

#include "daemon/config/config.hpp"
#include "daemon/scheduler/scheduler.hpp"

namespace opticsd {

// Drivers for this shard's targets. A target whose driver cannot be created
// (its options were validated at load, so this is rare) is left out and
// named in `errors`; the others still run.
std::vector<TargetPlan> buildTargetPlans(const Config& config, boost::asio::io_context& io,
                                         std::vector<std::string>& errors);

Scheduler::Options schedulerOptions(const Config& config);

}  // namespace opticsd
