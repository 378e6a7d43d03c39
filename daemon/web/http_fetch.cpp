#include "daemon/web/http_fetch.hpp"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <optional>

#include "daemon/exporter/basic_auth.hpp"
#include "daemon/exporter/bounded_step.hpp"

namespace opticsd::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct UrlParts {
  bool tls = false;
  std::string host;
  std::string port;
  std::string target;  // path and query
};

Result<UrlParts> splitUrl(const std::string& url) {
  UrlParts p;
  std::string_view rest(url);
  if (rest.starts_with("https://")) {
    p.tls = true;
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else {
    return fail("not an http(s) URL: " + url);
  }
  const auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  p.target = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return fail("bad IPv6 host in " + url);
    p.host = std::string(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (authority.starts_with(':')) p.port = std::string(authority.substr(1));
  } else {
    const auto colon = authority.rfind(':');
    p.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) p.port = std::string(authority.substr(colon + 1));
  }
  if (p.host.empty()) return fail("no host in " + url);
  if (p.port.empty()) p.port = p.tls ? "443" : "80";
  return p;
}

std::string describe(const beast::error_code& ec, const FetchOptions& options) {
  if (ec == beast::error::timeout) return "no answer within " + std::to_string(options.timeout.count()) + " ms";
  return ec.message();
}

template <class Stream>
Result<std::string> exchange(asio::io_context& io, Stream& stream, const UrlParts& p, const FetchOptions& options) {
  http::request<http::empty_body> request{http::verb::get, p.target, 11};
  request.set(http::field::host, p.host);
  request.set(http::field::accept, options.accept);
  request.set(http::field::user_agent, "opticsd");
  request.set(http::field::connection, "close");
  if (!options.basic_auth_user.empty()) {
    request.set(http::field::authorization, basicAuthorization(options.basic_auth_user, options.basic_auth_password));
  }
  if (auto ec = runBoundedStep(io, [&](auto done) { http::async_write(stream, request, std::move(done)); })) {
    return fail("cannot send the request: " + describe(ec, options));
  }
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(options.max_bytes);
  if (auto ec = runBoundedStep(io, [&](auto done) { http::async_read(stream, buffer, parser, std::move(done)); })) {
    return fail("cannot read the answer: " + describe(ec, options));
  }
  const auto& response = parser.get();
  if (response.result() == http::status::unauthorized) {
    return fail(std::string("answered 401 Unauthorized: ") +
                (options.basic_auth_user.empty() ? "it wants basic auth credentials and none are configured"
                                                 : "it refused the configured basic auth credentials"));
  }
  if (response.result() != http::status::ok) {
    return fail("answered " + std::to_string(response.result_int()) + " " +
                std::string(http::obsolete_reason(response.result())));
  }
  return response.body();
}

}  // namespace

Result<std::string> httpGet(const std::string& url, const FetchOptions& options) {
  auto parts = splitUrl(url);
  if (!parts) return tl::unexpected(parts.error());
  try {
    asio::io_context io;
    tcp::resolver resolver(io);
    beast::error_code ec;
    auto endpoints = resolver.resolve(parts->host, parts->port, ec);
    if (ec) return fail(url + ": cannot resolve " + parts->host + ": " + ec.message());
    beast::tcp_stream tcp_stream(io);
    tcp_stream.expires_after(options.timeout);  // one deadline for everything below
    ec = runBoundedStep(io, [&](auto done) { tcp_stream.async_connect(endpoints, std::move(done)); });
    if (ec) return fail(url + ": cannot connect: " + describe(ec, options));
    Result<std::string> body = fail("");
    if (parts->tls) {
      asio::ssl::context context(asio::ssl::context::tls_client);
      if (options.tls_ca_file.empty()) {
        context.set_default_verify_paths();
      } else {
        context.load_verify_file(options.tls_ca_file, ec);
        if (ec) return fail(url + ": cannot load the CA file " + options.tls_ca_file + ": " + ec.message());
      }
      context.set_verify_mode(asio::ssl::verify_peer);
      beast::ssl_stream<beast::tcp_stream> stream(std::move(tcp_stream), context);
      if (!SSL_set_tlsext_host_name(stream.native_handle(), parts->host.c_str())) {
        return fail(url + ": cannot set the TLS server name");
      }
      stream.set_verify_callback(asio::ssl::host_name_verification(parts->host));
      ec = runBoundedStep(io,
                          [&](auto done) { stream.async_handshake(asio::ssl::stream_base::client, std::move(done)); });
      if (ec) return fail(url + ": TLS handshake failed: " + describe(ec, options));
      body = exchange(io, stream, *parts, options);
    } else {
      body = exchange(io, tcp_stream, *parts, options);
    }
    if (!body) return fail(url + ": " + body.error().message);
    return body;
  } catch (const std::exception& e) {
    return fail(url + ": " + e.what());
  }
}

}  // namespace opticsd::web
