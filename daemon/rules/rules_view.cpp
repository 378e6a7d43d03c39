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
  std::map<std::string, std::shared_ptr<const TargetRulesView>, std::less<>> targets;
  {
    std::lock_guard lock(mutex_);
    targets = targets_;
  }
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
      findings.metric.push_back(gauge(std::move(labels), 1));
    }
    for (const auto& p : view->ports) {
      const std::string port = sanitizeLabelValue(p.port);
      score.metric.push_back(gauge({{"target", target}, {"port", port}}, p.score));
      if (p.ber_warning) ber.metric.push_back(gauge({{"target", target}, {"port", port}, {"severity", "warning"}}, *p.ber_warning));
      if (p.ber_critical) {
        ber.metric.push_back(gauge({{"target", target}, {"port", port}, {"severity", "critical"}}, *p.ber_critical));
      }
    }
  }
  std::vector<prometheus::MetricFamily> out;
  for (auto* family : {&findings, &score, &ber}) {
    if (!family->metric.empty()) out.push_back(std::move(*family));
  }
  return out;
}

}  // namespace opticsd
