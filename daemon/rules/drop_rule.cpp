// A lane power metric's fall in dB, from the best of the lane's own window or,
// once the window has moved past the fall, from the lane's own baseline.
#include <cmath>

#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/trend_evidence.hpp"

namespace opticsd {
namespace {

// The lane's own Rx or Tx power baseline, once learned.
std::optional<double> ownBaseline(const ModuleRuleState& st, LaneMetric metric, std::size_t idx) {
  if (st.baseline_n < kBaselineSamples || idx >= kMaxLanes) return std::nullopt;
  const LaneMemory m = st.lanes[idx];
  const float b = metric == LaneMetric::kRxPowerDbm ? m.rx_baseline_dbm : m.tx_baseline_dbm;
  if (std::isnan(b)) return std::nullopt;
  return b;
}

Outcome evaluateDrop(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  std::optional<double> low;
  double drop = 0;
  int drop_lane = 0;
  bool windowed = false;
  bool held = false;  // the worst drop is from the lane's baseline, not its window
  for (const Lane& lane : in.s.lanes) {
    const auto& v = lane.values[*r.spec->lane_metric];
    if (!usable(lane) || !v) continue;
    if (!low || *v < *low) low = *v;
    // Each lane's fall from the best of its own window: a lane that sags is
    // seen at its own loss, whichever lane is the weakest.
    if (TrendWindow* lw = laneTrendOf(in, r, laneIndex(lane))) {
      windowed = true;
      lw->add(in.now, *v, windowMs(r.p));
      if (const double d = lw->maxMean().value_or(*v) - *v; d > drop) drop = d, drop_lane = lane.number, held = false;
    }
    // A loss that stays is still a loss once the window has moved past the
    // fall: the lane's own baseline holds the finding until it recovers.
    if (const auto base = ownBaseline(in.st, *r.spec->lane_metric, laneIndex(lane))) {
      if (const double d = *base - *v; d > drop) drop = d, drop_lane = lane.number, held = true;
    }
  }
  if (!low) return o;
  // The module's weakest lane: what the forecast extrapolates, and the judge
  // for lanes without a window of their own.
  TrendWindow& w = trendOf(in, r.trend);
  w.add(in.now, *low, windowMs(r.p));
  if (!windowed) {
    for (const Lane& lane : in.s.lanes) {
      const auto& v = lane.values[*r.spec->lane_metric];
      if (usable(lane) && v && *v == *low) drop = w.maxMean().value_or(*low) - *low, drop_lane = lane.number;
    }
  }
  o.setLevel(r.level(drop));
  if (o.severity == Severity::kNone) return o;
  o.value = drop;
  o.lane = static_cast<std::uint8_t>(drop_lane);
  o.what = r.spec->lane_metric == LaneMetric::kRxPowerDbm ? "rx_power_drop" : "tx_power_drop";
  o.unit = " dB";
  o.note = held ? "below the lane's own baseline" : "fall from the best of the window";
  return o;
}

}  // namespace

// The first Rx drop's weakest-lane window is what a forecast extrapolates.
extern const RuleType kDropRule{
    .name = "drop",
    .metric = RuleMetric::kLanePower,
    .trend = true,
    .lane_trends = true,
    .lane_light = LaneLight::kYes,
    .evaluate = evaluateDrop,
    .take_roles =
        [](const ResolvedRule& r, int, RuleProfile& prof) {
          if (r.spec->lane_metric == LaneMetric::kRxPowerDbm && prof.rx_trend < 0) {
            prof.rx_trend = r.trend, prof.rx_window = windowMs(r.p);
          }
        },
};

}  // namespace opticsd
