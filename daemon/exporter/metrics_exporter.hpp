#pragma once
// The /metrics endpoint: serves the latest Samples, opticsd's self-metrics,
// and whatever other Collectables (the rules engine) register, over the
// HttpServer (plain or TLS, optional basic auth).
//
// Why not prometheus::Exposer: it renders every series through prometheus-cpp
// ClientMetric objects and its ostream serializer, about 1.2 s of CPU per
// scrape for 10,000 modules (400,000 series), over the 0.5 s budget, and its
// civetweb cannot serve TLS on Debian 12 (see http_server.hpp). Here the
// Samples are written straight to text (exposition_text.hpp, same bytes), a
// slice of families at a time while the scrape is sent: 10,000 CMIS modules
// with VDM are about 150 MB of text, and only one slice of it (about an
// eighth) is in memory at once. Only the small registries go through
// prometheus-cpp. gzip when the scraper asks (gzip_body.hpp).
//
// Paths (the README has the scrape jobs that use them):
//   /metrics                   everything, at the configured detail level
//   /metrics?target=NAME       one target's series, rendered once per poll
//                              and served from a shared buffer (rendered_targets.hpp)
//   /metrics/thresholds[?target=NAME]  module-advertised thresholds (a slow job)
//   /metrics/self              opticsd's own health, without the per-target series
//   /sd                        Prometheus HTTP service discovery (service_discovery.hpp)
//   page paths given at start   the operator's pages (daemon/web), answered by
//                              the router set with setPages(); 404 until then
//
// Ownership: the exporter owns the HTTP server, the LatestSamples cache, the
// self-metrics registry and the collectables list; the server is stopped
// first on destruction, so no scrape outlives what it reads. Thread-safety:
// the accessors may be used from any thread; scrapes run on the server's
// threads; a whole-instance scrape holds no snapshot (see Scrape).

#include <prometheus/collectable.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "daemon/exporter/http_server.hpp"
#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/rendered_targets.hpp"
#include "daemon/exporter/self_metrics.hpp"
#include "daemon/exporter/service_discovery.hpp"
#include "daemon/exporter/target_freshness.hpp"
#include "drivers/result.hpp"

namespace opticsd {

// Listen address, TLS and basic auth of /metrics (the HTTP server's options).
using ExporterOptions = HttpServerOptions;

class MetricsExporter {
 public:
  // Binds and starts serving. A bad address or a port in use is an Error
  // naming the address, never an exception.
  static Result<std::unique_ptr<MetricsExporter>> start(const ExporterOptions& options, std::string_view version,
                                                        std::vector<std::string> page_paths = {});

  // Who answers the page paths (set once the pages' data sources exist).
  void setPages(HttpRouter pages);

  ~MetricsExporter();
  MetricsExporter(const MetricsExporter&) = delete;
  MetricsExporter& operator=(const MetricsExporter&) = delete;

  LatestSamples& samples() { return *samples_; }
  SelfMetrics& self() { return self_metrics_; }
  // Whether each target's series are fresh or kept after failed polls (registered at start).
  TargetFreshness& freshness() { return *freshness_; }
  // The self-metrics registry, for other parts' own counters (remote write).
  prometheus::Registry& registry() { return *registry_; }

  // Adds a Collectable to /metrics; it is dropped once the weak_ptr expires.
  void registerCollectable(const std::weak_ptr<prometheus::Collectable>& collectable);

  // The TCP port actually bound (the one chosen by the kernel for port 0).
  std::uint16_t port() const { return server_->port(); }

  // The series budget; applies from the next scrape.
  void setExportPolicy(ExportPolicy policy);
  // What /sd lists: the targets this instance polls.
  void setServedTargets(std::vector<ServedTarget> targets);

  // One whole-instance scrape's body, produced slice by slice as it is sent.
  std::unique_ptr<HttpBodySource> scrape();
  // The same body whole (for tests and the benchmark).
  std::string render();

  // The answer to a GET on one of the paths above (what the server calls).
  HttpAnswer route(const HttpRequest& request);

 private:
  class Scrape;
  explicit MetricsExporter(std::string_view version);
  enum class Registries { kAll, kSelfOnly };
  // The self-metrics registry's families (connection counts brought up to date).
  std::vector<prometheus::MetricFamily> collectSelf();
  // The registries' families (self-metrics, rules engine) as text.
  std::string renderRegistries(Registries which = Registries::kAll);
  // The per-target Collectables' series of one target, as text.
  std::string renderTargetCollectables(std::string_view target);
  std::vector<std::shared_ptr<prometheus::Collectable>> liveCollectables();
  std::shared_ptr<const ExportPolicy> policy() const;
  bool serves(std::string_view target) const;  // listed on /sd
  HttpAnswer metrics(std::optional<std::string> target, bool gzip);
  HttpAnswer thresholds(std::optional<std::string> target, bool gzip);

  std::shared_ptr<prometheus::Registry> registry_;
  SelfMetrics self_metrics_;
  std::shared_ptr<LatestSamples> samples_;
  std::shared_ptr<TargetFreshness> freshness_;
  std::mutex collectables_mutex_;
  std::vector<std::weak_ptr<prometheus::Collectable>> collectables_;
  mutable std::mutex config_mutex_;
  std::shared_ptr<const ExportPolicy> policy_;
  std::vector<ServedTarget> served_;
  std::vector<std::string> page_paths_;
  std::shared_ptr<const HttpRouter> pages_;
  RenderedTargets rendered_;
  std::unique_ptr<HttpServer> server_;  // last: stopped and destroyed first
};

}  // namespace opticsd
