#pragma once
// The module's own advertised limits (EEPROM or MIB thresholds) and its
// latched alarm/warning flags, over every module and lane metric. The rule's
// `severity` caps what it raises (warning, the default, caps nothing).

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

Outcome evaluateModuleAlarm(const RuleInput& in, const ResolvedRule& r);

}  // namespace opticsd
