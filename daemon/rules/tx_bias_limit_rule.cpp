// Laser Tx bias against fixed levels in mA, per lane: each lane raises and
// clears on its own. A laser needs more current as it ages; where the
// operator knows the limit of a laser family (a VCSEL near 10 mA, a DFB or
// EML far higher), this says which lane passed it.
//
// Not in the shipped set: no one limit fits every laser, and the module's own
// high warning is judged already (module_alarm, and the OpticsdTxBiasHigh
// alert on the exported bias). A config adds it with its levels, e.g.
//   - {name: tx_bias_high, type: tx_bias_limit, warn_above: 12, crit_above: 15}
#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

LaneScan scanBias(const Sample& s, const ResolvedRule& r) {
  LaneScan scan;
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const auto& v = lane.values[LaneMetric::kTxBiasMilliamperes];
    if (idx < kMaxLanes && usable(lane) && v && !r.inside(*v)) scan.breaching |= laneBit(idx);
  }
  return scan;
}

Outcome evaluateBias(const ResolvedRule& r, const LaneScan&, const Lane& lane) {
  Outcome o;
  const auto& v = lane.values[LaneMetric::kTxBiasMilliamperes];
  if (!usable(lane) || !v) return o;
  o.setLevel(r.level(*v));
  if (o.severity == Severity::kNone) return o;
  o.value = *v;
  o.lane = static_cast<std::uint8_t>(lane.number);
  o.what = "tx_bias_milliamperes";
  o.unit = " mA";
  return o;
}

}  // namespace

extern const RuleType kTxBiasLimitRule{
    .name = "tx_bias_limit",
    .per_lane = true,
    .scan_lanes = scanBias,
    .evaluate_lane = evaluateBias,
};

}  // namespace opticsd
