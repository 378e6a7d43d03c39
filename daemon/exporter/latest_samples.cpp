#include "daemon/exporter/latest_samples.hpp"

#include <utility>

#include "daemon/exporter/fec_bin_retention.hpp"
#include "daemon/pipeline/unchanged_modules.hpp"

namespace opticsd {

void LatestSamples::shareUnchanged(std::vector<Sample>& fresh, const std::vector<Sample>& previous) {
  shareUnchangedModules(fresh, previous);
}

void LatestSamples::replaceTarget(const std::string& target, std::vector<Sample> samples) {
  std::shared_ptr<const std::vector<Sample>> previous;
  {
    std::lock_guard lock(mutex_);
    if (auto it = targets_.find(target); it != targets_.end()) previous = it->second;
  }
  // The previous poll's Samples are immutable: compared without the lock.
  if (previous) shareUnchanged(samples, *previous);
  // Allocate outside the lock.
  replaceTarget(target, std::make_shared<const std::vector<Sample>>(std::move(samples)));
}

void LatestSamples::keepFecBinsAtFullDetailOnly(std::shared_ptr<const ExportPolicy> policy) {
  std::lock_guard lock(mutex_);
  bins_policy_ = std::move(policy);
}

void LatestSamples::replaceTarget(const std::string& target, std::shared_ptr<const std::vector<Sample>> samples) {
  std::shared_ptr<const ExportPolicy> policy;
  {
    std::lock_guard lock(mutex_);
    policy = bins_policy_;
  }
  // Copied (outside the lock) only where some port's bins are not exported.
  if (policy) {
    if (auto slim = withoutUnexportedFecBins(target, *samples, *policy)) {
      samples = std::make_shared<const std::vector<Sample>>(std::move(*slim));
    }
  }
  {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = targets_.try_emplace(target);
    it->second.swap(samples);
  }
  // `samples` now holds the previous poll's: it dies here, outside the lock.
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
