#include "drivers/registry.hpp"

#include "drivers/ethtool/ethtool_driver.hpp"
#ifdef OPTICSD_WITH_GNMI
#include "drivers/gnmi/gnmi_driver.hpp"
#endif
#include "drivers/replay/replay_driver.hpp"
#include "drivers/sim/sim_driver.hpp"
#include "drivers/snmp/snmp_driver.hpp"

namespace opticsd {
namespace {

constexpr DriverEntry kDrivers[] = {
    {"ethtool", "this Linux host's optical modules, FEC and link state over ethtool netlink", &ethtool::createEthtoolDriver},
#ifdef OPTICSD_WITH_GNMI
    {"gnmi", "switches streaming OpenConfig (or native) telemetry over gNMI, vendor variants as data", &gnmi::createGnmiDriver},
#endif
    {"replay", "a captured host (opticsd capture) replayed through the ethtool decode path", &replay::createReplayDriver},
    {"sim", "simulated fabric with degradation scenarios (demo, tests, load)", &sim::createSimDriver},
    {"snmp", "switches over SNMP v2c/v3, vendor MIB profiles as data", &snmp::createSnmpDriver},
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
