#pragma once
// Another opticsd instance, for the far-end tests (the page's and explain's):
// a real HTTP listener on 127.0.0.1 answering one document on /optic, as an
// instance answers its optic's page with format=json; it keeps the query.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon/exporter/http_server.hpp"
#include "daemon/web/optic_story.hpp"
#include "daemon/web/page_json.hpp"
#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web::test {

struct OtherInstance {
  std::string body;
  std::string asked;  // the last request's query
  std::unique_ptr<HttpServer> server;
  std::string base;  // its base URL

  explicit OtherInstance(std::string answer, HttpServerOptions options = {}, const std::string& scheme = "http")
      : body(std::move(answer)) {
    options.listen = "127.0.0.1:0";
    auto started = HttpServer::start(options, std::vector<std::string>{"/optic"}, [this](const HttpRequest& r) {
      asked = std::string(r.query);
      HttpAnswer a;
      a.content_type = "application/json";
      a.body = wholeBody({body});
      return a;
    });
    if (!started) throw std::runtime_error(started.error().message);
    server = std::move(*started);
    base = scheme + "://127.0.0.1:" + std::to_string(server->port());
  }
};

// gpu-node-7 eth0's JSON as its own instance serves it: 4 lanes, Tx 1.0 dBm
// and `rx_dbm` on each.
inline std::string gpuNodeJson(double rx_dbm) {
  FakePageData far;
  auto samples = std::make_shared<std::vector<Sample>>();
  samples->push_back(opticSample("gpu-node-7", "eth0", 4, rx_dbm, far.now));
  far.live["gpu-node-7"] = samples;
  return opticJson(*buildOpticStory(far, {"gpu-node-7", "eth0", "1h"}));
}

}  // namespace opticsd::web::test
