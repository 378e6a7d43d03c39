#pragma once
// The /metrics endpoint: a civetweb server that serves the latest Samples,
// opticsd's self-metrics, and whatever other Collectables (the rules engine)
// register.
//
// Why not prometheus::Exposer: it renders every series through prometheus-cpp
// ClientMetric objects and its ostream serializer, about 1.2 s of CPU per
// scrape for 10,000 modules (400,000 series), over the 0.5 s budget. Here the
// Samples are written straight to text (exposition_text.hpp, same bytes) and
// only the small registries go through prometheus-cpp. No gzip: Prometheus
// also accepts identity encoding.
//
// Ownership: the exporter owns the HTTP server, the LatestSamples cache, the
// self-metrics registry and the SampleCollector; the server is stopped first
// on destruction, so no scrape outlives what it reads. Thread-safety: the
// accessors may be used from any thread; scrapes run on civetweb's threads.

#include <prometheus/collectable.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/self_metrics.hpp"
#include "drivers/result.hpp"

class CivetServer;

namespace opticsd {

// Loopback only by default: exposing /metrics beyond the host is an explicit
// choice in the config. Port 9464 is also the OpenTelemetry SDKs' Prometheus
// exporter default; on a host running one, configure another port.
inline constexpr std::string_view kDefaultListenAddress = "127.0.0.1:9464";

struct ExporterOptions {
  // civetweb syntax: "HOST:PORT", "[::1]:PORT", or "PORT" (all interfaces). Port 0 = ephemeral.
  std::string listen{kDefaultListenAddress};
  struct BasicAuth {
    std::string username;
    std::string password;  // compared in constant time; never logged
  };
  std::optional<BasicAuth> basic_auth;  // unset: no authentication
  // No TLS option on purpose: Debian 12's civetweb 1.15 loads libssl at run
  // time and its worker thread calls a null OpenSSL 3 function pointer on the
  // first connection to a TLS port (a crash any client can trigger). Serve
  // TLS from a reverse proxy until the HTTP layer is replaced.
  std::size_t threads = 2;
};

class MetricsExporter {
 public:
  // Binds and starts serving. A bad address or a port in use is an Error
  // naming the address, never an exception.
  static Result<std::unique_ptr<MetricsExporter>> start(const ExporterOptions& options, std::string_view version);

  ~MetricsExporter();
  MetricsExporter(const MetricsExporter&) = delete;
  MetricsExporter& operator=(const MetricsExporter&) = delete;

  LatestSamples& samples() { return *samples_; }
  SelfMetrics& self() { return self_metrics_; }

  // Adds a Collectable to /metrics; it is dropped once the weak_ptr expires.
  void registerCollectable(const std::weak_ptr<prometheus::Collectable>& collectable);

  // The TCP port actually bound (the one chosen by the kernel for port 0).
  std::uint16_t port() const { return port_; }

  // The /metrics body, as a scrape gets it (also what the benchmark times).
  std::string render();

 private:
  class Handler;
  class AuthHandler;
  explicit MetricsExporter(std::string_view version);

  std::shared_ptr<prometheus::Registry> registry_;
  SelfMetrics self_metrics_;
  std::shared_ptr<LatestSamples> samples_;
  std::mutex collectables_mutex_;
  std::vector<std::weak_ptr<prometheus::Collectable>> collectables_;
  std::size_t last_size_ = 0;  // guarded by collectables_mutex_; reserve hint
  std::unique_ptr<Handler> handler_;
  std::unique_ptr<AuthHandler> auth_;
  std::unique_ptr<CivetServer> server_;  // last: stopped and destroyed first
  std::uint16_t port_ = 0;
};

}  // namespace opticsd
