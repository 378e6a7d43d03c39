#include "daemon/exporter/metrics_exporter.hpp"

#include <CivetServer.h>
#include <malloc.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <exception>
#include <utility>

#include "daemon/exporter/basic_auth.hpp"
#include "daemon/exporter/exposition_text.hpp"

namespace opticsd {

class MetricsExporter::Handler : public CivetHandler {
 public:
  explicit Handler(MetricsExporter& exporter) : exporter_(exporter) {}

  bool handleGet(CivetServer*, mg_connection* conn) override {
    {
      const std::string body = exporter_.render();
      mg_printf(conn,
                "HTTP/1.1 200 OK\r\n"
                "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                "Content-Length: %zu\r\n\r\n",
                body.size());
      mg_write(conn, body.data(), body.size());
    }
    // A large fleet's exposition is tens of megabytes built from many
    // growing buffers; give those pages back between scrapes instead of
    // keeping the high-water mark resident for good.
    malloc_trim(0);
    return true;
  }

 private:
  MetricsExporter& exporter_;
};

class MetricsExporter::AuthHandler : public CivetAuthHandler {
 public:
  explicit AuthHandler(ExporterOptions::BasicAuth auth) : auth_(std::move(auth)) {}

  bool authorize(CivetServer*, mg_connection* conn) override {
    if (basicAuthMatches(mg_get_header(conn, "Authorization"), auth_.username, auth_.password)) return true;
    mg_printf(conn,
              "HTTP/1.1 401 Unauthorized\r\n"
              "WWW-Authenticate: Basic realm=\"opticsd\"\r\n"
              "Content-Length: 0\r\n\r\n");
    return false;
  }

 private:
  ExporterOptions::BasicAuth auth_;
};

MetricsExporter::MetricsExporter(std::string_view version)
    : registry_(std::make_shared<prometheus::Registry>()),
      self_metrics_(*registry_, version),
      samples_(std::make_shared<LatestSamples>()) {}

MetricsExporter::~MetricsExporter() {
  // Stop serving before anything a scrape reads goes away.
  if (server_) server_->close();
}

Result<std::unique_ptr<MetricsExporter>> MetricsExporter::start(const ExporterOptions& options,
                                                                std::string_view version) {
  if (options.listen.empty()) return fail("exporter: empty listen address");
  if (options.threads == 0) return fail("exporter: threads must be at least 1");
  // civetweb reads a trailing 's' or 'r' on a port as TLS or redirect, and a
  // comma as a second listener; TLS crashes with Debian's civetweb (see
  // ExporterOptions), so only HOST:PORT is accepted.
  const char last = options.listen.back();
  if (last == 's' || last == 'r' || options.listen.find(',') != std::string::npos) {
    return fail("exporter: listen address " + options.listen + " is not HOST:PORT (TLS is not supported)");
  }
  const std::vector<std::string> civet{"listening_ports", options.listen, "num_threads",
                                       std::to_string(options.threads)};

  std::unique_ptr<MetricsExporter> exporter(new MetricsExporter(version));
  exporter->handler_ = std::make_unique<Handler>(*exporter);
  if (options.basic_auth) exporter->auth_ = std::make_unique<AuthHandler>(*options.basic_auth);
  try {
    // civetweb reports bind failures by throwing from the constructor.
    exporter->server_ = std::make_unique<CivetServer>(civet);
  } catch (const std::exception& e) {
    return fail("exporter: cannot serve metrics on " + options.listen + " (port in use or bad address?): " + e.what());
  }
  const std::vector<int> bound = exporter->server_->getListeningPorts();
  if (bound.empty() || bound.front() <= 0) return fail("exporter: not listening on " + options.listen);
  exporter->port_ = static_cast<std::uint16_t>(bound.front());
  if (exporter->auth_) exporter->server_->addAuthHandler("/metrics", exporter->auth_.get());
  exporter->server_->addHandler("/metrics", exporter->handler_.get());
  return exporter;
}

void MetricsExporter::registerCollectable(const std::weak_ptr<prometheus::Collectable>& collectable) {
  std::lock_guard lock(collectables_mutex_);
  collectables_.push_back(collectable);
}

std::string MetricsExporter::render() {
  std::vector<std::shared_ptr<prometheus::Collectable>> live;
  std::string body;
  {
    std::lock_guard lock(collectables_mutex_);
    std::erase_if(collectables_, [](const auto& c) { return c.expired(); });
    for (const auto& c : collectables_) {
      if (auto p = c.lock()) live.push_back(std::move(p));
    }
    body.reserve(last_size_ + last_size_ / 8);
  }
  appendSampleExposition(samples_->snapshot(), body);
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  for (const auto& c : live) {
    auto more = c->Collect();
    families.insert(families.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  body += prometheus::TextSerializer().Serialize(families);
  {
    std::lock_guard lock(collectables_mutex_);
    last_size_ = body.size();
  }
  return body;
}

}  // namespace opticsd
