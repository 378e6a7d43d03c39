#include "daemon/rules/rule_profile.hpp"

#include <algorithm>

#include "daemon/rules/module_rule_state.hpp"
#include "daemon/rules/rule_outcome.hpp"
#include "daemon/rules/rule_type.hpp"

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
    const RuleType& type = *spec.type;
    r.per_lane = type.per_lane;
    r.slot = prof->slots;
    prof->slots = static_cast<std::uint16_t>(prof->slots + (r.per_lane ? kMaxLanes : 1));
    if (type.trend) r.trend = static_cast<std::int8_t>(prof->trends++);
    if (type.lane_trends) r.lane_trend = static_cast<std::int8_t>(prof->lane_trends++);
    if (type.take_roles) type.take_roles(r, static_cast<int>(prof->rules.size()), *prof);
    prof->rules.push_back(r);
  }
  return prof;
}

}  // namespace opticsd
