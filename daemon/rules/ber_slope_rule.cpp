// The slope of log10(pre-FEC BER) in decades per hour over the window, each
// lane against its own past (a rising lane is seen before it passes the
// others), from the module's own history before any fixed level is reached.
#include <cmath>

#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/trend_evidence.hpp"

namespace opticsd {
namespace {

// The worse of two outcomes: higher severity, then the larger value.
void keepWorse(Outcome& best, const Outcome& o) {
  if (o.severity == Severity::kNone) return;
  if (o.severity > best.severity || (o.severity == best.severity && o.value > best.value)) best = o;
}

// A significant slope of `w` leveled by `r`; the robust estimate only when the
// plain slope is at least half way to a level (the common, healthy case is cheap).
Outcome berSlopeOf(const TrendWindow& w, const ResolvedRule& r) {
  const auto plain = w.slopePerHour(windowMs(r.p));
  if (!plain || r.inside(2.0 * *plain)) return {};
  return slopeOutcome(r, w.significantSlopePerHour(windowMs(r.p), kSignificance, kBerScatterFloor), 0.0,
                      "pre_fec_ber_log10_slope", " decades/h");
}

Outcome evaluateBerSlope(const RuleInput& in, const ResolvedRule& r) {
  const auto& ber = in.agg.worst_ber;
  if (!ber || *ber <= 0) return {};
  // The module's worst BER: what the forecast extrapolates.
  TrendWindow& w = trendOf(in, r.trend);
  w.add(in.now, std::log10(*ber), windowMs(r.p));
  const double min_value = r.p.min_value.value_or(0);
  // Each lane against its own past: a rising lane is seen before it passes the others.
  Outcome best;
  bool lanes = false;
  for (const Lane& lane : in.s.lanes) {
    const auto& v = lane.values[LaneMetric::kPreFecBerRatio];
    TrendWindow* lw = usable(lane) && v && *v > 0 ? laneTrendOf(in, r, laneIndex(lane)) : nullptr;
    if (lw == nullptr) continue;
    lanes = true;
    lw->add(in.now, std::log10(*v), windowMs(r.p));
    if (*v < min_value) continue;
    Outcome o = berSlopeOf(*lw, r);
    o.lane = static_cast<std::uint8_t>(lane.number);
    keepWorse(best, o);
  }
  if (lanes || *ber < min_value) return best;
  return berSlopeOf(w, r);  // no per-lane BER: the module's
}

}  // namespace

// The module's worst BER window is what a forecast extrapolates.
extern const RuleType kBerSlopeRule{
    .name = "ber_slope",
    .trend = true,
    .lane_trends = true,
    .evaluate = evaluateBerSlope,
    .take_roles =
        [](const ResolvedRule& r, int, RuleProfile& prof) {
          if (prof.ber_trend < 0) prof.ber_trend = r.trend, prof.ber_window = windowMs(r.p);
        },
};

}  // namespace opticsd
