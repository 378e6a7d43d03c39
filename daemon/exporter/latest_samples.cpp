#include "daemon/exporter/latest_samples.hpp"

#include <utility>

namespace opticsd {

void LatestSamples::replaceTarget(const std::string& target, std::vector<Sample> samples) {
  // Allocate outside the lock, and let the old vector die outside it too.
  std::shared_ptr<const std::vector<Sample>> fresh = std::make_shared<const std::vector<Sample>>(std::move(samples));
  const std::shared_ptr<const std::vector<Sample>> published = fresh;
  {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = targets_.try_emplace(target);
    it->second.swap(fresh);
  }
  if (listener_) listener_(target, *published);
}

void LatestSamples::removeTarget(const std::string& target) {
  std::shared_ptr<const std::vector<Sample>> old;
  {
    std::lock_guard lock(mutex_);
    auto it = targets_.find(target);
    if (it == targets_.end()) return;
    old = std::move(it->second);
    targets_.erase(it);
  }
}

void LatestSamples::keepTarget(const std::string& target) {
  if (listener_) listener_(target, {});
}

LatestSamples::Snapshot LatestSamples::snapshot() const {
  Snapshot out;
  std::lock_guard lock(mutex_);
  out.reserve(targets_.size());
  for (const auto& [target, samples] : targets_) out.push_back({target, samples});
  return out;
}

std::optional<LatestSamples::TargetSamples> LatestSamples::after(std::string_view name) const {
  std::lock_guard lock(mutex_);
  const auto it = targets_.upper_bound(name);
  if (it == targets_.end()) return std::nullopt;
  return TargetSamples{it->first, it->second};
}

std::size_t LatestSamples::targetCount() const {
  std::lock_guard lock(mutex_);
  return targets_.size();
}

}  // namespace opticsd
