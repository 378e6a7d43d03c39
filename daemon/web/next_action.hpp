#pragma once
// What to do about a finding, per rule, as an experienced fabric engineer
// would say it to the on-call: the cheapest likely fix first, and what to
// look at before touching anything. Keyed by the shipped rule names; a rule a
// config adds gets the generic advice.

#include <string>
#include <string_view>

namespace opticsd::web {

struct NextAction {
  std::string_view step;  // short: "Clean the connector"
  std::string_view why;   // one or two sentences of reasoning and order of work
};

NextAction nextAction(std::string_view rule);

}  // namespace opticsd::web
