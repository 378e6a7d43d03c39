#pragma once
// Trends from the module's own history, before any fixed limit is reached:
// the slope of log10(pre-FEC BER) per hour, Tx bias drift from the module's
// own baseline, a lane power drop over the window, temperature climb, and a
// forecast of the hours until a trending value reaches its alarm limit.

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

Outcome evaluateBerSlope(const RuleInput& in, const ResolvedRule& r);
Outcome evaluateBiasDrift(const RuleInput& in, const ResolvedRule& r);
Outcome evaluateDrop(const RuleInput& in, const ResolvedRule& r);
Outcome evaluateTemperatureClimb(const RuleInput& in, const ResolvedRule& r);
Outcome evaluateForecast(const RuleInput& in, const ResolvedRule& r);

// Averages the module's first kBaselineSamples polls into its Tx bias
// baseline; true on the poll that completes it.
bool learnBiasBaseline(ModuleRuleState& st, const Sample& s);

}  // namespace opticsd
