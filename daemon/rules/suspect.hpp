#pragma once
// A straggler suspect: a module ranked by how close it is to costing packets
// (and so slowing a synchronous training job), with a one-line reason and
// what sits behind its port. Plain value type.

#include <cstdint>
#include <string>

#include "daemon/topology/topology.hpp"

namespace opticsd {

struct Suspect {
  std::string target;
  std::string port;
  double score = 0;  // 0..1
  std::string reason;
  Endpoint endpoint;
  std::int64_t updated_ms = 0;
};

}  // namespace opticsd
