// Hours until a trending value (pre-FEC BER, Rx power, temperature) reaches
// its alarm limit at the current significant trend; the soonest wins. It reads
// the windows of the first ber_slope, Rx drop and temperature_climb rules.
#include <cmath>

#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/trend_evidence.hpp"

namespace opticsd {
namespace {

// Slopes smaller than these are noise, not a trend worth forecasting (a
// healthy PAM4 lane's BER wanders over more than a decade; Rx drifts by
// tenths of a dB; temperature after the switch's common mode is removed
// still differs by a job's share between modules).
constexpr double kMinBerSlope = 1.0;   // decades per hour
constexpr double kMinRxSlope = 0.5;    // dB per hour
constexpr double kMinTempSlope = 4.0;  // degrees C per hour, relative to the switch's common mode

// A forecast reaches at most this many of its own windows ahead: a trend seen
// for an hour says little about where the value will be in a day.
constexpr double kMaxExtrapolationWindows = 4.0;

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
                               Reading Thresholds::*which) {
  if (t && (*t).*which && *((*t).*which) != 0) return (*t).*which;
  return rule_level;
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

}  // namespace

extern const RuleType kForecastRule{
    .name = "forecast",
    .evaluate = evaluateForecast,
    // A forecast is a warning about the future: below any evidence of harm.
    .closeness = [](const ResolvedRule&, bool critical) { return critical ? 0.3 : 0.2; },
    .reason = [](const Finding& f) { return "forecast: " + f.detail; },
};

}  // namespace opticsd
