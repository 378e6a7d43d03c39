#pragma once
// Tx bias drift: each lane's bias above the module's own baseline, in percent;
// the baseline is the average of the module's first polls (kept across
// restarts by the store).

#include "daemon/rules/module_rule_state.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// Averages the module's first kBaselineSamples polls into its Tx bias
// baseline (and its lanes' Rx/Tx power baselines); true on the poll that
// completes it.
bool learnBiasBaseline(ModuleRuleState& st, const Sample& s);

}  // namespace opticsd
