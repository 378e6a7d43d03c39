// Temperature slope in degrees C per hour over the window, beyond the common
// trend of the modules on the same switch (the room, a job).
#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/trend_evidence.hpp"

namespace opticsd {
namespace {

Outcome evaluateTemperatureClimb(const RuleInput& in, const ResolvedRule& r) {
  if (!in.agg.temperature) return {};
  TrendWindow& w = trendOf(in, r.trend);
  w.add(in.now, *in.agg.temperature, windowMs(r.p));
  // What the neighbours are compared with: the plain slope, as soon as there is one.
  in.st.temperature_slope = w.slopePerHour(windowMs(r.p));
  Outcome o = slopeOutcome(r, w.significantSlopePerHour(windowMs(r.p), kSignificance, kTempScatterFloor),
                           in.common_temp_slope.value_or(0.0), "temperature_slope", " C/h");
  if (o.severity != Severity::kNone && in.common_temp_slope) o.note = "beyond its switch's common trend";
  return o;
}

}  // namespace

// The first one's window is what a forecast extrapolates.
extern const RuleType kTemperatureClimbRule{
    .name = "temperature_climb",
    .trend = true,
    .evaluate = evaluateTemperatureClimb,
    .take_roles =
        [](const ResolvedRule& r, int, RuleProfile& prof) {
          if (prof.temp_trend < 0) prof.temp_trend = r.trend, prof.temp_window = windowMs(r.p);
        },
};

}  // namespace opticsd
