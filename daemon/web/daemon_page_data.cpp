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

namespace {

// A snapshot is one shared pointer per target (not per module), sorted by name.
std::shared_ptr<const std::vector<Sample>> findTarget(const LatestSamples::Snapshot& snapshot,
                                                      std::string_view target) {
  const auto it = std::lower_bound(snapshot.begin(), snapshot.end(), target,
                                   [](const auto& t, std::string_view name) { return t.target < name; });
  return it != snapshot.end() && it->target == target ? it->samples : nullptr;
}

}  // namespace

TargetState DaemonPageData::state(const std::string& name, const std::string& driver,
                                  const LatestSamples::Snapshot& snapshot) const {
  TargetState t;
  t.name = name;
  t.driver = driver;
  if (auto state = sources_.freshness->state(name)) {
    t.last_success_ms = state->last_success_ms;
    t.stale = state->stale;
  }
  if (auto s = findTarget(snapshot, name)) {
    t.has_samples = true;
    t.modules =
        static_cast<std::size_t>(std::count_if(s->begin(), s->end(), [](const Sample& x) { return x.module_present; }));
  }
  return t;
}

std::vector<TargetState> DaemonPageData::targets() const {
  std::vector<std::pair<std::string, std::string>> names;
  {
    std::lock_guard lock(mutex_);
    names = targets_;
  }
  // One snapshot for all targets: a snapshot per target made the fleet's list quadratic.
  const auto snapshot = sources_.samples->snapshot();
  std::vector<TargetState> out;
  out.reserve(names.size());
  for (const auto& [name, driver] : names) out.push_back(state(name, driver, snapshot));
  return out;
}

std::optional<TargetState> DaemonPageData::target(std::string_view name) const {
  std::pair<std::string, std::string> found;
  {
    std::lock_guard lock(mutex_);
    const auto it = std::lower_bound(targets_.begin(), targets_.end(), name,
                                     [](const auto& t, std::string_view n) { return t.first < n; });
    if (it == targets_.end() || it->first != name) return std::nullopt;
    found = *it;
  }
  return state(found.first, found.second, sources_.samples->snapshot());
}

std::shared_ptr<const std::vector<Sample>> DaemonPageData::samples(std::string_view target) const {
  return findTarget(sources_.samples->snapshot(), target);
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
