#include "daemon/exporter/target_freshness.hpp"

#include "daemon/exporter/label_value.hpp"

namespace opticsd {

void TargetFreshness::polledOk(const std::string& target, const std::string& driver, std::int64_t started_ms) {
  std::lock_guard lock(mutex_);
  State& s = states_[target];
  s.driver = driver;
  s.last_success_ms = started_ms;
  s.stale = false;
}

void TargetFreshness::setStale(const std::string& target, const std::string& driver, bool stale) {
  std::lock_guard lock(mutex_);
  State& s = states_[target];
  s.driver = driver;
  s.stale = stale;
}

void TargetFreshness::removeTarget(const std::string& target) {
  std::lock_guard lock(mutex_);
  states_.erase(target);
}

std::optional<TargetFreshness::State> TargetFreshness::state(std::string_view target) const {
  std::lock_guard lock(mutex_);
  const auto it = states_.find(target);
  if (it == states_.end()) return std::nullopt;
  return it->second;
}

std::vector<prometheus::MetricFamily> TargetFreshness::Collect() const {
  States copy;
  {
    std::lock_guard lock(mutex_);
    copy = states_;
  }
  return render(copy);
}

std::vector<prometheus::MetricFamily> TargetFreshness::collectTarget(std::string_view target) const {
  States one;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = states_.find(target); it != states_.end()) one.insert(*it);
  }
  return render(one);
}

std::optional<std::vector<std::string>> TargetFreshness::collectedTargets() const {
  std::vector<std::string> names;
  std::lock_guard lock(mutex_);
  for (const auto& entry : states_) names.push_back(entry.first);
  return names;
}

std::vector<prometheus::MetricFamily> TargetFreshness::render(const States& states) {
  prometheus::MetricFamily stale{"opticsd_target_stale",
                                 "Whether the target's series are the values of its last successful poll, kept after "
                                 "failed polls for poll.keep_stale_for (1), or from its latest poll or none (0).",
                                 prometheus::MetricType::Gauge,
                                 {}};
  prometheus::MetricFamily last_success{"opticsd_target_last_success_timestamp_seconds",
                                        "UNIX time of the target's last successful poll, the time of the values "
                                        "served; time() minus it is their age.",
                                        prometheus::MetricType::Gauge,
                                        {}};
  auto gauge = [](const std::string& target, const std::string& driver, double value) {
    prometheus::ClientMetric m;
    m.label = {{"driver", driver}, {"target", target}};
    m.gauge.value = value;
    return m;
  };
  for (const auto& [raw_target, s] : states) {
    const std::string target = sanitizeLabelValue(raw_target);
    const std::string driver = sanitizeLabelValue(s.driver);
    stale.metric.push_back(gauge(target, driver, s.stale ? 1 : 0));
    if (s.last_success_ms) {
      last_success.metric.push_back(gauge(target, driver, static_cast<double>(*s.last_success_ms) / 1000.0));
    }
  }
  std::vector<prometheus::MetricFamily> out;
  for (auto* family : {&stale, &last_success}) {
    if (!family->metric.empty()) out.push_back(std::move(*family));
  }
  return out;
}

}  // namespace opticsd
