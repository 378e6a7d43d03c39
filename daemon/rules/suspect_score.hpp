#pragma once
// A module's straggler-suspect score, 0 to 1: for each piece of evidence
// (pre-FEC BER close to the FEC limit, each active finding) how close it is
// to costing packets times how certain it is; the best one plus a little for
// each other, with the best one's one-line reason. Text is built only for
// the winning piece of evidence.

#include <string>

#include "daemon/rules/rule_input.hpp"

namespace opticsd {

void scoreModule(ModuleRuleState& st, const RuleProfile& prof, const Aggregates& agg);

// "pre-FEC BER 1.2e-05 is 1.3 decades below the FEC limit 2.4e-04" (or "at", or "above").
std::string berReason(double ber, double fec_limit);

}  // namespace opticsd
