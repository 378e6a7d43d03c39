// One lane's power a set number of dB below the module's median lane, per
// lane. The module's lanes are scanned once per poll: a healthy module needs
// no per-lane outcome; a breaching lane's is built against the same median.
#include <array>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

// Insertion sort: at most kMaxLanes values, usually 1 to 8.
void sortSmall(std::array<double, kMaxLanes>& v, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i) {
    const double x = v[i];
    std::size_t j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
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
      scan.breaching |= laneBit(idx);
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

}  // namespace

extern const RuleType kLaneImbalanceRule{
    .name = "lane_imbalance",
    .metric = RuleMetric::kLanePower,
    .per_lane = true,
    .lane_light = LaneLight::kYes,
    .scan_lanes = scanLaneImbalance,
    .evaluate_lane = evaluateLaneImbalance,
};

}  // namespace opticsd
