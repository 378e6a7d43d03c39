#include "daemon/exporter/rendered_targets.hpp"

#include <algorithm>

#include "daemon/exporter/exposition_text.hpp"
#include "daemon/exporter/gzip_body.hpp"

namespace opticsd {

SharedText RenderedTargets::get(const LatestSamples::TargetSamples& target,
                                const std::shared_ptr<const ExportPolicy>& policy, bool gzip) {
  SharedText text;
  {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(target.target);
    if (it != entries_.end() && it->second.samples == target.samples && it->second.policy == policy) {
      if (gzip && it->second.gzip) return it->second.gzip;
      if (!gzip && it->second.text) return it->second.text;
      text = it->second.text;
    }
  }
  // Rendering and compressing run without the lock: other targets' scrapes go on.
  if (!text) {
    auto rendered = std::make_shared<std::string>();
    appendSampleExposition({target}, *rendered, SeriesSelection{policy.get(), true, false});
    text = std::move(rendered);
  }
  SharedText compressed = gzip ? std::make_shared<const std::string>(gzipped(*text)) : nullptr;
  std::lock_guard lock(mutex_);
  Entry& entry = entries_[target.target];
  if (entry.samples != target.samples || entry.policy != policy) entry = Entry{target.samples, policy, nullptr, nullptr};
  // Only the form a scraper asked for is kept: Prometheus always asks for
  // gzip, and the plain text is about seven times its size.
  if (compressed) {
    if (!entry.gzip) entry.gzip = std::move(compressed);
    return entry.gzip;
  }
  if (!entry.text) entry.text = std::move(text);
  return entry.text;
}

void RenderedTargets::retain(const std::vector<std::string>& names) {
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& e) { return !std::binary_search(names.begin(), names.end(), e.first); });
}

std::size_t RenderedTargets::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace opticsd
