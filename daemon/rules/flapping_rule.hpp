#pragma once
// Link flapping: link-down events (the port's counter, or up->down
// transitions seen where there is none) and LOS/LOL rises on any lane, summed
// over the window and scaled per hour.

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

// Lanes with LOS or LOL, bit (lane number - 1).
LaneMask losMask(const Sample& s);

Outcome evaluateFlapping(const RuleInput& in, const ResolvedRule& r);

}  // namespace opticsd
