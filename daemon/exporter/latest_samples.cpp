#include "daemon/exporter/latest_samples.hpp"

#include <algorithm>
#include <utility>

namespace opticsd {

void LatestSamples::shareUnchanged(std::vector<Sample>& fresh, const std::vector<Sample>& previous) {
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    Sample& now = fresh[i];
    // A poll lists its ports in the same order as the last one, nearly always.
    auto before =
        i < previous.size() && previous[i].port == now.port
            ? previous.begin() + static_cast<std::ptrdiff_t>(i)
            : std::find_if(previous.begin(), previous.end(), [&](const Sample& old) { return old.port == now.port; });
    if (before == previous.end()) continue;
    now.shared_identity.shareIfEqual(before->shared_identity);
    now.shared_thresholds.shareIfEqual(before->shared_thresholds);
  }
}

void LatestSamples::replaceTarget(const std::string& target, std::vector<Sample> samples) {
  std::shared_ptr<const std::vector<Sample>> previous;
  {
    std::lock_guard lock(mutex_);
    if (auto it = targets_.find(target); it != targets_.end()) previous = it->second;
  }
  // The previous poll's Samples are immutable: compared without the lock.
  if (previous) shareUnchanged(samples, *previous);
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
