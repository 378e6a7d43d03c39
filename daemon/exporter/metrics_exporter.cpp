#include "daemon/exporter/metrics_exporter.hpp"

#include <prometheus/text_serializer.h>

#include <algorithm>
#include <utility>

#include "daemon/exporter/exposition_text.hpp"

namespace opticsd {

MetricsExporter::MetricsExporter(std::string_view version)
    : registry_(std::make_shared<prometheus::Registry>()),
      self_metrics_(*registry_, version),
      samples_(std::make_shared<LatestSamples>()) {}

// server_ is declared last, so it is destroyed (stopped, threads joined)
// before anything a scrape reads.
MetricsExporter::~MetricsExporter() = default;

Result<std::unique_ptr<MetricsExporter>> MetricsExporter::start(const ExporterOptions& options,
                                                                std::string_view version) {
  if (options.listen.empty()) return fail("exporter: empty listen address");
  std::unique_ptr<MetricsExporter> exporter(new MetricsExporter(version));
  auto server = HttpServer::start(options, "/metrics", [e = exporter.get()] { return e->scrape(); });
  if (!server) return fail("exporter: cannot serve metrics: " + server.error().message);
  exporter->server_ = std::move(*server);
  return exporter;
}

void MetricsExporter::registerCollectable(const std::weak_ptr<prometheus::Collectable>& collectable) {
  std::lock_guard lock(collectables_mutex_);
  collectables_.push_back(collectable);
}

// Families in slices of about an eighth, in exposition order; the registries last.
class MetricsExporter::Scrape : public HttpBodySource {
 public:
  static constexpr std::size_t kSlices = 8;

  Scrape(MetricsExporter& exporter, LatestSamples::Snapshot snapshot)
      : exporter_(exporter), snapshot_(std::move(snapshot)), families_(sampleFamilyCount()) {}

  bool next(HttpBody& out) override {
    if (next_family_ < families_) {
      const std::size_t step = (families_ + kSlices - 1) / kSlices;
      appendSampleExpositionParts(snapshot_, out, next_family_, next_family_ + step);
      next_family_ += step;
      return true;
    }
    out.push_back(exporter_.renderRegistries());
    return false;
  }

 private:
  MetricsExporter& exporter_;
  const LatestSamples::Snapshot snapshot_;
  const std::size_t families_;
  std::size_t next_family_ = 0;
};

std::string MetricsExporter::renderRegistries() {
  std::vector<std::shared_ptr<prometheus::Collectable>> live;
  {
    std::lock_guard lock(collectables_mutex_);
    std::erase_if(collectables_, [](const auto& c) { return c.expired(); });
    for (const auto& c : collectables_) {
      if (auto p = c.lock()) live.push_back(std::move(p));
    }
  }
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  for (const auto& c : live) {
    auto more = c->Collect();
    families.insert(families.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return prometheus::TextSerializer().Serialize(families);
}

std::unique_ptr<HttpBodySource> MetricsExporter::scrape() {
  return std::make_unique<Scrape>(*this, samples_->snapshot());
}

std::string MetricsExporter::render() {
  std::string body;
  auto source = scrape();
  HttpBody parts;
  for (bool more = true; more;) {
    parts.clear();
    more = source->next(parts);
    appendJoined(parts, body);
  }
  return body;
}

}  // namespace opticsd
