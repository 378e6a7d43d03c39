#pragma once
// Where the rules engine sends raised, escalated and cleared findings and the
// latest suspects. Called on the polling thread: implementations must not
// block (the SQLite one only queues). takeStoredBaselines() is the exception:
// the engine calls it once from its constructor, at start.

#include <string>
#include <vector>

#include "daemon/rules/bias_baseline.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/rules/suspect.hpp"

namespace opticsd {

class FindingSink {
 public:
  virtual ~FindingSink() = default;
  // A finding was raised, changed severity, or cleared (end_ms set).
  virtual void record(const Finding& finding) = 0;
  // The suspects of one target after a poll that changed them (may be empty).
  virtual void replaceSuspects(const std::string& target, std::vector<Suspect> suspects) = 0;
  // A module's Tx bias baseline was learned (replaces the port's previous one).
  virtual void recordBaseline(const BiasBaseline& baseline) { (void)baseline; }
  // A rule's verdict on the module turned (clean to breaching or back) at this
  // poll: history keeps the polls around it, as around a finding, so that a
  // replay of history (opticsd backtest) sees every poll where the rules' view changed.
  virtual void keepRows(const std::string& target, const std::string& port) {
    (void)target;
    (void)port;
  }
  // Baselines kept from before a restart; the engine takes them once, when it is built.
  virtual std::vector<BiasBaseline> takeStoredBaselines() { return {}; }
};

}  // namespace opticsd
