#pragma once
// Per-lane rules: one lane's power a set number of dB below the module's
// median lane (lane imbalance), and one lane dark while others have light
// (lane failure). The module's lanes are scanned once per poll and the scan
// says which lanes breach, so a healthy module needs no per-lane outcome; a
// breaching lane's outcome is then built against the same scan.

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

struct LaneScan {
  double median = 0;         // of the rule's metric over usable lanes
  int values = 0;            // usable lanes with the metric
  int lit = 0;               // lanes with light
  std::uint32_t breaching = 0;  // bit (lane number - 1): the lane's outcome has a severity
};

LaneScan scanLanes(const Sample& s, const ResolvedRule& r);
Outcome evaluateLaneImbalance(const ResolvedRule& r, const LaneScan& scan, const Lane& lane);
Outcome evaluateLaneDark(const ResolvedRule& r, const LaneScan& scan, const Lane& lane);

}  // namespace opticsd
