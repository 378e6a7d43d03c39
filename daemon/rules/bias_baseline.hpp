#pragma once
// A module's own Tx bias baseline (the mean of its first polls), kept in the
// findings store so that a restarted daemon compares against what the module
// drew when it was first seen, not against an already drifted value. Tied to
// the module's serial: a swapped module learns its own. Plain value type.

#include <cstdint>
#include <string>
#include <vector>

namespace opticsd {

struct BiasBaseline {
  std::string target;
  std::string port;
  std::string serial;
  std::int64_t learned_ms = 0;
  std::vector<double> lanes_ma;  // index 0 = lane 1; 0: no baseline for that lane
};

}  // namespace opticsd
