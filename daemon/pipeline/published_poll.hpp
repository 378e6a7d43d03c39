#pragma once
// One finished poll as every sink sees it: prepared once (PollPreparation),
// then published once, immutable and shared. The Samples sit behind a shared
// pointer, so a sink that keeps them (the exporter's cache until the next
// poll) holds the same vector as the others: no sink copies a whole poll.
//
// Thread-safety: immutable once built; any thread may read it and keep its
// `samples` pointer for as long as it likes.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/driver.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

struct PublishedPoll {
  std::string target;
  std::string driver;
  std::int64_t started_ms = 0;                         // UNIX ms: the time of the values
  double seconds = 0;                                  // how long the poll took
  std::shared_ptr<const std::vector<Sample>> samples;  // never null; stamped, checked, FEC BER derived
  std::vector<LinkNeighbor> neighbors;                 // LLDP, from drivers that discover topology
  std::vector<std::string> errors;                     // what failed although the poll brought Samples (a port)
  std::size_t implausible = 0;                         // values PollPreparation dropped from this poll
};

// A poll that brought no usable Samples (timed out, or errors and none).
struct FailedPoll {
  std::string target;
  std::string driver;
  std::int64_t started_ms = 0;  // UNIX ms
  double seconds = 0;
  std::vector<std::string> errors;
  std::uint32_t consecutive_failures = 0;
  std::size_t implausible = 0;  // values dropped from what little the poll brought
};

}  // namespace opticsd
