#include "daemon/rules/threshold_rule.hpp"

#include <cmath>

#include "daemon/rules/media_sensitivity.hpp"
#include "daemon/rules/rule_type.hpp"

namespace opticsd {

namespace {

// A module's own level where it advertises one (0 is "none" on many devices).
std::optional<double> advertised(const std::optional<double>& v) {
  if (v && *v != 0) return v;
  return std::nullopt;
}

// The rule's lower levels, each lowered to the module's own where that is
// lower: a long-reach receiver knows its sensitivity better than a media glob.
Level withModuleLevels(const RuleParams& p, const Thresholds& own, double v) {
  std::optional<double> crit = p.crit_below, warn = p.warn_below;
  if (const auto a = advertised(own.low_alarm); a && (!crit || *a < *crit)) crit = a;
  if (const auto w = advertised(own.low_warning); w && (!warn || *w < *warn)) warn = w;
  if (crit && v < *crit) return {Severity::kCritical, Bound::kBelow, *crit};
  if (warn && v < *warn) return {Severity::kWarning, Bound::kBelow, *warn};
  return {};
}

// The module's own low levels or, for an Rx power it advertises none for, its
// medium's from the IEEE 802.3 tables: a long-reach receiver without
// thresholds must not be held to a short-reach level either.
std::optional<Thresholds> ownLowLevels(const Sample& s, LaneMetric m) {
  const std::optional<Thresholds>& own = s.thresholds(m);
  if (own && (advertised(own->low_warning) || advertised(own->low_alarm))) return own;
  if (m != LaneMetric::kRxPowerDbm) return std::nullopt;
  const auto media = mediaRxLevels(s.identity().media);
  if (!media) return std::nullopt;
  Thresholds t;
  t.low_warning = media->avg_rx_min_dbm;
  t.low_alarm = media->avg_rx_min_dbm - kMediaCriticalMarginDb;
  return t;
}

}  // namespace

Outcome evaluateThreshold(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  double excess = 0;  // how far beyond its level the worst value is
  std::optional<Thresholds> own;
  if (r.p.module_levels && r.spec->lane_metric) own = ownLowLevels(in.s, *r.spec->lane_metric);
  const auto consider = [&](double v, int lane) {
    Level l = r.level(v);
    if (own && l.bound == Bound::kBelow) l = withModuleLevels(r.p, *own, v);
    if (l.severity == Severity::kNone || l.severity < o.severity) return;
    const double beyond = std::fabs(v - l.limit);
    if (l.severity == o.severity && beyond <= excess) return;
    o.setLevel(l);
    o.value = v;
    o.lane = static_cast<std::uint8_t>(lane);
    excess = beyond;
  };
  if (r.spec->module_metric) {
    if (const auto& v = in.s.module[*r.spec->module_metric]) consider(*v, 0);
  }
  if (r.spec->lane_metric) {
    for (const Lane& lane : in.s.lanes) {
      if (!usable(lane) || laneIndex(lane) >= kMaxLanes) continue;
      if (const auto& v = lane.values[*r.spec->lane_metric]) consider(*v, lane.number);
    }
  }
  if (o.severity != Severity::kNone) {
    o.what = r.spec->metric.c_str();
    o.unit = r.unit;
  }
  return o;
}

namespace {

// The first pre-FEC BER threshold sets the profile's FEC limit (and the levels
// exported for alerting); the first Rx power and temperature ones, the alarm
// limits a forecast runs to.
void thresholdRoles(const ResolvedRule& r, int index, RuleProfile& prof) {
  const RuleSpec& spec = *r.spec;
  if (spec.metric == "pre_fec_ber_ratio" && prof.ber_rule < 0) {
    prof.ber_rule = index;
    if (r.p.limit) prof.fec_limit = *r.p.limit;
  }
  if (spec.lane_metric == LaneMetric::kRxPowerDbm && !prof.rx_alarm) prof.rx_alarm = r.p.crit_below;
  if (spec.module_metric == ModuleMetric::kTemperatureCelsius && !prof.temp_alarm) prof.temp_alarm = r.p.crit_above;
}

}  // namespace

extern const RuleType kThresholdRule{
    .name = "threshold",
    .metric = RuleMetric::kAny,
    .lane_light = LaneLight::kWhenLaneMetric,
    .evaluate = evaluateThreshold,
    .take_roles = thresholdRoles,
    // Pre-FEC BER past its level is nearer to costing packets than other values past theirs.
    .closeness =
        [](const ResolvedRule& r, bool critical) {
          if (r.spec->metric == "pre_fec_ber_ratio") return critical ? 0.8 : 0.5;
          return critical ? kDefaultCriticalCloseness : kDefaultWarningCloseness;
        },
};

}  // namespace opticsd
