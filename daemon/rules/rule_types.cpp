// The rule-type table: one row per `type:` a rule may have. Each row is
// defined in its type's own file; adding a type adds its name here, once in
// the declaration and once in the table (README.md: how to add one).
#include <array>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {

extern const RuleType kThresholdRule, kFecUncorrectableRule, kModuleAlarmRule, kBerSlopeRule, kBiasDriftRule,
    kDropRule, kTemperatureClimbRule, kForecastRule, kLaneImbalanceRule, kLaneDarkRule, kFlappingRule,
    kLinkLossRule, kTxBiasLimitRule;

namespace {

const std::array kRuleTypes{
    &kThresholdRule,
    &kFecUncorrectableRule,
    &kModuleAlarmRule,
    &kBerSlopeRule,
    &kBiasDriftRule,
    &kDropRule,
    &kTemperatureClimbRule,
    &kForecastRule,
    &kLaneImbalanceRule,
    &kLaneDarkRule,
    &kFlappingRule,
    &kLinkLossRule,
    &kTxBiasLimitRule,
};

}  // namespace

std::span<const RuleType* const> ruleTypes() { return kRuleTypes; }

const RuleType* findRuleType(std::string_view name) {
  for (const RuleType* t : kRuleTypes) {
    if (t->name == name) return t;
  }
  return nullptr;
}

}  // namespace opticsd
