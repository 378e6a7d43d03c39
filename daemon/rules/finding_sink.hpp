#pragma once
// Where the rules engine sends raised, escalated and cleared findings and the
// latest suspects. Called on the polling thread: implementations must not
// block (the SQLite one only queues).

#include <string>
#include <vector>

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
};

}  // namespace opticsd
