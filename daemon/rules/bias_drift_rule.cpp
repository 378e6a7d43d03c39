#include "daemon/rules/bias_drift_rule.hpp"

#include <cmath>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

Outcome evaluateBiasDrift(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  if (in.st.baseline_n < kBaselineSamples) return o;
  for (const Lane& lane : in.s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const auto& v = lane.values[LaneMetric::kTxBiasMilliamperes];
    const float base = in.st.lanes[idx].bias_baseline_ma;
    if (!usable(lane) || !v || idx >= kMaxLanes || base <= 0) continue;
    const double drift = (*v / base - 1.0) * 100.0;
    const Level l = r.level(drift);
    if (l.severity == Severity::kNone || l.severity < o.severity || (l.severity == o.severity && drift <= o.value)) {
      continue;
    }
    o.setLevel(l);
    o.value = drift;
    o.lane = static_cast<std::uint8_t>(lane.number);
  }
  if (o.severity != Severity::kNone) {
    o.what = "tx_bias_drift";
    o.unit = "%";
    o.note = "above the module's own baseline";
  }
  return o;
}

}  // namespace

bool learnBiasBaseline(ModuleRuleState& st, const Sample& s) {
  if (st.baseline_n >= kBaselineSamples || !s.module_present || s.lanes.empty()) return false;
  const float n = st.baseline_n;
  if (st.baseline_n == 0) {
    for (LaneMemory& m : st.lanes) m.rx_baseline_dbm = m.tx_baseline_dbm = LaneMemory::kNone;
  }
  // A lane's power baseline needs a lit reading on every learning poll: a
  // missing one leaves NaN (no baseline) behind.
  const auto learn = [&](float& mean, const std::optional<double>& v, bool ok) {
    const float x = ok && v ? static_cast<float>(*v) : std::nanf("");
    mean = st.baseline_n == 0 ? x : (mean * n + x) / (n + 1);
  };
  LaneMask seen = 0;
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    if (idx >= kMaxLanes) continue;
    seen |= laneBit(idx);
    LaneMemory& m = st.lanes.at(idx);
    const auto& bias = lane.values[LaneMetric::kTxBiasMilliamperes];
    if (bias) m.bias_baseline_ma = (m.bias_baseline_ma * n + static_cast<float>(*bias)) / (n + 1);
    learn(m.rx_baseline_dbm, lane.values[LaneMetric::kRxPowerDbm], usable(lane) && lit(lane));
    learn(m.tx_baseline_dbm, lane.values[LaneMetric::kTxPowerDbm], usable(lane) && !dark(lane));
  }
  // Lanes not held read as having no power baseline already.
  for (std::size_t idx = 0; idx < st.lanes.held(); ++idx) {
    if ((seen & laneBit(idx)) == 0) {
      LaneMemory& m = st.lanes.at(idx);
      m.rx_baseline_dbm = m.tx_baseline_dbm = LaneMemory::kNone;
    }
  }
  return ++st.baseline_n == kBaselineSamples;
}

extern const RuleType kBiasDriftRule{
    .name = "bias_drift",
    .evaluate = evaluateBiasDrift,
};

}  // namespace opticsd
