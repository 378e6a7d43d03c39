#include "daemon/rules/flapping_rule.hpp"

#include <algorithm>

#include "daemon/rules/rule_type.hpp"
#include "drivers/link_down_reason.hpp"

namespace opticsd {

LaneMask losMask(const Sample& s) {
  LaneMask los = 0;
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    if (idx < kMaxLanes && (lane.status.rx_los.value_or(false) || lane.status.rx_lol.value_or(false))) {
      los |= laneBit(idx);
    }
  }
  return los;
}

Outcome evaluateFlapping(const RuleInput& in, const ResolvedRule& r) {
  const Sample& s = in.s;
  const ModuleRuleState& st = in.st;
  double events = 0;
  if (s.link.down_events_total && st.last_down_events && *s.link.down_events_total >= *st.last_down_events) {
    events = static_cast<double>(*s.link.down_events_total - *st.last_down_events);
  } else if (!s.link.down_events_total && s.link.up && st.last_up && *st.last_up && !*s.link.up) {
    events = 1;  // no counter: count up->down transitions we saw
  }
  // A link event is the port's: one bounce that takes LOS on every lane is
  // one event, not one per lane.
  const bool los_rose = (in.agg.los_mask & ~st.last_los_mask) != 0;
  events = std::max(events, los_rose ? 1.0 : 0.0);
  const auto window = static_cast<std::int64_t>(r.p.window.count());
  TrendWindow& w = in.st.trends[static_cast<std::size_t>(r.trend)];
  w.add(in.now, events, window);
  Outcome o;
  o.value = w.sum() * 3'600'000.0 / static_cast<double>(window);
  o.setLevel(r.level(o.value));
  o.what = "link_down_events_per_hour";
  o.unit = "";
  return o;
}

std::string linkDownDetail(const Outcome& o, const ModuleRuleState& st) {
  std::string d = describe(o);
  if (st.last_down_reason) d += "; last down: " + describeLinkDown(*st.last_down_reason);
  return d;
}

extern const RuleType kFlappingRule{
    .name = "flapping",
    .trend = true,
    .means_bouncing = true,
    .evaluate = evaluateFlapping,
    .detail = linkDownDetail,
    .closeness = [](const ResolvedRule&, bool critical) { return critical ? 0.9 : 0.7; },
    .reason = [](const Finding& f) { return "link flapping: " + f.detail; },
};

}  // namespace opticsd
