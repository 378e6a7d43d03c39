#include "daemon/config/maintenance_list.hpp"

namespace opticsd {

void MaintenanceList::add(const std::string& target, const std::vector<std::string>& ports) {
  Entry& entry = targets_[target];
  if (ports.empty()) entry.all_ports = true;
  entry.ports.insert(ports.begin(), ports.end());
}

bool MaintenanceList::paused(std::string_view target, std::string_view port) const {
  const auto it = targets_.find(target);
  if (it == targets_.end()) return false;
  return it->second.all_ports || it->second.ports.contains(port);
}

void MaintenanceList::apply(std::string_view target, std::vector<Sample>& samples) const {
  if (targets_.empty()) return;
  for (Sample& s : samples) {
    if (!s.maintenance && paused(target, s.port)) s.maintenance = Maintenance{"configured"};
  }
}

MaintenanceList readMaintenanceList(const YAML::Node& list, const std::string& file, std::vector<ConfigIssue>& issues) {
  MaintenanceList out;
  if (!list || list.IsNull()) return out;  // absent: nothing paused
  if (!list.IsSequence()) {
    OptionReader(YAML::Node(), file, "maintenance", issues)
        .error("", "expected a list of {target: NAME, ports: [PORT, ...]}");
    return out;
  }
  for (std::size_t index = 0; index < list.size(); ++index) {
    OptionReader r(list[index], file, "maintenance[" + std::to_string(index) + "]", issues);
    const std::string target = r.requiredString("target");
    std::vector<std::string> ports;
    if (r.has("ports")) {
      ports = r.stringList("ports");
      if (ports.empty()) r.error("ports", "expected one or more port names; leave ports out to pause the whole target");
    }
    r.rejectUnknownKeys();
    if (!target.empty()) out.add(target, ports);
  }
  return out;
}

}  // namespace opticsd
