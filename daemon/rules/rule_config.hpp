#pragma once
// Declarative rules as the config (and the shipped default set) spell them:
//
//   rules:
//     defaults: true            # start from daemon/rules/default_rules.yaml (default)
//     port_groups:
//       - {name: uplinks, targets: ["spine-*"], ports: ["Ethernet1", "Ethernet2"]}
//     rules:                    # a shipped name changes only the fields given; a new name adds a rule
//       - name: pre_fec_ber
//         type: threshold       # see rule_types.cpp and README.md
//         metric: pre_fec_ber_ratio
//         warn_above: 1e-12
//         crit_above: 1e-9
//         mode: live            # or shadow: evaluated and recorded, but no suspect score and no alert
//         overrides:            # applied in order where `match` holds; later ones win
//           - match: {modulation: pam4}
//             warn_above: 2.4e-6
//
// Every problem is a ConfigIssue whose key names the rule ("rules.rules[2] 'pre_fec_ber'.warn_above").
// Value types; built once per config load, then read-only.

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/rules/finding.hpp"
#include "drivers/measurement.hpp"
#include "drivers/options/option_reader.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

struct RuleType;  // rule_type.hpp: one row per `type:` (rule_types.cpp lists them)

// The fields a rule sets and an override may change; unset fields keep
// what the rule (or the built-in default) had.
struct RuleParamsPatch {
  std::optional<bool> enabled;
  std::optional<double> warn_above, crit_above, warn_below, crit_below;
  std::optional<double> limit;      // pre-FEC BER where errors start costing packets (the FEC limit)
  std::optional<double> min_value;  // ber_slope: ignore BER below this
  // threshold: a module's own low warning/alarm for the metric, where it
  // advertises one below the rule's level, is the level (its receiver's sensitivity)
  std::optional<bool> module_levels;
  std::optional<std::chrono::milliseconds> window;
  std::optional<int> raise_after;
  std::optional<int> clear_after;
  std::optional<Severity> severity;  // for rules without levels (lane_dark, module_alarm's ceiling)
};

// Which side of a level a value is on.
enum class Bound : std::uint8_t { kNone, kAbove, kBelow };

// Where a value stands against a rule's levels: the worst level it crossed.
struct Level {
  Severity severity = Severity::kNone;
  Bound bound = Bound::kNone;
  double limit = 0;  // the level crossed; meaningful when bound is set
};

// What a rule's parameters are at a port, every override applied.
struct RuleParams {
  bool enabled = true;
  std::optional<double> warn_above, crit_above, warn_below, crit_below;
  std::optional<double> limit;
  std::optional<double> min_value;
  bool module_levels = false;
  std::chrono::milliseconds window{std::chrono::minutes(30)};
  int raise_after = 2;
  int clear_after = 3;
  Severity severity = Severity::kWarning;

  void apply(const RuleParamsPatch& patch);
  // The worst level `value` crosses (critical before warning); none when inside them.
  // Inline: every rule calls it on every poll.
  Level level(double value) const {
    if (crit_above && value > *crit_above) return {Severity::kCritical, Bound::kAbove, *crit_above};
    if (crit_below && value < *crit_below) return {Severity::kCritical, Bound::kBelow, *crit_below};
    if (warn_above && value > *warn_above) return {Severity::kWarning, Bound::kAbove, *warn_above};
    if (warn_below && value < *warn_below) return {Severity::kWarning, Bound::kBelow, *warn_below};
    return {};
  }
  Severity classify(double value) const { return level(value).severity; }
};

struct RuleMatch {
  std::vector<std::string> media;        // globs on ModuleIdentity::media
  std::vector<std::string> form_factor;  // globs
  std::vector<std::string> targets;      // globs
  std::vector<std::string> ports;        // globs
  std::vector<std::string> port_groups;  // names from rules.port_groups
  std::optional<Modulation> modulation;
  std::optional<bool> fec;  // the port reports FEC counters
  std::optional<double> min_speed_gbps, max_speed_gbps;
};

struct RuleOverride {
  RuleMatch match;
  RuleParamsPatch patch;
};

struct RuleSpec {
  std::string name;
  const RuleType* type = nullptr;  // set for every rule of a parsed set
  std::string metric;              // catalogue key (module, lane or both)
  std::optional<ModuleMetric> module_metric;
  std::optional<LaneMetric> lane_metric;
  RuleParamsPatch base;
  std::vector<RuleOverride> overrides;
  // `mode: shadow`: findings are raised, recorded and exported (mode="shadow")
  // like any other, but count for no suspect score and page no one, so a new
  // rule or level is trialled on the whole fleet before it goes live.
  bool shadow = false;
};

struct PortGroup {
  std::string name;
  std::vector<std::string> targets;  // globs; empty: any
  std::vector<std::string> ports;    // globs; empty: any
};

struct RuleSet {
  std::vector<RuleSpec> rules;
  std::vector<PortGroup> port_groups;
  const RuleSpec* find(std::string_view name) const;
};

// Where a rule is evaluated: what the match keys look at.
struct PortFacts {
  std::string_view target;
  std::string_view port;
  std::string_view media;
  std::string_view form_factor;
  Modulation modulation = Modulation::kUnknown;
  bool fec = false;
  std::optional<double> speed_gbps;
};

bool matches(const RuleMatch& match, const PortFacts& facts, const std::vector<PortGroup>& groups);
bool globMatch(std::string_view pattern, std::string_view text);

// Reads the `rules:` section (a null node gives the shipped defaults).
// Problems are appended to `issues`; the returned set is only meaningful when
// none were added.
RuleSet parseRules(const YAML::Node& node, const std::string& file, std::vector<ConfigIssue>& issues);

// The shipped default set alone (daemon/rules/default_rules.yaml).
const RuleSet& defaultRuleSet();
const std::string& defaultRulesText();

}  // namespace opticsd
