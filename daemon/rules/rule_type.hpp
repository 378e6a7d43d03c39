#pragma once
// A rule type: what the config, the profiles, the engine and the suspect
// score know about one `type:` of rule, as one row. Each type defines its row
// beside its evaluation in its own file (<type>_rule.cpp); rule_types.cpp
// lists the rows. The engine and the scorer dispatch through
// the row and name no type. How to add one: README.md in this folder.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "daemon/rules/finding.hpp"
#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

// Which `metric:` a rule of the type takes.
enum class RuleMetric : std::uint8_t {
  kNone,       // none: the type knows what it reads
  kAny,        // any module or lane metric of the catalogue
  kLanePower,  // rx_power_dbm or tx_power_dbm
};

// Whether the type judges a lane's light, which a bouncing link takes away
// for a poll: such rules pause while the link is found flapping.
enum class LaneLight : std::uint8_t {
  kNo,
  kYes,
  kWhenLaneMetric,  // when its metric is a lane metric
};

// A per-lane rule's one scan of a module's lanes per poll: which lanes breach,
// so a healthy module needs no per-lane outcome, and what their outcomes are
// then judged against.
struct LaneScan {
  double median = 0;       // of the rule's metric over usable lanes (lane_imbalance)
  int values = 0;          // usable lanes with the metric
  int lit = 0;             // lanes with light
  LaneMask breaching = 0;  // bit (lane number - 1): the lane's outcome has a severity
};

struct RuleType {
  std::string_view name;  // the config's `type:`
  RuleMetric metric = RuleMetric::kNone;
  bool needs_levels = true;  // at least one of warn_above, crit_above, warn_below, crit_below
  // Per lane: one hysteresis slot and one finding per lane, through scan_lanes
  // and evaluate_lane; otherwise one per module, through evaluate.
  bool per_lane = false;
  bool trend = false;        // owns a trend window over the module (ResolvedRule::trend)
  bool lane_trends = false;  // owns a window per lane (ResolvedRule::lane_trend)
  LaneLight lane_light = LaneLight::kNo;
  bool means_bouncing = false;  // its active finding says the link bounces (pauses lane-light rules)

  Outcome (*evaluate)(const RuleInput& in, const ResolvedRule& r) = nullptr;
  LaneScan (*scan_lanes)(const Sample& s, const ResolvedRule& r) = nullptr;
  Outcome (*evaluate_lane)(const ResolvedRule& r, const LaneScan& scan, const Lane& lane) = nullptr;

  // Roles the rule takes in its profile (the FEC limit, the trend a forecast
  // reads); `index` is its place in RuleProfile::rules. Null: none.
  void (*take_roles)(const ResolvedRule& r, int index, RuleProfile& prof) = nullptr;
  // The finding's detail. Null: describe(o).
  std::string (*detail)(const Outcome& o, const ModuleRuleState& st) = nullptr;
  // The suspect score: how close an active finding is to costing packets
  // (0 to 1). Null: kDefaultCloseness.
  double (*closeness)(const ResolvedRule& r, bool critical) = nullptr;
  // The suspect's one-line reason when this finding wins. Null: "<rule>: <detail>".
  std::string (*reason)(const Finding& f) = nullptr;
};

// Closeness of a finding whose type says nothing else: critical, warning.
inline constexpr double kDefaultCriticalCloseness = 0.6;
inline constexpr double kDefaultWarningCloseness = 0.35;

// Every rule type, in the order the config's error messages list them.
std::span<const RuleType* const> ruleTypes();
// The type a config's `type:` names; null when none.
const RuleType* findRuleType(std::string_view name);

}  // namespace opticsd
