#pragma once
// The table of the drivers this build has (one opticsd_driver(<name>) line
// each in drivers/CMakeLists.txt, switched by OPTICSD_WITH_<NAME>), in name order.

#include <span>
#include <string>
#include <string_view>

#include "drivers/driver.hpp"

namespace opticsd {

std::span<const DriverEntry* const> driverRegistry();
const DriverEntry* findDriver(std::string_view name);

// "ethtool, replay, sim, snmp": for messages naming the valid drivers.
std::string driverNames();

}  // namespace opticsd
