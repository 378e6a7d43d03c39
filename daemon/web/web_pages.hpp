#pragma once
// The operator's pages on the daemon's own listener (same TLS and basic
// auth as /metrics):
//
//   /                            the fleet at a glance (fleet_page.hpp)
//   /optic?target=T&port=P[&range=1h|24h|14d]   one optic's story (optic_page.hpp)
//   /triage?host=H[,H2][&gpu=G][&rail=R][&target=T]   straggler-first triage (triage.hpp)
//
// Each answers JSON instead with `Accept: application/json` (or format=json).
// Pages carry a Content-Security-Policy that forbids every script and every
// request elsewhere: a device string that slipped through escaping could not
// run, and the browser never leaves the daemon's origin.
//
// Thread-safety: route() runs on the HTTP server's threads, concurrently.

#include <memory>
#include <string>
#include <vector>

#include "daemon/exporter/http_server.hpp"
#include "daemon/web/optic_story.hpp"
#include "daemon/web/page_data.hpp"

namespace opticsd::web {

class WebPages {
 public:
  // `remote` resolves far ends polled by other instances; may be null.
  explicit WebPages(std::shared_ptr<const PageData> data, std::shared_ptr<const FarEndResolver> remote = nullptr)
      : data_(std::move(data)), remote_(std::move(remote)) {}

  static std::vector<std::string> paths();
  HttpAnswer route(const HttpRequest& request) const;

 private:
  std::shared_ptr<const PageData> data_;
  std::shared_ptr<const FarEndResolver> remote_;
};

// Whether a request asks for JSON rather than a page.
bool wantsJson(std::string_view accept, std::string_view query);

// The headers every page and JSON answer carries.
std::string_view pageHeaders();

}  // namespace opticsd::web
