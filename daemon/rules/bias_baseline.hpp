#pragma once
// A module's own baselines per lane, the mean of its first polls: Tx bias,
// and Rx and Tx power. Kept in the findings store so that a restarted daemon
// compares against what the module drew and received when it was first seen,
// not against an already drifted value, and a permanent loss is not
// forgotten. Tied to the module's serial: a swapped module learns its own.
// Plain value type.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opticsd {

struct BiasBaseline {
  std::string target;
  std::string port;
  std::string serial;
  std::int64_t learned_ms = 0;
  std::vector<double> lanes_ma;  // index 0 = lane 1; 0: no baseline for that lane
  // Same indexing; absent: no baseline for that lane (dark while learned, or
  // stored by a version that did not keep them).
  std::vector<std::optional<double>> lanes_rx_dbm;
  std::vector<std::optional<double>> lanes_tx_dbm;
};

}  // namespace opticsd
