#include "daemon/exporter/rendered_targets.hpp"

#include <algorithm>

#include "daemon/exporter/exposition_text.hpp"
#include "daemon/exporter/gzip_body.hpp"

namespace opticsd {
namespace {

std::shared_ptr<const FamilyTexts> render(const LatestSamples::TargetSamples& target, const ExportPolicy* policy,
                                          std::size_t first_family = 0, std::size_t end_family = SIZE_MAX) {
  auto out = std::make_shared<FamilyTexts>();
  for (std::string& body :
       sampleFamilyBodies({target}, SeriesSelection{policy, true, false}, first_family, end_family)) {
    // Kept until the next poll: without the slack of growing it (up to half).
    body.shrink_to_fit();
    out->push_back(body.empty() ? nullptr : std::make_shared<const std::string>(std::move(body)));
  }
  return out;
}

}  // namespace

const SharedText& familyHeader(std::size_t family) {
  static const std::vector<SharedText> headers = [] {
    std::vector<SharedText> all;
    for (std::size_t f = 0; f < sampleFamilyCount(); ++f) {
      all.push_back(std::make_shared<const std::string>(sampleFamilyHeader(f)));
    }
    return all;
  }();
  return headers.at(family);
}

std::vector<SharedText> targetText(const FamilyTexts& families) {
  std::vector<SharedText> parts;
  for (std::size_t f = 0; f < families.size(); ++f) {
    if (!families[f]) continue;
    parts.push_back(familyHeader(f));
    parts.push_back(families[f]);
  }
  return parts;
}

RenderedTargets::Entry& RenderedTargets::current(const LatestSamples::TargetSamples& target,
                                                 const std::shared_ptr<const ExportPolicy>& policy) {
  Entry& entry = entries_[target.target];
  // Owner equality: the weak reference keeps the old control block, so a new
  // poll can never share its address.
  const bool same_poll = !entry.samples.owner_before(target.samples) && !target.samples.owner_before(entry.samples);
  if (!same_poll || entry.policy != policy) entry = Entry{target.samples, policy, nullptr, nullptr, {}};
  return entry;
}

std::shared_ptr<const FamilyTexts> RenderedTargets::families(const LatestSamples::TargetSamples& target,
                                                             const std::shared_ptr<const ExportPolicy>& policy) {
  {
    std::lock_guard lock(mutex_);
    if (auto kept = current(target, policy).families) return kept;
  }
  // Rendering runs without the lock: other targets' scrapes go on.
  auto rendered = render(target, policy.get());
  std::lock_guard lock(mutex_);
  Entry& entry = current(target, policy);
  if (!entry.families) entry.families = std::move(rendered);
  return entry.families;
}

SharedText RenderedTargets::gzip(const LatestSamples::TargetSamples& target,
                                 const std::shared_ptr<const ExportPolicy>& policy) {
  std::shared_ptr<const FamilyTexts> families;
  {
    std::lock_guard lock(mutex_);
    Entry& entry = current(target, policy);
    if (entry.gzip) return entry.gzip;
    families = entry.families;
  }
  if (!families) families = render(target, policy.get());
  std::string text;
  for (const SharedText& part : targetText(*families)) text += *part;
  auto compressed = std::make_shared<const std::string>(gzipped(text));
  std::lock_guard lock(mutex_);
  Entry& entry = current(target, policy);
  if (!entry.gzip) entry.gzip = std::move(compressed);
  return entry.gzip;
}

namespace {

// The slice of `range` still held by some scrape, if any; drops the released ones.
std::shared_ptr<const FamilyTexts> held(std::vector<std::pair<FamilyRange, std::weak_ptr<const FamilyTexts>>>& slices,
                                        FamilyRange range) {
  std::erase_if(slices, [](const auto& s) { return s.second.expired(); });
  for (const auto& [r, texts] : slices) {
    if (r == range) return texts.lock();
  }
  return nullptr;
}

}  // namespace

std::shared_ptr<const FamilyTexts> RenderedTargets::slice(const LatestSamples::TargetSamples& target,
                                                          const std::shared_ptr<const ExportPolicy>& policy,
                                                          FamilyRange range) {
  {
    std::lock_guard lock(mutex_);
    Entry& entry = current(target, policy);
    if (entry.families) return entry.families;
    if (auto kept = held(entry.slices, range)) return kept;
  }
  auto rendered = render(target, policy.get(), range.first, range.end);
  std::lock_guard lock(mutex_);
  Entry& entry = current(target, policy);
  if (auto kept = held(entry.slices, range)) return kept;
  entry.slices.emplace_back(range, rendered);
  return rendered;
}

void RenderedTargets::retain(const std::vector<std::string>& names) {
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& e) { return !std::binary_search(names.begin(), names.end(), e.first); });
}

void RenderedTargets::dropStale() {
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [](const auto& e) { return e.second.samples.expired(); });
}

std::size_t RenderedTargets::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace opticsd
