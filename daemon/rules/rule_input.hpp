#pragma once
// What every rule reads on one poll of one module: its state, its profile,
// the Sample, and the aggregates all rules share (computed once per poll).

#include <cstdint>
#include <optional>

#include "daemon/rules/module_rule_state.hpp"
#include "daemon/rules/rule_profile.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

struct Aggregates {
  std::optional<double> worst_ber;  // module or worst usable lane
  std::optional<double> min_rx;     // lowest usable lane Rx power
  std::optional<double> temperature;
  LaneMask los_mask = 0;  // lanes with LOS or LOL (flapping_rule's losMask)
};

// The far end of a module's link, where the topology knows it and it is
// polled (link_loss): looked up only by the rules that ask.
class LinkPeers {
 public:
  virtual const ModuleRuleState* peerOf(ModuleRuleState& st) = 0;

 protected:
  ~LinkPeers() = default;
};

struct RuleInput {
  ModuleRuleState& st;
  const RuleProfile& prof;
  const Sample& s;
  const Aggregates& agg;
  std::int64_t now;
  // The median temperature slope of the modules on the same target (C/h),
  // when enough of them have one: the room and the job, not the optic.
  std::optional<double> common_temp_slope;
  LinkPeers& peers;
};

}  // namespace opticsd
