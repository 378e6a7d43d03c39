#pragma once
// What the rules engine hands the history writer besides poll cycles (through
// FindingSink): a finding raised, changed or cleared, a target's suspects
// replaced, a module's bias baseline learned. Plain value types.

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

using FindingEvent = std::variant<Finding, SuspectsUpdate, BiasBaseline>;

}  // namespace opticsd
