#include "daemon/rules/rule_profile.hpp"

#include <algorithm>

#include "daemon/rules/module_rule_state.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

bool ResolvedRule::ownsSlot(std::uint16_t s) const { return s >= slot && s < slot + (per_lane ? kMaxLanes : 1); }

const ResolvedRule* RuleProfile::find(std::string_view name) const {
  for (const auto& r : rules) {
    if (r.spec->name == name) return &r;
  }
  return nullptr;
}

const ResolvedRule* RuleProfile::ruleOfSlot(std::uint16_t slot) const {
  for (const auto& r : rules) {
    if (r.ownsSlot(slot)) return &r;
  }
  return nullptr;
}

std::string profileKey(const RuleSet& rules, const PortFacts& facts) {
  std::string key;
  for (const auto& spec : rules.rules) {
    for (const auto& ov : spec.overrides) key.push_back(matches(ov.match, facts, rules.port_groups) ? '1' : '0');
    key.push_back('|');
  }
  return key;
}

std::unique_ptr<RuleProfile> buildProfile(const RuleSet& rules, const std::string& key) {
  auto prof = std::make_unique<RuleProfile>();
  std::size_t o = 0;
  const auto newTrend = [&] { return static_cast<std::int8_t>(prof->trends++); };
  for (const auto& spec : rules.rules) {
    ResolvedRule r;
    r.spec = &spec;
    r.p.apply(spec.base);
    for (const auto& ov : spec.overrides) {
      if (key[o++] == '1') r.p.apply(ov.patch);
    }
    ++o;  // the separator
    if (!r.p.enabled) continue;
    r.unit = unitOf(spec.metric);
    r.inside_lo = std::max(r.p.warn_below.value_or(-HUGE_VAL), r.p.crit_below.value_or(-HUGE_VAL));
    r.inside_hi = std::min(r.p.warn_above.value_or(HUGE_VAL), r.p.crit_above.value_or(HUGE_VAL));
    r.per_lane = spec.kind == RuleKind::kLaneImbalance || spec.kind == RuleKind::kLaneDark;
    r.slot = prof->slots;
    prof->slots = static_cast<std::uint16_t>(prof->slots + (r.per_lane ? kMaxLanes : 1));
    const auto window = static_cast<std::int64_t>(r.p.window.count());
    switch (spec.kind) {
      case RuleKind::kBerSlope:
        r.trend = newTrend();
        r.lane_trend = static_cast<std::int8_t>(prof->lane_trends++);
        if (prof->ber_trend < 0) prof->ber_trend = r.trend, prof->ber_window = window;
        break;
      case RuleKind::kDrop:
        r.trend = newTrend();
        r.lane_trend = static_cast<std::int8_t>(prof->lane_trends++);
        if (spec.lane_metric == LaneMetric::kRxPowerDbm && prof->rx_trend < 0) {
          prof->rx_trend = r.trend, prof->rx_window = window;
        }
        break;
      case RuleKind::kTemperatureClimb:
        r.trend = newTrend();
        if (prof->temp_trend < 0) prof->temp_trend = r.trend, prof->temp_window = window;
        break;
      case RuleKind::kFlapping: r.trend = newTrend(); break;
      case RuleKind::kThreshold:
        if (spec.metric == "pre_fec_ber_ratio" && prof->ber_rule < 0) {
          prof->ber_rule = static_cast<int>(prof->rules.size());
          if (r.p.limit) prof->fec_limit = *r.p.limit;
        }
        if (spec.lane_metric == LaneMetric::kRxPowerDbm && !prof->rx_alarm) prof->rx_alarm = r.p.crit_below;
        if (spec.module_metric == ModuleMetric::kTemperatureCelsius && !prof->temp_alarm) {
          prof->temp_alarm = r.p.crit_above;
        }
        break;
      default: break;
    }
    prof->rules.push_back(r);
  }
  return prof;
}

}  // namespace opticsd
