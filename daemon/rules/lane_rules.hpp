#pragma once
// Per-lane rules: one lane's power a set number of dB below the module's
// median lane (lane imbalance), and one lane dark while others have light
// (lane failure). The module's lanes are scanned once per poll and the scan
// says which lanes breach, so a healthy module needs no per-lane outcome; a
// breaching lane's outcome is then built against the same scan.

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"
#include "daemon/rules/rule_type.hpp"

namespace opticsd {

LaneScan scanLaneImbalance(const Sample& s, const ResolvedRule& r);
Outcome evaluateLaneImbalance(const ResolvedRule& r, const LaneScan& scan, const Lane& lane);
LaneScan scanDarkLanes(const Sample& s, const ResolvedRule& r);
Outcome evaluateLaneDark(const ResolvedRule& r, const LaneScan& scan, const Lane& lane);

}  // namespace opticsd
