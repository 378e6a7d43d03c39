#pragma once
// Prometheus HTTP service discovery (http_sd_configs): the JSON list of
// every target this instance polls, one group per target, so a scrape job
// (and hashmod sharding over N Prometheus servers) follows the config
// without being edited. Each group:
//
//   {"targets": ["<host:port the SD request came to>"],
//    "labels": {"__param_target": "leaf-1",
//               "__meta_opticsd_target": "leaf-1", "__meta_opticsd_driver": "sim"}}
//
// `__param_target` makes Prometheus scrape /metrics?target=leaf-1.

#include <string>
#include <string_view>
#include <vector>

namespace opticsd {

struct ServedTarget {
  std::string name;
  std::string driver;
  bool operator==(const ServedTarget&) const = default;
};

std::string serviceDiscoveryJson(const std::vector<ServedTarget>& targets, std::string_view address);

}  // namespace opticsd
