// Every rule the daemon ships has advice of its own on the optic's page: a
// new rule type that forgets it would get the generic text, which tells the
// on-call nothing about what to do.
#include "daemon/web/next_action.hpp"

#include <gtest/gtest.h>

#include "daemon/rules/rule_config.hpp"

namespace opticsd::web {
namespace {

TEST(NextAction, EveryShippedRuleHasItsOwnAdvice) {
  const NextAction generic = nextAction("a_rule_a_site_wrote");
  ASSERT_FALSE(defaultRuleSet().rules.empty());
  for (const RuleSpec& rule : defaultRuleSet().rules) {
    const NextAction advice = nextAction(rule.name);
    EXPECT_NE(advice.step, generic.step) << rule.name << " gets the generic advice";
    EXPECT_FALSE(advice.why.empty()) << rule.name;
  }
}

}  // namespace
}  // namespace opticsd::web
