#pragma once
// The backtest's use of the daemon's one preparation (PollPreparation, the
// same the pipeline, poll-once and replay call): stamp, implausible readings
// dropped, pre-FEC BER derived from the FEC counters where the Sample carries
// none (a value the store kept is never overwritten). Every Sample rebuilt
// from history goes through here before the rules, so the backtest judges
// what the daemon judged.
//
// Not thread-safe: one per replay.

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/pipeline/poll_preparation.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class HistoryPreparation {
 public:
  void prepare(Sample& sample);
  // The Samples of one poll of `target`, stamped `ts` (a StoredPoll's), in
  // place; `checked`: what rebuilding them already tested (StoredPoll::checked).
  void preparePoll(const std::string& target, std::int64_t ts, std::vector<Sample>& poll,
                   const std::vector<PollPreparation::Checked>& checked) {
    preparation_.prepare(target, ts, poll, checked);
  }

 private:
  PollPreparation preparation_;
  std::vector<Sample> one_;  // the Sample being prepared, moved in and back out
};

}  // namespace opticsd
