#pragma once
// The HTTP/1.1 server behind /metrics: Boost.Beast on its own Boost.Asio
// threads, plain or TLS (OpenSSL through Asio), with optional basic auth.
//
// Why not civetweb (what prometheus-cpp's Exposer wraps): Debian 12's
// civetweb 1.15 loads libssl at run time and calls a null OpenSSL 3 function
// pointer on the first TLS connection, and it wants the whole body in one
// buffer. Here the body is produced part by part while it is sent.
//
// Only GET (and HEAD) on the configured paths is served; anything else is 404
// or 405. Defences against hostile clients: an 8 KiB request-header limit, a
// bound on the time to a complete request and on the TLS handshake, a write
// timeout on every answer (a slow or silent client is dropped), and caps on
// open connections, overall and per source address, that evict the connection
// waiting longest for a request rather than refuse a new one
// (connection_limiter.hpp): idle clients cannot lock the scraper out.
//
// Thread-safety: the handler runs on the server's threads, possibly on
// several at once. The destructor stops serving and joins the threads before
// anything the handler uses may go away.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/result.hpp"

namespace opticsd {

struct HttpServerOptions {
  // "HOST:PORT" (an IPv4 or IPv6 literal; IPv6 in brackets) or "PORT" for
  // every IPv4 interface. Port 0 = ephemeral.
  std::string listen;
  std::size_t threads = 2;
  struct Tls {
    std::string cert_file;  // PEM certificate chain, server certificate first
    std::string key_file;   // PEM private key; never logged
  };
  std::optional<Tls> tls;  // unset: plain HTTP
  struct BasicAuth {
    std::string username;
    std::string password;  // compared in constant time; never logged
  };
  std::optional<BasicAuth> basic_auth;  // unset: no authentication
  // The time a client has to send a whole request: the first one after
  // connecting (or after the TLS handshake) and each next one on a kept-alive
  // connection. Slowloris clients are cut off here.
  std::chrono::milliseconds idle_timeout{10'000};
  std::chrono::milliseconds handshake_timeout{5'000};
  // The time a whole answer may take to send (a scraper gives up sooner).
  std::chrono::milliseconds write_timeout{60'000};
  std::size_t max_connections = 512;
  std::size_t max_connections_per_source = 256;
};

// Parts of a body, written back to back.
using HttpBody = std::vector<std::string>;

// The body of a 200 answer, produced while it is sent: a large body is never
// whole in memory. next() appends the next parts to `out` (which the server
// has emptied) and returns false once it has given the last ones. Called on
// the server's threads, never twice at once for one answer. HTTP/1.1 clients
// get it chunked; HTTP/1.0 clients get it followed by a close.
class HttpBodySource {
 public:
  virtual ~HttpBodySource() = default;
  virtual bool next(HttpBody& out) = 0;
};

// A body that is already whole.
std::unique_ptr<HttpBodySource> wholeBody(HttpBody parts);

// What a router sees of a GET on one of its paths (views into the request).
struct HttpRequest {
  std::string_view path;   // without the query
  std::string_view query;  // after '?', still percent-encoded; empty when none
  std::string_view host;   // the Host header, as the client reached us
  std::string_view accept_encoding;
  std::string_view accept;  // the Accept header (pages answer JSON for application/json)
  bool head = false;        // HEAD: only the headers are sent, so a router may leave the body out
};

// A router's answer: 200 with a body, or another status without one.
struct HttpAnswer {
  unsigned status = 200;
  std::unique_ptr<HttpBodySource> body;  // produced while sent; for 200 only
  std::string content_type = "text/plain; version=0.0.4; charset=utf-8";
  bool gzip = false;         // the body is gzip: sent with Content-Encoding: gzip
  std::string headers = {};  // more header lines, each ending in CRLF (the pages' security policy)
};
using HttpRouter = std::function<HttpAnswer(const HttpRequest&)>;

class HttpServer {
 public:
  // Binds and starts serving GET `path` with what `handler` returns. A bad
  // address, a port in use or an unreadable certificate or key is an Error
  // naming the address or file, never an exception.
  static Result<std::unique_ptr<HttpServer>> start(const HttpServerOptions& options, std::string path,
                                                   std::function<std::unique_ptr<HttpBodySource>()> handler);
  // The same for several paths, each GET answered by `router`.
  static Result<std::unique_ptr<HttpServer>> start(const HttpServerOptions& options, std::vector<std::string> paths,
                                                   HttpRouter router);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The TCP port actually bound (the one chosen by the kernel for port 0).
  std::uint16_t port() const;

  // Connections closed to make room for a new one (the longest waiting), and
  // new ones closed on accept because every open one was being answered.
  struct ConnectionCounts {
    std::uint64_t evicted_total = 0;
    std::uint64_t refused_total = 0;
  };
  ConnectionCounts connectionCounts() const;

 private:
  struct State;
  explicit HttpServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace opticsd
