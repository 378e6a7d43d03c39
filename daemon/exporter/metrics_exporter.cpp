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
  auto server = HttpServer::start(options, "/metrics", [e = exporter.get()] { return e->renderParts(); });
  if (!server) return fail("exporter: cannot serve metrics: " + server.error().message);
  exporter->server_ = std::move(*server);
  return exporter;
}

void MetricsExporter::registerCollectable(const std::weak_ptr<prometheus::Collectable>& collectable) {
  std::lock_guard lock(collectables_mutex_);
  collectables_.push_back(collectable);
}

HttpBody MetricsExporter::renderParts() {
  std::vector<std::shared_ptr<prometheus::Collectable>> live;
  {
    std::lock_guard lock(collectables_mutex_);
    std::erase_if(collectables_, [](const auto& c) { return c.expired(); });
    for (const auto& c : collectables_) {
      if (auto p = c.lock()) live.push_back(std::move(p));
    }
  }
  std::lock_guard one_at_a_time(render_mutex_);
  HttpBody parts;
  appendSampleExpositionParts(samples_->snapshot(), parts);
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  for (const auto& c : live) {
    auto more = c->Collect();
    families.insert(families.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  parts.push_back(prometheus::TextSerializer().Serialize(families));
  return parts;
}

std::string MetricsExporter::render() {
  std::string body;
  appendJoined(renderParts(), body);
  return body;
}

}  // namespace opticsd
