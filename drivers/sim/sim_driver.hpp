#pragma once
// The `sim` driver: one target is one simulated switch (see sim_options.hpp
// for its options and sim_switch.hpp for the model).
//
// poll() computes every port's Sample synchronously (a few microseconds per
// module) and hands them to `done` through the io_context, or directly when
// there is none. Owned and called on the scheduler's thread.

#include <memory>
#include <span>
#include <string_view>

#include "drivers/registry.hpp"

namespace opticsd::sim {

// With context.io == nullptr only validates the options and returns null.
std::unique_ptr<Driver> createSimDriver(const DriverContext& context, OptionReader& options);

// The valid values of a scenario's `scenario:` key.
std::span<const std::string_view> validScenarioNames();

}  // namespace opticsd::sim
