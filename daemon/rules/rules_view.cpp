#include "daemon/rules/rules_view.hpp"

#include "daemon/exporter/label_value.hpp"

namespace opticsd {

void RulesView::replaceTarget(const std::string& target, std::shared_ptr<const TargetRulesView> view) {
  std::lock_guard lock(mutex_);
  targets_[target] = std::move(view);
}

void RulesView::removeTarget(const std::string& target) {
  std::lock_guard lock(mutex_);
  targets_.erase(target);
}

std::vector<prometheus::MetricFamily> RulesView::Collect() const {
  Views targets;
  {
    std::lock_guard lock(mutex_);
    targets = targets_;
  }
  return render(targets);
}

std::vector<prometheus::MetricFamily> RulesView::collectTarget(std::string_view target) const {
  Views one;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = targets_.find(target); it != targets_.end()) one.insert(*it);
  }
  return render(one);
}

std::shared_ptr<const TargetRulesView> RulesView::target(std::string_view name) const {
  std::lock_guard lock(mutex_);
  const auto it = targets_.find(name);
  return it == targets_.end() ? nullptr : it->second;
}

std::optional<std::vector<std::string>> RulesView::collectedTargets() const {
  std::vector<std::string> names;
  std::lock_guard lock(mutex_);
  for (const auto& entry : targets_) names.push_back(entry.first);
  return names;
}

std::vector<prometheus::MetricFamily> RulesView::render(const Views& targets) {
  prometheus::MetricFamily findings{"opticsd_finding",
                                    "Active rules-engine finding on a module or lane (1 while active).",
                                    prometheus::MetricType::Gauge,
                                    {}};
  prometheus::MetricFamily score{"opticsd_straggler_suspect_score",
                                 "How likely the module is to slow training traffic, 0 (healthy) to 1 (losing frames).",
                                 prometheus::MetricType::Gauge,
                                 {}};
  prometheus::MetricFamily ber{"opticsd_pre_fec_ber_threshold_ratio",
                               "Pre-FEC BER level in force for the port, by severity (compare the BER against it).",
                               prometheus::MetricType::Gauge,
                               {}};
  prometheus::MetricFamily topology{"opticsd_port_topology_info",
                                    "What sits behind the port (host, NIC, GPU, rail, or the far-end switch port), "
                                    "from the topology config and LLDP; 1 where known.",
                                    prometheus::MetricType::Gauge,
                                    {}};
  const auto gauge = [](std::vector<prometheus::ClientMetric::Label> labels, double v) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    m.gauge.value = v;
    return m;
  };
  for (const auto& [target_raw, view] : targets) {
    const std::string target = sanitizeLabelValue(target_raw);
    for (const auto& f : view->findings) {
      std::vector<prometheus::ClientMetric::Label> labels{{"target", target}, {"port", sanitizeLabelValue(f.port)}};
      if (f.lane > 0) labels.push_back({"lane", std::to_string(f.lane)});
      labels.push_back({"rule", sanitizeLabelValue(f.rule)});
      labels.push_back({"severity", std::string(toString(f.severity))});
      if (f.shadow) labels.push_back({"mode", "shadow"});  // live series keep their labels as they were
      findings.metric.push_back(gauge(std::move(labels), 1));
    }
    for (const auto& p : view->ports) {
      const std::string port = sanitizeLabelValue(p.port);
      score.metric.push_back(gauge({{"target", target}, {"port", port}}, p.score));
      if (p.ber_warning)
        ber.metric.push_back(gauge({{"target", target}, {"port", port}, {"severity", "warning"}}, *p.ber_warning));
      if (p.ber_critical) {
        ber.metric.push_back(gauge({{"target", target}, {"port", port}, {"severity", "critical"}}, *p.ber_critical));
      }
      if (p.endpoint && !p.endpoint->empty()) {
        const Endpoint& ep = *p.endpoint;
        std::vector<prometheus::ClientMetric::Label> labels{{"target", target}, {"port", port}};
        const std::pair<const char*, const std::string*> fields[] = {{"host", &ep.host},
                                                                     {"nic", &ep.nic},
                                                                     {"gpu", &ep.gpu},
                                                                     {"rail", &ep.rail},
                                                                     {"peer_target", &ep.peer_target},
                                                                     {"peer_port", &ep.peer_port}};
        for (const auto& [name, value] : fields) {
          if (!value->empty()) labels.push_back({name, sanitizeLabelValue(*value)});
        }
        topology.metric.push_back(gauge(std::move(labels), 1));
      }
    }
  }
  std::vector<prometheus::MetricFamily> out;
  for (auto* family : {&findings, &score, &ber, &topology}) {
    if (!family->metric.empty()) out.push_back(std::move(*family));
  }
  return out;
}

}  // namespace opticsd
