#pragma once
// Link loss, where the topology knows both ends of a link and both are
// polled: the far end's Tx minus our Rx per lane, worst lane, with the
// verdict of link_analysis (a fibre or connector loss between two healthy
// modules, or a weak far-end transmitter).

#include <string>

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

// `peer`: the far end's state (its Tx from its latest poll); null: no finding.
Outcome evaluateLinkLoss(const RuleInput& in, const ResolvedRule& r, const ModuleRuleState* peer);

// The finding's text, naming both ends: "path_loss=9 dB above 6 dB (lane 1):
// fibre or connector loss between spine-1:Ethernet2 (Tx 1 dBm) and leaf-1:Ethernet1 (Rx -8 dBm)".
std::string describeLinkLoss(const Outcome& o, const ModuleRuleState& near);

}  // namespace opticsd
