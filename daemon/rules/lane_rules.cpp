#include "daemon/rules/lane_rules.hpp"

#include <array>

namespace opticsd {

namespace {

inline bool darkWhileOthersLit(const LaneScan& scan, const Lane& lane) {
  return usable(lane) && dark(lane) && scan.lit - (lit(lane) ? 1 : 0) > 0;
}

// Insertion sort: at most kMaxLanes values, usually 1 to 8.
void sortSmall(std::array<double, kMaxLanes>& v, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i) {
    const double x = v[i];
    std::size_t j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

}  // namespace

LaneScan scanDarkLanes(const Sample& s, const ResolvedRule&) {
  LaneScan scan;
  // One pass: which lanes have light, which are dark; a dark lane breaches when another has light.
  std::uint32_t lit_mask = 0;
  std::uint32_t dark_mask = 0;
  for (const Lane& lane : s.lanes) {
    const bool l = lit(lane);
    scan.lit += l ? 1 : 0;
    const std::size_t idx = laneIndex(lane);
    if (idx >= kMaxLanes) continue;
    lit_mask |= l ? 1u << idx : 0u;
    dark_mask |= usable(lane) && dark(lane) ? 1u << idx : 0u;
  }
  for (std::uint32_t rest = dark_mask; rest != 0; rest &= rest - 1) {
    const std::uint32_t bit = rest & -rest;
    if ((lit_mask & ~bit) != 0) scan.breaching |= bit;
  }
  return scan;
}

LaneScan scanLaneImbalance(const Sample& s, const ResolvedRule& r) {
  LaneScan scan;
  const LaneMetric metric = *r.spec->lane_metric;
  std::array<double, kMaxLanes> values{};
  std::size_t n = 0;
  for (const Lane& lane : s.lanes) {
    const auto& v = lane.values[metric];
    if (usable(lane) && v && n < values.size()) values[n++] = *v;
  }
  scan.values = static_cast<int>(n);
  if (n < 2) return scan;
  sortSmall(values, n);
  scan.median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const auto& v = lane.values[metric];
    if (idx < kMaxLanes && usable(lane) && v && !r.inside(scan.median - *v)) {
      scan.breaching |= 1u << idx;
    }
  }
  return scan;
}

Outcome evaluateLaneImbalance(const ResolvedRule& r, const LaneScan& scan, const Lane& lane) {
  Outcome o;
  const auto& v = lane.values[*r.spec->lane_metric];
  if (scan.values < 2 || !usable(lane) || !v) return o;
  o.value = scan.median - *v;
  o.setLevel(r.level(o.value));
  if (o.severity == Severity::kNone) return o;
  o.lane = static_cast<std::uint8_t>(lane.number);
  o.what = r.spec->lane_metric == LaneMetric::kRxPowerDbm ? "rx_power_below_lane_median" : "tx_power_below_lane_median";
  o.unit = " dB";
  return o;
}

Outcome evaluateLaneDark(const ResolvedRule& r, const LaneScan& scan, const Lane& lane) {
  Outcome o;
  if (!darkWhileOthersLit(scan, lane)) return o;
  o.severity = r.p.severity;
  o.value = lane.values[LaneMetric::kRxPowerDbm].value_or(kNoLightFloorDbm);
  o.lane = static_cast<std::uint8_t>(lane.number);
  o.what = "rx_power_dbm";
  o.unit = " dBm";
  o.note = lane.status.rx_los.value_or(false) ? "loss of signal while other lanes have light"
                                               : "no light while other lanes have light";
  return o;
}

extern const RuleType kLaneImbalanceRule{
    .name = "lane_imbalance",
    .metric = RuleMetric::kLanePower,
    .per_lane = true,
    .lane_light = LaneLight::kYes,
    .scan_lanes = scanLaneImbalance,
    .evaluate_lane = evaluateLaneImbalance,
};

extern const RuleType kLaneDarkRule{
    .name = "lane_dark",
    .needs_levels = false,
    .per_lane = true,
    .lane_light = LaneLight::kYes,
    .scan_lanes = scanDarkLanes,
    .evaluate_lane = evaluateLaneDark,
    .closeness = [](const ResolvedRule&, bool) { return 0.95; },
    .reason =
        [](const Finding& f) {
          return "lane failure: lane " + std::to_string(f.lane) + " has no light while the others do (" + f.detail +
                 ")";
        },
};

}  // namespace opticsd
