#pragma once
// Render once per poll, serve many: a target's /metrics?target= text (and its
// gzip form) is rendered by the first scrape after its poll lands and kept,
// immutable, until the next poll replaces its Samples or the export policy
// changes. Every other scrape of that poll is served from the same buffers.
//
// Thread-safety: every method may be called from any thread at once; two
// scrapes racing on a fresh poll may both render it (the results are equal,
// one is kept).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/shared_buffer_body.hpp"

namespace opticsd {

class RenderedTargets {
 public:
  // The text of `target`'s Samples under `policy`, gzip-compressed when asked.
  SharedText get(const LatestSamples::TargetSamples& target, const std::shared_ptr<const ExportPolicy>& policy,
                 bool gzip);

  // Forgets every target not in `names` (sorted).
  void retain(const std::vector<std::string>& names);

  std::size_t size() const;

 private:
  struct Entry {
    std::shared_ptr<const std::vector<Sample>> samples;  // what it was rendered from
    std::shared_ptr<const ExportPolicy> policy;
    SharedText text;  // kept once a scraper asked for plain text
    SharedText gzip;  // kept once a scraper asked for gzip
  };
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace opticsd
