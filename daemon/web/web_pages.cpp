#include "daemon/web/web_pages.hpp"

#include "daemon/exporter/query_parameter.hpp"
#include "daemon/web/fleet_page.hpp"
#include "daemon/web/optic_page.hpp"
#include "daemon/web/page_json.hpp"
#include "daemon/web/triage.hpp"

namespace opticsd::web {
namespace {

constexpr unsigned kBadRequest = 400;
constexpr unsigned kNotFound = 404;

HttpAnswer answer(std::string body, bool json) {
  HttpAnswer out;
  out.content_type = json ? "application/json; charset=utf-8" : "text/html; charset=utf-8";
  out.headers = std::string(pageHeaders());
  out.body = wholeBody({std::move(body)});
  return out;
}

HttpAnswer status(unsigned code) {
  HttpAnswer out;
  out.status = code;
  return out;
}

std::string param(std::string_view query, std::string_view name, bool& bad) {
  auto v = queryParameter(query, name);
  if (!v) {
    bad = true;
    return {};
  }
  return v->value_or("");
}

}  // namespace

std::vector<std::string> WebPages::paths() { return {"/", "/optic", "/triage"}; }

bool wantsJson(std::string_view accept, std::string_view query) {
  if (auto f = queryParameter(query, "format"); f && *f) return **f == "json";
  return accept.find("application/json") != std::string_view::npos &&
         accept.find("text/html") == std::string_view::npos;
}

std::string_view pageHeaders() {
  return "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
         "form-action 'self'; base-uri 'none'; frame-ancestors 'none'\r\n"
         "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nCache-Control: no-store\r\n";
}

HttpAnswer WebPages::route(const HttpRequest& request) const {
  const bool json = wantsJson(request.accept, request.query);
  bool bad = false;
  if (request.path == "/") {
    auto fleet = buildFleetOverview(*data_);
    return answer(json ? fleetJson(fleet) : renderFleetPage(fleet), json);
  }
  if (request.path == "/optic") {
    StoryRequest r;
    r.target = param(request.query, "target", bad);
    r.port = param(request.query, "port", bad);
    const std::string range = param(request.query, "range", bad);
    if (!range.empty()) r.range = range;
    if (bad || r.target.empty() || r.port.empty() || !rangeMs(r.range)) return status(kBadRequest);
    auto story = buildOpticStory(*data_, r, remote_.get());
    if (!story) return status(kNotFound);
    return answer(json ? opticJson(*story) : renderOpticPage(*story), json);
  }
  if (request.path == "/triage") {
    TriageQuery q;
    q.hosts = splitNames(param(request.query, "host", bad));
    q.gpu = param(request.query, "gpu", bad);
    q.rail = param(request.query, "rail", bad);
    q.target = param(request.query, "target", bad);
    if (bad) return status(kBadRequest);
    auto triage = buildTriage(*data_, q);
    return answer(json ? triageJson(triage) : renderTriagePage(triage), json);
  }
  return status(kNotFound);
}

}  // namespace opticsd::web
