#include "daemon/exporter/http_server.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <optional>
#include <string_view>
#include <thread>

#include "exposition.hpp"

namespace opticsd {
namespace {

namespace asio = boost::asio;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kTlsDir = std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/tls/";

HttpServerOptions loopback() {
  HttpServerOptions o;
  o.listen = "127.0.0.1:0";
  return o;
}

std::unique_ptr<HttpServer> serve(const HttpServerOptions& options, HttpBody body = {"a", "", "bc"}) {
  auto server = HttpServer::start(options, "/metrics", [body] { return wholeBody(body); });
  EXPECT_TRUE(server) << server.error().message;
  return server ? std::move(*server) : nullptr;
}

TEST(HttpServer, Http10GetsThePartsBackToBackThenAClose) {
  auto server = serve(loopback());
  ASSERT_TRUE(server);
  const auto r = test::httpGet(server->port(), "/metrics?name[]=x");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "abc");
  EXPECT_THAT(r.headers, HasSubstr("Connection: close"));
  EXPECT_THAT(r.headers, HasSubstr("Content-Type: text/plain; version=0.0.4"));
}

// Gives `slices` slices of "slice N\n", one per next() call.
class Slices : public HttpBodySource {
 public:
  explicit Slices(int slices) : left_(slices) {}
  bool next(HttpBody& out) override {
    out.push_back("slice " + std::to_string(left_));
    out.push_back("\n");
    return --left_ > 0;
  }

 private:
  int left_;
};

// Decodes an HTTP/1.1 chunked body; empty optional when the framing is wrong.
std::optional<std::string> dechunk(std::string_view raw) {
  std::string out;
  while (true) {
    const auto eol = raw.find("\r\n");
    if (eol == std::string_view::npos) return std::nullopt;
    const std::size_t size = std::stoul(std::string(raw.substr(0, eol)), nullptr, 16);
    raw.remove_prefix(eol + 2);
    if (size == 0) return raw == "\r\n" ? std::optional(out) : std::nullopt;
    if (raw.size() < size + 2 || raw.substr(size, 2) != "\r\n") return std::nullopt;
    out += raw.substr(0, size);
    raw.remove_prefix(size + 2);
  }
}

TEST(HttpServer, Http11GetsTheBodyChunkedAsItIsProduced) {
  auto server = HttpServer::start(loopback(), "/metrics", [] { return std::make_unique<Slices>(3); });
  ASSERT_TRUE(server) << server.error().message;
  const auto r = test::parseResponse(
      test::httpExchange((*server)->port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.headers, HasSubstr("Transfer-Encoding: chunked"));
  EXPECT_EQ(dechunk(r.body), "slice 3\nslice 2\nslice 1\n") << r.body;
}

TEST(HttpServer, OtherPathsAndMethodsAreRefused) {
  auto server = serve(loopback());
  ASSERT_TRUE(server);
  EXPECT_EQ(test::httpGet(server->port(), "/").status, 404);
  EXPECT_EQ(test::httpGet(server->port(), "/metricsx").status, 404);
  const auto post =
      test::parseResponse(test::httpExchange(server->port(), "POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n"));
  EXPECT_EQ(post.status, 405);
  EXPECT_THAT(post.headers, HasSubstr("Allow: GET, HEAD"));
}

TEST(HttpServer, HeadGetsTheHeadersOfAGetWithoutTheBodyBeingProduced) {
  std::atomic<int> produced{0};
  auto server = HttpServer::start(loopback(), "/metrics", [&produced] {
    ++produced;
    return wholeBody({"body"});
  });
  ASSERT_TRUE(server) << server.error().message;
  const std::string answer = test::httpExchange((*server)->port(), "HEAD /metrics HTTP/1.0\r\n\r\n");
  EXPECT_THAT(answer, StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(answer, HasSubstr("Content-Type: text/plain; version=0.0.4"));
  EXPECT_EQ(answer.substr(answer.size() - 4), "\r\n\r\n") << "a HEAD answer has no body";
  EXPECT_EQ(produced.load(), 0);
}

TEST(HttpServer, KeepAliveAnswersEveryRequestOnOneConnection) {
  auto server = serve(loopback());
  ASSERT_TRUE(server);
  const std::string get = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string last = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  const std::string raw = test::httpExchange(server->port(), get + get + last);
  std::size_t answers = 0;
  for (auto at = raw.find("HTTP/1.1 200"); at != std::string::npos; at = raw.find("HTTP/1.1 200", at + 1)) ++answers;
  EXPECT_EQ(answers, 3u) << raw;
}

TEST(HttpServer, HostileRequestsGetAnErrorAndTheConnectionCloses) {
  auto server = serve(loopback());
  ASSERT_TRUE(server);
  const std::string huge = "GET /metrics HTTP/1.1\r\nX-Junk: " + std::string(64 * 1024, 'a') + "\r\n\r\n";
  EXPECT_EQ(test::parseResponse(test::httpExchange(server->port(), huge)).status, 431);
  EXPECT_EQ(test::parseResponse(test::httpExchange(server->port(), "\x16\x03\x01garbage\r\n\r\n")).status, 400);
  // A GET with a body is not what a scraper sends.
  EXPECT_EQ(test::parseResponse(test::httpExchange(server->port(),
                                                   "GET /metrics HTTP/1.1\r\nContent-Length: "
                                                   "5\r\n\r\nhello"))
                .status,
            400);
  EXPECT_EQ(test::httpGet(server->port(), "/metrics").status, 200);  // still serving
}

TEST(HttpServer, ASilentClientIsDroppedAfterTheIdleTimeout) {
  HttpServerOptions o = loopback();
  o.idle_timeout = std::chrono::milliseconds(200);
  auto server = serve(o);
  ASSERT_TRUE(server);
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  socket.connect({asio::ip::make_address("127.0.0.1"), server->port()});
  // Sends half a request line, then nothing: the server must close, so this
  // read ends (with EOF) instead of blocking for ever.
  asio::write(socket, asio::buffer(std::string("GET /met")));
  std::string rest;
  boost::system::error_code ec;
  asio::read(socket, asio::dynamic_buffer(rest), ec);
  EXPECT_EQ(ec, asio::error::eof);
  EXPECT_EQ(rest, "");
}

TEST(HttpServer, AFullTableEvictsTheOldestSilentConnectionAndServesTheNewOne) {
  HttpServerOptions o = loopback();
  o.max_connections = 2;
  auto server = serve(o);
  ASSERT_TRUE(server);
  asio::io_context io;
  std::vector<asio::ip::tcp::socket> idle;
  for (int i = 0; i < 2; ++i) {
    idle.emplace_back(io).connect({asio::ip::make_address("127.0.0.1"), server->port()});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // accepted in this order
  }
  // Every slot is held by a silent client: a scraper is still answered.
  for (int i = 0; i < 3; ++i) {
    EXPECT_THAT(test::httpExchange(server->port(), "GET /metrics HTTP/1.0\r\n\r\n"), StartsWith("HTTP/1.1 200"));
  }
  // The oldest silent ones were closed to make room.
  std::string rest;
  boost::system::error_code ec;
  asio::read(idle[0], asio::dynamic_buffer(rest), ec);
  EXPECT_EQ(ec, asio::error::eof);
  EXPECT_EQ(rest, "");
  // What /metrics/self reports: idle[0], and idle[1] unless the first scrape had left by then.
  EXPECT_GE(server->connectionCounts().evicted_total, 1u);
  EXPECT_EQ(server->connectionCounts().refused_total, 0u);
}

TEST(HttpServer, ASourceAtItsLimitLosesItsOwnOldestConnection) {
  HttpServerOptions o = loopback();
  o.max_connections = 100;
  o.max_connections_per_source = 1;
  auto server = serve(o);
  ASSERT_TRUE(server);
  asio::io_context io;
  asio::ip::tcp::socket silent(io);
  silent.connect({asio::ip::make_address("127.0.0.1"), server->port()});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_THAT(test::httpExchange(server->port(), "GET /metrics HTTP/1.0\r\n\r\n"), StartsWith("HTTP/1.1 200"));
  std::string rest;
  boost::system::error_code ec;
  asio::read(silent, asio::dynamic_buffer(rest), ec);
  EXPECT_EQ(ec, asio::error::eof);
}

TEST(HttpServer, BadAddressesAndPortsInUseAreErrorValues) {
  for (const char* listen :
       {"", "not an address", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:0s", "[::1", "host:80"}) {
    HttpServerOptions o;
    o.listen = listen;
    auto r = HttpServer::start(o, "/metrics", [] { return wholeBody({}); });
    ASSERT_FALSE(r) << listen;
    EXPECT_THAT(r.error().message, HasSubstr(std::string("'") + listen + "'"));
  }
  auto first = serve(loopback());
  ASSERT_TRUE(first);
  HttpServerOptions same;
  same.listen = "127.0.0.1:" + std::to_string(first->port());
  auto second = HttpServer::start(same, "/metrics", [] { return wholeBody({}); });
  ASSERT_FALSE(second);
  EXPECT_THAT(second.error().message, HasSubstr(same.listen));
}

// A TLS client that trusts only the fixture certificate, as Prometheus with
// tls_config.ca_file would.
std::string httpsGet(std::uint16_t port, const std::string& request) {
  asio::io_context io;
  asio::ssl::context ctx(asio::ssl::context::tls_client);
  ctx.load_verify_file(kTlsDir + "localhost.crt");
  ctx.set_verify_mode(asio::ssl::verify_peer);
  asio::ssl::stream<asio::ip::tcp::socket> stream(io, ctx);
  stream.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
  stream.handshake(asio::ssl::stream_base::client);  // throws when the certificate is not trusted
  asio::write(stream, asio::buffer(request));
  std::string raw;
  boost::system::error_code ec;
  asio::read(stream, asio::dynamic_buffer(raw), ec);
  return raw;
}

HttpServerOptions withTls() {
  HttpServerOptions o = loopback();
  o.tls = HttpServerOptions::Tls{kTlsDir + "localhost.crt", kTlsDir + "localhost.key"};
  return o;
}

TEST(HttpServer, ServesTlsWithBasicAuthAndRefusesPlainHttp) {
  HttpServerOptions o = withTls();
  o.basic_auth = HttpServerOptions::BasicAuth{"prometheus", "s3cret"};
  auto server = serve(o, {"secret metrics"});
  ASSERT_TRUE(server);
  // base64("prometheus:s3cret")
  const auto ok = test::parseResponse(
      httpsGet(server->port(), "GET /metrics HTTP/1.0\r\nAuthorization: Basic cHJvbWV0aGV1czpzM2NyZXQ=\r\n\r\n"));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.body, "secret metrics");
  const auto anonymous = test::parseResponse(httpsGet(server->port(), "GET /metrics HTTP/1.0\r\n\r\n"));
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_THAT(anonymous.headers, HasSubstr("WWW-Authenticate: Basic"));
  // Plain HTTP to the TLS port gets no answer, let alone the metrics.
  const std::string plain = test::httpExchange(server->port(), "GET /metrics HTTP/1.0\r\n\r\n");
  EXPECT_THAT(plain, ::testing::Not(HasSubstr("secret metrics")));
  EXPECT_THAT(plain, ::testing::Not(StartsWith("HTTP/1.1 200")));
}

TEST(HttpServer, UnusableCertificatesAndKeysAreErrorsNamingTheFile) {
  HttpServerOptions o = withTls();
  o.tls->cert_file = kTlsDir + "missing.crt";
  auto r = HttpServer::start(o, "/metrics", [] { return wholeBody({}); });
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("missing.crt"));

  o = withTls();
  o.tls->key_file = kTlsDir + "unrelated.key";
  r = HttpServer::start(o, "/metrics", [] { return wholeBody({}); });
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("unrelated.key"));
  EXPECT_THAT(r.error().message, HasSubstr("mismatch"));

  o = withTls();
  o.tls->key_file = kTlsDir + "README.md";  // not PEM
  r = HttpServer::start(o, "/metrics", [] { return wholeBody({}); });
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("README.md"));
}

}  // namespace
}  // namespace opticsd
