#pragma once
// `maintenance:`: targets, or ports of a target, paused on purpose (a
// planned firmware upgrade, a module swap, a cabling job). Their polls go on
// and are exported, each module marked in maintenance
// (`opticsd_module_maintenance{reason="configured"}`); the rules engine
// leaves them alone, so nothing alerts. Reloaded with the config (SIGHUP).
//
//   maintenance:
//     - target: leaf-3                       # every port of leaf-3
//     - {target: gpu-node-017, ports: [enp65s0f0np0, enp65s0f1np1]}
//
// Value type; immutable once loaded.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/options/option_reader.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class MaintenanceList {
 public:
  // `ports` empty: the whole target.
  void add(const std::string& target, const std::vector<std::string>& ports);
  bool paused(std::string_view target, std::string_view port) const;
  // Marks the Samples of paused ports (Sample::maintenance "configured"),
  // leaving a reason the module gave itself (firmware flashing) as it is.
  void apply(std::string_view target, std::vector<Sample>& samples) const;
  bool empty() const { return targets_.empty(); }
  bool operator==(const MaintenanceList&) const = default;

 private:
  struct Entry {
    bool all_ports = false;
    std::set<std::string, std::less<>> ports;
    bool operator==(const Entry&) const = default;
  };
  std::map<std::string, Entry, std::less<>> targets_;
};

// Reads the `maintenance:` list; problems go to `issues`, naming the item.
MaintenanceList readMaintenanceList(const YAML::Node& list, const std::string& file, std::vector<ConfigIssue>& issues);

}  // namespace opticsd
