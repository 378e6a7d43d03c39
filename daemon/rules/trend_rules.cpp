#include "daemon/rules/trend_rules.hpp"

#include <cmath>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

// Slopes smaller than these are noise, not a trend worth forecasting (a
// healthy PAM4 lane's BER wanders over more than a decade; Rx drifts by
// tenths of a dB; temperature after the switch's common mode is removed
// still differs by a job's share between modules).
constexpr double kMinBerSlope = 1.0;   // decades per hour
constexpr double kMinRxSlope = 0.5;    // dB per hour
constexpr double kMinTempSlope = 4.0;  // degrees C per hour, relative to the switch's common mode

// A trend must explain a change over its window this many times the window's
// own scatter (robust sigma of the bucket means about the line), and the
// scatter is taken as at least the floor (read noise averaged into a bucket).
constexpr double kSignificance = 4.0;
constexpr double kBerScatterFloor = 0.05;  // decades
constexpr double kRxScatterFloor = 0.05;   // dB
constexpr double kTempScatterFloor = 0.2;  // degrees C

// A forecast reaches at most this many of its own windows ahead: a trend seen
// for an hour says little about where the value will be in a day.
constexpr double kMaxExtrapolationWindows = 4.0;

std::int64_t windowMs(const RuleParams& p) { return static_cast<std::int64_t>(p.window.count()); }

TrendWindow& trendOf(const RuleInput& in, int trend) { return in.st.trends[static_cast<std::size_t>(trend)]; }

// The lane's own window of a per-lane rule; null for lanes beyond the ones the
// module had when its profile was resolved.
TrendWindow* laneTrendOf(const RuleInput& in, const ResolvedRule& r, std::size_t idx) {
  if (r.lane_trend < 0 || idx >= in.st.lane_stride) return nullptr;
  return &in.st.lane_trends[static_cast<std::size_t>(r.lane_trend) * in.st.lane_stride + idx];
}

// The lane's own Rx or Tx power baseline, once learned.
std::optional<double> ownBaseline(const ModuleRuleState& st, LaneMetric metric, std::size_t idx) {
  if (st.baseline_n < kBaselineSamples || idx >= kMaxLanes) return std::nullopt;
  const float b = metric == LaneMetric::kRxPowerDbm ? st.rx_baseline[idx] : st.tx_baseline[idx];
  if (std::isnan(b)) return std::nullopt;
  return b;
}

// The worse of two outcomes: higher severity, then the larger value.
void keepWorse(Outcome& best, const Outcome& o) {
  if (o.severity == Severity::kNone) return;
  if (o.severity > best.severity || (o.severity == best.severity && o.value > best.value)) best = o;
}

// Levels a significant slope per hour (less the common mode of the module's neighbours).
Outcome slopeOutcome(const ResolvedRule& r, std::optional<double> slope, double common, const char* what,
                     const char* unit) {
  Outcome o;
  if (!slope) return o;
  o.value = *slope - common;
  o.setLevel(r.level(o.value));
  o.what = what;
  o.unit = unit;
  return o;
}

// The temperature slope of this module beyond what its whole switch does
// (the room, a job warming every cage): nullopt without a significant trend.
std::optional<double> ownTemperatureSlope(const RuleInput& in, int trend, std::int64_t window_ms) {
  const auto slope = trendOf(in, trend).significantSlopePerHour(window_ms, kSignificance, kTempScatterFloor);
  if (!slope) return std::nullopt;
  return *slope - in.common_temp_slope.value_or(0.0);
}

// The module's own alarm limit where it advertises one (0 is "none" on many
// devices), else the rule set's critical level.
std::optional<double> ownLimit(const std::optional<double>& rule_level, const std::optional<Thresholds>& t,
                               std::optional<double> Thresholds::*which) {
  if (t && (*t).*which && *((*t).*which) != 0) return (*t).*which;
  return rule_level;
}

}  // namespace

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

Outcome evaluateForecast(const RuleInput& in, const ResolvedRule& r) {
  // Hours until each trending value reaches its alarm limit; the soonest wins.
  const RuleProfile& prof = in.prof;
  const Aggregates& agg = in.agg;
  std::optional<double> best;
  const char* what = "";
  // A forecast needs a significant trend over a whole window: a half-full
  // one, or a slope within the window's own scatter, extrapolates noise.
  const auto consider = [&](double hours, std::int64_t window_ms, const char* name) {
    const double reach_h = kMaxExtrapolationWindows * static_cast<double>(window_ms) / 3'600'000.0;
    if (hours > 0 && hours <= reach_h && (!best || hours < *best)) best = hours, what = name;
  };
  if (prof.ber_trend >= 0 && agg.worst_ber && *agg.worst_ber > 0 && *agg.worst_ber < prof.fec_limit) {
    if (auto slope =
            trendOf(in, prof.ber_trend).significantSlopePerHour(prof.ber_window, kSignificance, kBerScatterFloor);
        slope && *slope >= kMinBerSlope) {
      consider((std::log10(prof.fec_limit) - std::log10(*agg.worst_ber)) / *slope, prof.ber_window,
               "pre_fec_ber_hours_to_fec_limit");
    }
  }
  if (prof.rx_trend >= 0 && agg.min_rx) {
    const auto limit = ownLimit(prof.rx_alarm, in.s.thresholds(LaneMetric::kRxPowerDbm), &Thresholds::low_alarm);
    const auto slope =
        trendOf(in, prof.rx_trend).significantSlopePerHour(prof.rx_window, kSignificance, kRxScatterFloor);
    if (limit && slope && *slope <= -kMinRxSlope && *agg.min_rx > *limit) {
      consider((*agg.min_rx - *limit) / -*slope, prof.rx_window, "rx_power_hours_to_alarm");
    }
  }
  if (prof.temp_trend >= 0 && agg.temperature) {
    const auto limit =
        ownLimit(prof.temp_alarm, in.s.thresholds(ModuleMetric::kTemperatureCelsius), &Thresholds::high_alarm);
    const auto slope = ownTemperatureSlope(in, prof.temp_trend, prof.temp_window);
    if (limit && slope && *slope >= kMinTempSlope && *agg.temperature < *limit) {
      consider((*limit - *agg.temperature) / *slope, prof.temp_window, "temperature_hours_to_alarm");
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
  if (st.baseline_n == 0) {
    st.rx_baseline.fill(std::nanf(""));
    st.tx_baseline.fill(std::nanf(""));
  }
  // A lane's power baseline needs a lit reading on every learning poll: a
  // missing one leaves NaN (no baseline) behind.
  const auto learn = [&](float& mean, const std::optional<double>& v, bool ok) {
    const float x = ok && v ? static_cast<float>(*v) : std::nanf("");
    mean = st.baseline_n == 0 ? x : (mean * n + x) / (n + 1);
  };
  std::uint32_t seen = 0;
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    if (idx >= kMaxLanes) continue;
    seen |= 1u << idx;
    const auto& bias = lane.values[LaneMetric::kTxBiasMilliamperes];
    if (bias) st.baseline[idx] = (st.baseline[idx] * n + static_cast<float>(*bias)) / (n + 1);
    learn(st.rx_baseline[idx], lane.values[LaneMetric::kRxPowerDbm], usable(lane) && lit(lane));
    learn(st.tx_baseline[idx], lane.values[LaneMetric::kTxPowerDbm], usable(lane) && !dark(lane));
  }
  for (std::size_t idx = 0; idx < kMaxLanes; ++idx) {
    if ((seen & (1u << idx)) == 0) st.rx_baseline[idx] = st.tx_baseline[idx] = std::nanf("");
  }
  return ++st.baseline_n == kBaselineSamples;
}

// The first rule of each trend owns the window a forecast extrapolates.
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

extern const RuleType kBiasDriftRule{
    .name = "bias_drift",
    .evaluate = evaluateBiasDrift,
};

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

extern const RuleType kTemperatureClimbRule{
    .name = "temperature_climb",
    .trend = true,
    .evaluate = evaluateTemperatureClimb,
    .take_roles =
        [](const ResolvedRule& r, int, RuleProfile& prof) {
          if (prof.temp_trend < 0) prof.temp_trend = r.trend, prof.temp_window = windowMs(r.p);
        },
};

extern const RuleType kForecastRule{
    .name = "forecast",
    .evaluate = evaluateForecast,
    // A forecast is a warning about the future: below any evidence of harm.
    .closeness = [](const ResolvedRule&, bool critical) { return critical ? 0.3 : 0.2; },
    .reason = [](const Finding& f) { return "forecast: " + f.detail; },
};

}  // namespace opticsd
