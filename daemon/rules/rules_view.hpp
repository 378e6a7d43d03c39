#pragma once
// What the rules engine publishes for /metrics, per target, and the
// Collectable that renders it:
//
//   opticsd_finding{target,port,[lane,]rule,severity[,mode="shadow"]} 1   while a finding is active
//       (mode="shadow" only for a rule on trial, which the shipped alerts leave out)
//   opticsd_straggler_suspect_score{target,port}            0..1 for every evaluated module
//   opticsd_pre_fec_ber_threshold_ratio{target,port,severity}  the pre-FEC BER levels in force
//   opticsd_port_topology_info{target,port,host,nic,gpu,rail,peer_target,peer_port} 1
//       what sits behind the port, where known (empty fields left out), so
//       alerts and dashboards name the GPU host and rail a bad optic slows
//
// Thread-safety: the engine replaces a target's view on the polling thread;
// Collect() runs on scrape threads. A mutex guards only the pointer swap and
// the copy of the shared_ptrs; rendering works on immutable views.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/exporter/target_collectable.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/topology/topology.hpp"

namespace opticsd {

struct TargetRulesView {
  struct FindingRow {
    std::string port;
    int lane = 0;
    std::string rule;
    Severity severity = Severity::kWarning;
    bool shadow = false;
  };
  struct PortRow {
    std::string port;
    double score = 0;
    std::optional<double> ber_warning;
    std::optional<double> ber_critical;
    // Null when the topology knows nothing of the port: most ports of a
    // fleet, so the row does not carry six empty strings for each.
    std::unique_ptr<const Endpoint> endpoint;
  };
  std::vector<FindingRow> findings;
  std::vector<PortRow> ports;
};

class RulesView : public prometheus::Collectable, public TargetCollectable {
 public:
  void replaceTarget(const std::string& target, std::shared_ptr<const TargetRulesView> view);
  void removeTarget(const std::string& target);

  std::vector<prometheus::MetricFamily> Collect() const override;
  // One target's series, for /metrics?target=NAME (no copy of the others).
  std::vector<prometheus::MetricFamily> collectTarget(std::string_view target) const override;
  std::optional<std::vector<std::string>> collectedTargets() const override;

  // One target's published view (null when none), for the operator's pages;
  // the view is immutable, so it is read without the lock.
  std::shared_ptr<const TargetRulesView> target(std::string_view name) const;

 private:
  using Views = std::map<std::string, std::shared_ptr<const TargetRulesView>, std::less<>>;
  static std::vector<prometheus::MetricFamily> render(const Views& targets);

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const TargetRulesView>, std::less<>> targets_;
};

}  // namespace opticsd
