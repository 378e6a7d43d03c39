#include "daemon/rules/link_loss_rule.hpp"

#include <cmath>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

// The far end's Tx below this counts as weak when it does not advertise its own limit.
constexpr double kDefaultTxLowDbm = -5.0;

double maxPathLoss(const RuleParams& p) { return p.warn_above.value_or(p.crit_above.value_or(6.0)); }

}  // namespace

Outcome evaluateLinkLoss(const RuleInput& in, const ResolvedRule& r, const ModuleRuleState* peer) {
  Outcome o;
  if (peer == nullptr) return o;
  std::optional<double> worst;
  LinkEnds ends;
  for (const Lane& lane : in.s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const float far_tx = peer->lanes[idx].last_tx_dbm;
    if (idx >= kMaxLanes || std::isnan(far_tx) || !lit(lane)) continue;
    const double rx = *lane.values[LaneMetric::kRxPowerDbm];
    const double loss = far_tx - rx;
    if (!worst || loss > *worst) {
      worst = loss;
      ends = LinkEnds{far_tx, rx, peer->tx_low_warning};
      o.lane = static_cast<std::uint8_t>(lane.number);
    }
  }
  if (!worst) return o;
  o.value = *worst;
  o.setLevel(r.level(*worst));
  o.verdict = classifyLink(ends, maxPathLoss(r.p), kDefaultTxLowDbm);
  // A weak far-end transmitter explains our low light even on a normal path.
  if (o.verdict == LinkVerdict::kFarEndTxLow && o.severity < Severity::kWarning) o.severity = Severity::kWarning;
  o.what = "path_loss";
  o.unit = " dB";
  o.peer = peer;
  return o;
}

std::string describeLinkLoss(const Outcome& o, const ModuleRuleState& near) {
  std::string d = describe(o);
  if (o.peer == nullptr || o.lane < 1 || o.lane > kMaxLanes) return d;
  const double far_tx = o.peer->lanes[static_cast<std::size_t>(o.lane - 1)].last_tx_dbm;
  const double near_rx = far_tx - o.value;
  const std::string far = o.peer->target() + ":" + o.peer->port + " (Tx " + formatNumber(far_tx) + " dBm)";
  const std::string here = near.target() + ":" + near.port + " (Rx " + formatNumber(near_rx) + " dBm)";
  switch (o.verdict) {
    case LinkVerdict::kPathLoss:
      d += ": fibre or connector loss between " + far + " and " + here + "; both transmitters are normal";
      break;
    case LinkVerdict::kFarEndTxLow: {
      const double low = o.peer->tx_low_warning.value_or(kDefaultTxLowDbm);
      d += ": far-end transmitter weak, module " + o.peer->target() + ":" + o.peer->port + " sends " +
           formatNumber(far_tx, low) + " dBm, below its low warning " + formatLimit(low) + " dBm; the path to " + here +
           " is normal";
      break;
    }
    case LinkVerdict::kNearEndRxHigh:
      d += ": " + std::string(toString(o.verdict)) + ", " + far + " -> " + here;
      break;
    case LinkVerdict::kHealthy:
      d += ": " + far + " -> " + here;
      break;
  }
  return d;
}

extern const RuleType kLinkLossRule{
    .name = "link_loss",
    .evaluate = [](const RuleInput& in,
                   const ResolvedRule& r) { return evaluateLinkLoss(in, r, in.peers.peerOf(in.st)); },
    .detail = describeLinkLoss,
    .closeness = [](const ResolvedRule&, bool critical) { return critical ? 0.7 : 0.5; },
};

}  // namespace opticsd
