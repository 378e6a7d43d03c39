#pragma once
// Which interfaces a target polls: `interfaces: [eth2, eth3]`, glob patterns
// (`enp*s0f*`), or all (no list, or the word "all"). Pure.

#include <string>
#include <vector>

namespace opticsd::ethtool {

struct InterfaceSelection {
  std::vector<std::string> selected;  // in the order the system lists them
  std::vector<std::string> missing;   // explicit names (no glob characters) the system does not have
};

InterfaceSelection selectInterfaces(const std::vector<std::string>& available,
                                    const std::vector<std::string>& patterns);

// The interfaces of this network namespace, in ifindex order (if_nameindex).
std::vector<std::string> systemInterfaces();

}  // namespace opticsd::ethtool
