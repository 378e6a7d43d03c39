#pragma once
// What the rules engine hands the history writer besides poll cycles (through
// FindingSink): a finding raised, changed or cleared, a target's suspects
// replaced, a module's bias baseline learned, a poll whose verdicts turned.
// Plain value types.

#include <string>
#include <variant>
#include <vector>

#include "daemon/rules/bias_baseline.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/rules/suspect.hpp"

namespace opticsd {

struct SuspectsUpdate {
  std::string target;
  std::vector<Suspect> suspects;
};

// A rule's verdict on a module turned at its latest poll: keep the rows around it.
struct RowsToKeep {
  std::string target;
  std::string port;
};

using FindingEvent = std::variant<Finding, SuspectsUpdate, BiasBaseline, RowsToKeep>;

}  // namespace opticsd
