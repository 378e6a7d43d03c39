#pragma once
// The FEC tail of a poll window from two successive codeword histograms: the
// highest bin whose count grew (its upper bound, in symbol errors). A link
// whose tail creeps towards the code's limit (RS(544,514) corrects 15 symbols
// a codeword) is losing margin before its averaged pre-FEC BER moves: a few
// codewords with many errors barely change the mean.
//
// Pure functions, plus FecTailTracker: the previous histogram of each port,
// for drivers that read cumulative bins (ethtool, gnmi, replay, sim). Not
// thread-safe; a driver owns one and calls it on its own thread.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "drivers/sample.hpp"

namespace opticsd {

// The tail between `previous` and `current` (same bins, same order). Absent
// when the bins differ (a NIC reconfigured, a module swapped), when any
// count went down (a counter reset) or when no bin grew (no traffic).
FecTail fecTail(const std::vector<FecHistogramBin>& previous, const std::vector<FecHistogramBin>& current);

class FecTailTracker {
 public:
  // Sets sample.fec.tail from the sample's histogram and the one seen last
  // for the same port and serial; remembers this one. A sample without a
  // histogram forgets the port.
  void apply(Sample& sample);

  // Heap bytes the tracker holds for its ports (benchmarks, tests).
  std::size_t bytes() const;

 private:
  // A port's last histogram, compact (a fleet instance keeps one per port):
  // the bins' shape (bounds, which counts are there) as one fingerprint, the
  // counts alone in one flat array (per bin: the port total where given,
  // then the lanes'), and the module's serial as a hash.
  struct Last {
    std::uint64_t serial_hash = 0;
    std::uint64_t shape = 0;
    std::vector<std::uint64_t> counts;
  };
  std::unordered_map<std::string, Last> last_;  // by port
};

}  // namespace opticsd
