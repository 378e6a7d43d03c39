// One lane dark (no light, or LOS) while others have light: a lane failure,
// per lane. One pass over the lanes per poll says which lanes breach.
#include "daemon/rules/flapping_rule.hpp"
#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

inline bool darkWhileOthersLit(const LaneScan& scan, const Lane& lane) {
  return usable(lane) && dark(lane) && scan.lit - (lit(lane) ? 1 : 0) > 0;
}

LaneScan scanDarkLanes(const Sample& s, const ResolvedRule&) {
  LaneScan scan;
  // One pass: which lanes have light, which are dark; a dark lane breaches when another has light.
  LaneMask lit_mask = 0;
  LaneMask dark_mask = 0;
  for (const Lane& lane : s.lanes) {
    const bool l = lit(lane);
    scan.lit += l ? 1 : 0;
    const std::size_t idx = laneIndex(lane);
    if (idx >= kMaxLanes) continue;
    lit_mask |= l ? laneBit(idx) : 0;
    dark_mask |= usable(lane) && dark(lane) ? laneBit(idx) : 0;
  }
  for (LaneMask rest = dark_mask; rest != 0; rest &= rest - 1) {
    const std::uint32_t bit = rest & -rest;
    if ((lit_mask & ~bit) != 0) scan.breaching |= bit;
  }
  return scan;
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

}  // namespace

extern const RuleType kLaneDarkRule{
    .name = "lane_dark",
    .needs_levels = false,
    .per_lane = true,
    .lane_light = LaneLight::kYes,
    .scan_lanes = scanDarkLanes,
    .evaluate_lane = evaluateLaneDark,
    .detail = linkDownDetail,
    .closeness = [](const ResolvedRule&, bool) { return 0.95; },
    .reason =
        [](const Finding& f) {
          return "lane failure: lane " + std::to_string(f.lane) + " has no light while the others do (" + f.detail +
                 ")";
        },
};

}  // namespace opticsd
