#pragma once
// The rules engine: keeps a small state per module, evaluates the rule set on
// every poll's Samples, raises and clears Findings with hysteresis (N
// breaching polls raise, M clean ones clear; one log line each), scores each
// module as a straggler suspect, and publishes findings, scores and the
// pre-FEC BER levels in force for /metrics.
//
// Rules resolve per module (media, modulation, speed, FEC, port group) once
// per identity change into a shared profile (rule_profile), so a poll costs
// one pass over the profile's rules with no allocation and no text on a
// healthy module. Each rule type is a row of the rule-type table
// (rule_type.hpp) defined in its own file, which this class dispatches
// through; it owns the module states, hysteresis, findings and publishing.
//
// Tx bias baselines are sent to the sink when learned and taken back from it
// at construction (FindingSink::takeStoredBaselines), so a restart does not
// re-learn them from an already drifted module.
//
// Threading: evaluate(), setNeighbors(), reconfigure() and restore() run on
// the polling thread only. view() is the Collectable for scrape threads. The
// sink is called on the polling thread and must not block.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "daemon/rules/finding.hpp"
#include "daemon/rules/finding_sink.hpp"
#include "daemon/rules/rule_config.hpp"
#include "daemon/rules/rules_view.hpp"
#include "daemon/rules/suspect.hpp"
#include "daemon/topology/topology.hpp"
#include "drivers/driver.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class RulesEngine {
 public:
  // `sink` may be null (no history); it must outlive the engine. Its stored
  // bias baselines are taken here.
  RulesEngine(RuleSet rules, Topology topology, FindingSink* sink = nullptr);
  ~RulesEngine();
  RulesEngine(const RulesEngine&) = delete;
  RulesEngine& operator=(const RulesEngine&) = delete;

  // One poll of one target (the pipeline stage).
  void evaluate(const std::string& target, const std::vector<Sample>& samples);
  // LLDP neighbours one target reported (the pipeline's neighbour stage).
  void setNeighbors(const std::string& target, const std::vector<LinkNeighbor>& neighbors);

  // A reload: new rules and configured topology; module state, active
  // findings (of rules that still exist) and LLDP neighbours are kept.
  void reconfigure(RuleSet rules, Topology topology);
  // Active findings from the store after a restart: adopted as active when
  // their module is first seen, then cleared by the normal clean-poll count.
  void restore(std::vector<Finding> active);
  // Forgets targets no longer polled (their series disappear).
  void retainTargets(const std::vector<std::string>& targets);

  std::vector<Finding> activeFindings() const;
  std::vector<Suspect> suspects() const;  // score > 0, highest first
  std::shared_ptr<RulesView> view() const { return view_; }
  const Topology& topology() const { return topology_; }
  std::size_t modules() const;
  static std::size_t moduleStateBytes();  // sizeof the per-module state, without its vectors
  // Trend windows allocated over every module (their own and their lanes'):
  // what tests and the memory bench check is made only where it is used.
  std::size_t trendWindows() const;

 private:
  struct TargetState;
  struct Impl;

  std::unique_ptr<Impl> impl_;
  Topology topology_;
  std::shared_ptr<RulesView> view_;
};

}  // namespace opticsd
