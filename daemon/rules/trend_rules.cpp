#include "daemon/rules/trend_rules.hpp"

#include <cmath>

namespace opticsd {
namespace {

// Slopes smaller than these are noise, not a trend worth forecasting (the
// sim's and real modules' read noise gives up to ~0.4 decade/h on a half-full
// window of a healthy PAM4 link).
constexpr double kMinBerSlope = 1.0;   // decades per hour
constexpr double kMinRxSlope = 0.5;    // dB per hour
constexpr double kMinTempSlope = 2.0;  // degrees C per hour

std::int64_t windowMs(const RuleParams& p) { return static_cast<std::int64_t>(p.window.count()); }

TrendWindow& trendOf(const RuleInput& in, int trend) { return in.st.trends[static_cast<std::size_t>(trend)]; }

// Adds `sample` to the rule's window and levels the slope per hour.
Outcome slopeOutcome(const RuleInput& in, const ResolvedRule& r, double sample, const char* what, const char* unit) {
  Outcome o;
  TrendWindow& w = trendOf(in, r.trend);
  w.add(in.now, sample, windowMs(r.p));
  if (auto slope = w.slopePerHour(windowMs(r.p))) {
    o.value = *slope;
    o.setLevel(r.level(*slope));
    o.what = what;
    o.unit = unit;
  }
  return o;
}

// The module's own alarm limit where it advertises one (0 is "none" on many
// devices), else the rule set's critical level.
std::optional<double> ownLimit(const std::optional<double>& rule_level, const std::optional<Thresholds>& t,
                               std::optional<double> Thresholds::*which) {
  if (t && (*t).*which && *((*t).*which) != 0) return (*t).*which;
  return rule_level;
}

}  // namespace

Outcome evaluateBerSlope(const RuleInput& in, const ResolvedRule& r) {
  const auto& ber = in.agg.worst_ber;
  if (!ber || *ber <= 0 || *ber < r.p.min_value.value_or(0)) return {};
  return slopeOutcome(in, r, std::log10(*ber), "pre_fec_ber_log10_slope", " decades/h");
}

Outcome evaluateTemperatureClimb(const RuleInput& in, const ResolvedRule& r) {
  if (!in.agg.temperature) return {};
  return slopeOutcome(in, r, *in.agg.temperature, "temperature_slope", " C/h");
}

Outcome evaluateBiasDrift(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  if (in.st.baseline_n < kBaselineSamples) return o;
  for (const Lane& lane : in.s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const auto& v = lane.values[LaneMetric::kTxBiasMilliamperes];
    if (!usable(lane) || !v || idx >= kMaxLanes || in.st.baseline[idx] <= 0) continue;
    const double drift = (*v / in.st.baseline[idx] - 1.0) * 100.0;
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

Outcome evaluateDrop(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  std::optional<double> low;
  int low_lane = 0;
  for (const Lane& lane : in.s.lanes) {
    const auto& v = lane.values[*r.spec->lane_metric];
    if (usable(lane) && v && (!low || *v < *low)) low = *v, low_lane = lane.number;
  }
  if (!low) return o;
  TrendWindow& w = trendOf(in, r.trend);
  w.add(in.now, *low, windowMs(r.p));
  const double drop = w.maxMean().value_or(*low) - *low;
  o.setLevel(r.level(drop));
  if (o.severity == Severity::kNone) return o;
  o.value = drop;
  o.lane = static_cast<std::uint8_t>(low_lane);
  o.what = r.spec->lane_metric == LaneMetric::kRxPowerDbm ? "rx_power_drop" : "tx_power_drop";
  o.unit = " dB";
  o.note = "fall from the best of the window";
  return o;
}

Outcome evaluateForecast(const RuleInput& in, const ResolvedRule& r) {
  // Hours until each trending value reaches its alarm limit; the soonest wins.
  const RuleProfile& prof = in.prof;
  const Aggregates& agg = in.agg;
  std::optional<double> best;
  const char* what = "";
  // A forecast needs the whole window: a half-full one extrapolates noise.
  const auto full = [&](int trend) { return trend >= 0 && trendOf(in, trend).filledBuckets() == TrendWindow::kBuckets; };
  const auto consider = [&](double hours, const char* name) {
    if (hours > 0 && (!best || hours < *best)) best = hours, what = name;
  };
  if (full(prof.ber_trend) && agg.worst_ber && *agg.worst_ber > 0 && *agg.worst_ber < prof.fec_limit) {
    if (auto slope = trendOf(in, prof.ber_trend).slopePerHour(prof.ber_window); slope && *slope >= kMinBerSlope) {
      consider((std::log10(prof.fec_limit) - std::log10(*agg.worst_ber)) / *slope, "pre_fec_ber_hours_to_fec_limit");
    }
  }
  if (full(prof.rx_trend) && agg.min_rx) {
    const auto limit = ownLimit(prof.rx_alarm, in.s.thresholds(LaneMetric::kRxPowerDbm), &Thresholds::low_alarm);
    const auto slope = trendOf(in, prof.rx_trend).slopePerHour(prof.rx_window);
    if (limit && slope && *slope <= -kMinRxSlope && *agg.min_rx > *limit) {
      consider((*agg.min_rx - *limit) / -*slope, "rx_power_hours_to_alarm");
    }
  }
  if (full(prof.temp_trend) && agg.temperature) {
    const auto limit =
        ownLimit(prof.temp_alarm, in.s.thresholds(ModuleMetric::kTemperatureCelsius), &Thresholds::high_alarm);
    const auto slope = trendOf(in, prof.temp_trend).slopePerHour(prof.temp_window);
    if (limit && slope && *slope >= kMinTempSlope && *agg.temperature < *limit) {
      consider((*limit - *agg.temperature) / *slope, "temperature_hours_to_alarm");
    }
  }
  Outcome o;
  if (!best) return o;
  o.setLevel(r.level(*best));
  o.value = *best;
  o.what = what;
  o.unit = " h";
  o.note = "at the current trend";
  return o;
}

bool learnBiasBaseline(ModuleRuleState& st, const Sample& s) {
  if (st.baseline_n >= kBaselineSamples || !s.module_present || s.lanes.empty()) return false;
  const float n = st.baseline_n;
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const auto& bias = lane.values[LaneMetric::kTxBiasMilliamperes];
    if (idx < kMaxLanes && bias) st.baseline[idx] = (st.baseline[idx] * n + static_cast<float>(*bias)) / (n + 1);
  }
  return ++st.baseline_n == kBaselineSamples;
}

}  // namespace opticsd
