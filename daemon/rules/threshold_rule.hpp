#pragma once
// Fixed levels: a module or lane value against a rule's warn/crit levels
// (the worst lane wins).

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

Outcome evaluateThreshold(const RuleInput& in, const ResolvedRule& r);

}  // namespace opticsd
