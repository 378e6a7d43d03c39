#include "drivers/ethtool/interface_selector.hpp"

#include <fnmatch.h>
#include <net/if.h>

#include <algorithm>

namespace opticsd::ethtool {
namespace {
bool isGlob(const std::string& pattern) { return pattern.find_first_of("*?[") != std::string::npos; }
}  // namespace

InterfaceSelection selectInterfaces(const std::vector<std::string>& available,
                                    const std::vector<std::string>& patterns) {
  InterfaceSelection result;
  const bool all = patterns.empty() || std::find(patterns.begin(), patterns.end(), "all") != patterns.end();
  for (const auto& name : available) {
    const bool match = all || std::any_of(patterns.begin(), patterns.end(), [&](const std::string& pattern) {
                         return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
                       });
    if (match) result.selected.push_back(name);
  }
  if (!all) {
    for (const auto& pattern : patterns) {
      if (!isGlob(pattern) && std::find(available.begin(), available.end(), pattern) == available.end()) {
        result.missing.push_back(pattern);
      }
    }
  }
  return result;
}

std::vector<std::string> systemInterfaces() {
  std::vector<std::string> names;
  struct if_nameindex* list = ::if_nameindex();
  if (list == nullptr) return names;
  for (auto* entry = list; entry->if_index != 0 && entry->if_name != nullptr; ++entry)
    names.emplace_back(entry->if_name);
  ::if_freenameindex(list);
  return names;
}

}  // namespace opticsd::ethtool
