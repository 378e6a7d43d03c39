#pragma once
// The `sim` driver: one target is one simulated switch (see sim_options.hpp
// for its options and sim_switch.hpp for the model).
//
// poll() computes every port's Sample synchronously (a few microseconds per
// module) and hands them to `done` through the io_context, never from inside
// poll(). Owned and called on the scheduler's thread.

#include <span>
#include <string_view>

#include "drivers/driver.hpp"

namespace opticsd::sim {

// validate: sim_options.hpp's keys into a SimSwitchConfig; create: a SimDriver.
const DriverEntry& driverEntry();

// The valid values of a scenario's `scenario:` key.
std::span<const std::string_view> validScenarioNames();

}  // namespace opticsd::sim
