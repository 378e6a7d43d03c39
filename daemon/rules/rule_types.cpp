// The rule-type table: one row per `type:` a rule may have, in the order
// config errors list them. Each row is defined in its type's own file (named
// beside it); adding a type adds its declaration and its row here
// (README.md: how to add one).
#include <array>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {

extern const RuleType kThresholdRule;
extern const RuleType kFecUncorrectableRule;
extern const RuleType kModuleAlarmRule;
extern const RuleType kBerSlopeRule;
extern const RuleType kBiasDriftRule;
extern const RuleType kDropRule;
extern const RuleType kTemperatureClimbRule;
extern const RuleType kForecastRule;
extern const RuleType kLaneImbalanceRule;
extern const RuleType kLaneDarkRule;
extern const RuleType kFlappingRule;
extern const RuleType kLinkLossRule;
extern const RuleType kTxBiasLimitRule;
extern const RuleType kFecTailRule;

namespace {

const std::array kRuleTypes{
    &kThresholdRule,         // threshold_rule.cpp
    &kFecUncorrectableRule,  // fec_uncorrectable_rule.cpp
    &kModuleAlarmRule,       // module_alarm_rule.cpp
    &kBerSlopeRule,          // ber_slope_rule.cpp
    &kBiasDriftRule,         // bias_drift_rule.cpp
    &kDropRule,              // drop_rule.cpp
    &kTemperatureClimbRule,  // temperature_climb_rule.cpp
    &kForecastRule,          // forecast_rule.cpp
    &kLaneImbalanceRule,     // lane_imbalance_rule.cpp
    &kLaneDarkRule,          // lane_dark_rule.cpp
    &kFlappingRule,          // flapping_rule.cpp
    &kLinkLossRule,          // link_loss_rule.cpp
    &kTxBiasLimitRule,       // tx_bias_limit_rule.cpp
    &kFecTailRule,           // fec_tail_rule.cpp
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
