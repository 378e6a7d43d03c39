#pragma once
// Link flapping: link-down events (the port's counter, or up->down
// transitions seen where there is none) and LOS/LOL rises on any lane, summed
// over the window and scaled per hour.

#include <string>

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

// Lanes with LOS or LOL, bit (lane number - 1).
LaneMask losMask(const Sample& s);

Outcome evaluateFlapping(const RuleInput& in, const ResolvedRule& r);

// describe(o), then why the link last went down and what to do about it,
// where the device says (drivers/link_down_reason.hpp): the detail of the
// findings a link going down raises (flapping, lane_dark).
std::string linkDownDetail(const Outcome& o, const ModuleRuleState& st);

}  // namespace opticsd
