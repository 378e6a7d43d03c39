#include "daemon/web/daemon_page_data.hpp"

#include <algorithm>

namespace opticsd::web {

const Sample* findPort(const std::vector<Sample>& samples, std::string_view port) {
  for (const auto& s : samples) {
    if (s.port == port) return &s;
  }
  return nullptr;
}

const TargetRulesView::PortRow* findPortRow(const TargetRulesView& view, std::string_view port) {
  for (const auto& row : view.ports) {
    if (row.port == port) return &row;
  }
  return nullptr;
}

void DaemonPageData::setTargets(std::vector<std::pair<std::string, std::string>> targets) {
  std::sort(targets.begin(), targets.end());
  std::lock_guard lock(mutex_);
  targets_ = std::move(targets);
}

std::vector<TargetState> DaemonPageData::targets() const {
  std::vector<std::pair<std::string, std::string>> names;
  {
    std::lock_guard lock(mutex_);
    names = targets_;
  }
  std::vector<TargetState> out;
  out.reserve(names.size());
  for (const auto& [name, driver] : names) {
    TargetState t;
    t.name = name;
    t.driver = driver;
    if (auto state = sources_.freshness->state(name)) {
      t.last_success_ms = state->last_success_ms;
      t.stale = state->stale;
    }
    if (auto s = samples(name)) {
      t.has_samples = true;
      t.modules = static_cast<std::size_t>(
          std::count_if(s->begin(), s->end(), [](const Sample& x) { return x.module_present; }));
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::shared_ptr<const std::vector<Sample>> DaemonPageData::samples(std::string_view target) const {
  // A snapshot is one shared pointer per target (not per module), sorted by name.
  const auto snapshot = sources_.samples->snapshot();
  const auto it = std::lower_bound(snapshot.begin(), snapshot.end(), target,
                                   [](const auto& t, std::string_view name) { return t.target < name; });
  return it != snapshot.end() && it->target == target ? it->samples : nullptr;
}

std::shared_ptr<const TargetRulesView> DaemonPageData::rules(std::string_view target) const {
  return sources_.rules ? sources_.rules->target(target) : nullptr;
}

void DaemonPageData::setStoreProblem(std::string problem) {
  std::lock_guard lock(mutex_);
  store_problem_ = std::move(problem);
}

std::string DaemonPageData::historyWarning() const {
  std::lock_guard lock(mutex_);
  return store_problem_;
}

}  // namespace opticsd::web
