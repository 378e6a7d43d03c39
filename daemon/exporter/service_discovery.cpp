#include "daemon/exporter/service_discovery.hpp"

#include <nlohmann/json.hpp>

namespace opticsd {

std::string serviceDiscoveryJson(const std::vector<ServedTarget>& targets, std::string_view address) {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& t : targets) {
    groups.push_back(
        {{"targets", {std::string(address)}},
         {"labels",
          {{"__param_target", t.name}, {"__meta_opticsd_target", t.name}, {"__meta_opticsd_driver", t.driver}}}});
  }
  // Replace, not throw, on bytes that are not UTF-8: a target name is operator text.
  return groups.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace opticsd
