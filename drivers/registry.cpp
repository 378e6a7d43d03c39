#include "drivers/registry.hpp"

#include "drivers/sim/sim_driver.hpp"

namespace opticsd {
namespace {

constexpr DriverEntry kDrivers[] = {
    {"sim", "simulated fabric with degradation scenarios (demo, tests, load)", &sim::createSimDriver},
};

}  // namespace

std::span<const DriverEntry> driverRegistry() { return kDrivers; }

const DriverEntry* findDriver(std::string_view name) {
  for (const auto& entry : kDrivers) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace opticsd
