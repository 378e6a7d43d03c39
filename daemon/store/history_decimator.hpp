#pragma once
// HistoryDecimator: the history's time resolution. A fleet polled every
// second would write ~90,000 rows a second at 10,000 modules, which no disk
// keeps for two weeks and nobody reads at that grain. Metrics keep the poll
// resolution (Prometheus); history keeps one sample per module per interval,
// plus every sample where something an operator looks for changed (presence,
// link state, a lane's LOS/LOL/fault/no-light flag, data path state, serial),
// so a flap or a swap between two kept samples is never hidden. What is left
// out is counted, never silent.

#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "drivers/sample.hpp"

namespace opticsd {

class HistoryDecimator {
 public:
  // Zero keeps every sample.
  explicit HistoryDecimator(std::chrono::milliseconds interval) : interval_ms_(interval.count()) {}

  // Removes the samples of `cycle` that history does not need; returns how
  // many it removed. Not thread-safe: the store calls it under its lock.
  std::size_t thin(std::vector<Sample>& cycle);
  // The same decision without touching `cycle` (a published poll, shared
  // with other sinks): the indices of the samples history keeps go to
  // `kept` (cleared first). Returns how many it leaves out.
  std::size_t select(const std::vector<Sample>& cycle, std::vector<std::size_t>& kept);

  // Modules currently remembered. One not seen for an hour (a removed target,
  // a pulled module) is forgotten; if it returns, its first sample is kept.
  std::size_t tracked() const { return modules_.size(); }

 private:
  struct Seen {
    std::int64_t kept_ms = 0;  // timestamp of the last sample kept
    std::int64_t seen_ms = 0;  // timestamp of the last sample seen
    std::uint64_t state = 0;   // stateSignature() of the last sample seen
  };
  bool keep(const Sample& sample);
  void forgetIdle(std::int64_t now_ms);

  std::int64_t interval_ms_;
  std::int64_t last_sweep_ms_ = 0;
  std::unordered_map<std::string, Seen> modules_;  // "target\0port"
  std::string key_;                                // reused, so a steady fleet allocates nothing
};

// A digest of everything whose change is always worth a history row.
std::uint64_t stateSignature(const Sample& sample);

}  // namespace opticsd
