#pragma once
// Render once per poll, serve many: a target's series text, one string per
// family (and its whole gzip form), is rendered by the first scrape after its
// poll lands and kept, immutable, until the next poll replaces its Samples or
// the export policy changes. Every other scrape of that poll, per target or
// whole-instance, is served from the same buffers.
//
// Thread-safety: every method may be called from any thread at once; two
// scrapes racing on a fresh poll may both render it (the results are equal,
// one is kept).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/shared_buffer_body.hpp"
#include "daemon/exporter/slice_plan.hpp"

namespace opticsd {

// The series lines of one target, one entry per family in exposition order
// (null where the family has no series of this target).
using FamilyTexts = std::vector<SharedText>;

class RenderedTargets {
 public:
  // `target`'s series under `policy`, family by family.
  std::shared_ptr<const FamilyTexts> families(const LatestSamples::TargetSamples& target,
                                              const std::shared_ptr<const ExportPolicy>& policy);

  // `target`'s whole text (HELP/TYPE lines included), gzip-compressed. Only
  // this form is kept when only it is asked for: Prometheus always asks for
  // gzip, and the plain text is about seven times its size.
  SharedText gzip(const LatestSamples::TargetSamples& target, const std::shared_ptr<const ExportPolicy>& policy);

  // A whole-instance scrape's view: `target`'s series of the families in
  // `range` (the others null; all of them if a plain scrape kept the whole
  // render). Kept only while a scrape holds it, and shared with every scrape
  // that asks for the same range: a whole-instance scrape holds one slice of
  // the fleet's text at a time (slice_plan.hpp), not the fleet's (38 MB at
  // 10,048 modules), and leaves none behind.
  std::shared_ptr<const FamilyTexts> slice(const LatestSamples::TargetSamples& target,
                                           const std::shared_ptr<const ExportPolicy>& policy, FamilyRange range);

  // Forgets every target not in `names` (sorted).
  void retain(const std::vector<std::string>& names);

  // Forgets the renders of polls that have since been replaced, so a target
  // scraped whole once does not keep its text until it is scraped again.
  void dropStale();

  std::size_t size() const;

 private:
  struct Entry {
    // What it was rendered from, without keeping it alive: a strong reference
    // here kept every target's previous poll in memory until its next scrape.
    std::weak_ptr<const std::vector<Sample>> samples;
    std::shared_ptr<const ExportPolicy> policy;
    std::shared_ptr<const FamilyTexts> families;  // kept once a scraper asked for plain text
    SharedText gzip;                              // kept once a scraper asked for gzip
    // By range, while a scrape holds them.
    std::vector<std::pair<FamilyRange, std::weak_ptr<const FamilyTexts>>> slices;
  };
  // The entry of `target` if it is of this poll and policy, else a fresh one.
  Entry& current(const LatestSamples::TargetSamples& target, const std::shared_ptr<const ExportPolicy>& policy);

  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
};

// Headers and series of one target's families, in order: its whole text.
std::vector<SharedText> targetText(const FamilyTexts& families);

// The HELP/TYPE lines of family `family`, built once and shared.
const SharedText& familyHeader(std::size_t family);

}  // namespace opticsd
