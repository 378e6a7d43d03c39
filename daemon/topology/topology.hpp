#pragma once
// What sits behind each switch port: (target, port) -> (host, NIC, GPU, rail),
// and the far end of the link when it is itself monitored, from the config
// (inline or a file) merged with LLDP neighbours the drivers discover.
//
//   topology:
//     file: fabric-topology.yaml      # relative to the config file; holds {links: [...]} or a list
//     links:
//       - {switch: leaf-1, port: Ethernet1, host: gpu-node-1, nic: nic0, gpu: "0", rail: "1"}
//       - {switch: leaf-1, ports: Ethernet1-32, host: "gpu-node-{n}", nic: nic0, gpu: "0", rail: "1"}
//       - {switch: leaf-1, port: Ethernet33, peer_switch: spine-1, peer_port: Ethernet1}
//
// `ports: <prefix>A-B` expands to <prefix>A .. <prefix>B, and {n} in any value
// becomes the port number. Configured fields win over LLDP; LLDP fills what
// the config leaves empty (host from the system name, NIC from the port id),
// and names the peer when the far end is a monitored target.
//
// Not thread-safe: built at config load, then used and updated (LLDP) on the
// polling thread only.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "drivers/driver.hpp"
#include "drivers/options/option_reader.hpp"

namespace opticsd {

struct Endpoint {
  std::string host;
  std::string nic;
  std::string gpu;
  std::string rail;
  std::string peer_target;  // the far end, when it is a monitored switch or host
  std::string peer_port;
  bool from_lldp = false;  // some field came from LLDP

  bool empty() const { return host.empty() && nic.empty() && gpu.empty() && rail.empty() && peer_target.empty(); }
  // "host=gpu-node-3 nic=nic1 gpu=1 rail=2" (empty fields left out).
  std::string describe() const;
};

class Topology {
 public:
  void add(const std::string& target, const std::string& port, Endpoint endpoint);
  // A reload: takes `other`'s configured entries, keeps the LLDP neighbours seen so far.
  void replaceConfigured(Topology other);

  // Replaces the LLDP neighbours one target reported.
  void setNeighbors(const std::string& target, const std::vector<LinkNeighbor>& neighbors);

  // The merged view of one port; nullopt when nothing is known.
  std::optional<Endpoint> find(std::string_view target, std::string_view port) const;

  std::size_t configured() const { return configured_count_; }
  std::size_t discovered() const;
  bool hasPeers() const { return configured_peers_ > 0 || discovered_peers_ > 0; }
  // Changes whenever the merged view may have changed (for caches).
  std::uint64_t generation() const { return generation_; }

 private:
  std::map<std::string, std::map<std::string, Endpoint, std::less<>>, std::less<>> configured_;
  std::size_t configured_count_ = 0;
  std::map<std::string, std::map<std::string, LinkNeighbor, std::less<>>, std::less<>> lldp_;
  std::size_t configured_peers_ = 0;
  std::size_t discovered_peers_ = 0;
  std::uint64_t generation_ = 0;
};

// Reads the `topology:` section (null: empty). Problems go to `issues` with
// file, line and key; the result is meaningful only when none were added.
Topology parseTopology(const YAML::Node& node, const std::string& file, std::vector<ConfigIssue>& issues);

}  // namespace opticsd
