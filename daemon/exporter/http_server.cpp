#include "daemon/exporter/http_server.hpp"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdio>
#include <exception>
#include <thread>
#include <type_traits>
#include <utility>

#include "daemon/exporter/basic_auth.hpp"
#include "daemon/exporter/connection_limiter.hpp"

namespace opticsd {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr std::uint32_t kHeaderLimitBytes = 8 * 1024;
constexpr std::string_view kCrLf = "\r\n";
constexpr std::string_view kLastChunk = "0\r\n\r\n";
constexpr std::size_t kTrimAfterBytes = 8 * 1024 * 1024;

class WholeBody : public HttpBodySource {
 public:
  explicit WholeBody(HttpBody parts) : parts_(std::move(parts)) {}
  bool next(HttpBody& out) override {
    out = std::move(parts_);
    return false;
  }

 private:
  HttpBody parts_;
};

// What every connection shares; outlives them (held by shared_ptr).
struct Site {
  std::vector<std::string> paths;
  HttpRouter router;
  std::optional<HttpServerOptions::BasicAuth> basic_auth;
  std::chrono::milliseconds idle_timeout;
  std::chrono::milliseconds handshake_timeout;
  std::chrono::milliseconds write_timeout;
  std::unique_ptr<ConnectionLimiter> limiter;
};

std::string_view view(beast::string_view s) { return {s.data(), s.size()}; }

std::string statusLine(http::status status) {
  return "HTTP/1.1 " + std::to_string(static_cast<unsigned>(status)) + " " +
         std::string(view(http::obsolete_reason(status))) + "\r\n";
}

// One connection: read a request, answer it, and go on while the client
// keeps the connection alive. Stream is beast::tcp_stream or its TLS wrapper.
template <class Stream>
class Connection : public ConnectionLimiter::Evictable, public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(Stream stream, std::shared_ptr<Site> site) : stream_(std::move(stream)), site_(std::move(site)) {}
  ~Connection() override {
    if (ticket_) site_->limiter->leave(*ticket_);
  }

  auto executor() { return stream_.get_executor(); }

  // Serves the connection once the limiter has admitted it; on its strand.
  void run(ConnectionLimiter::Ticket ticket) {
    ticket_ = ticket;
    if (evicted_) return;  // evicted before it started
    if constexpr (kTls) {
      tcp().expires_after(site_->handshake_timeout);
      stream_.async_handshake(asio::ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
        if (ec) return self->close();
        self->readRequest();
      });
    } else {
      readRequest();
    }
  }

  // Closes the socket from the connection's own strand: what is pending
  // ends with operation_aborted and the connection goes away.
  void evict() override {
    asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->evicted_ = true;
      self->tcp().close();
    });
  }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  beast::tcp_stream& tcp() { return beast::get_lowest_layer(stream_); }

  void readRequest() {
    if (evicted_) return;
    site_->limiter->waiting(*ticket_);
    parser_.emplace();
    parser_->header_limit(kHeaderLimitBytes);
    parser_->body_limit(0);  // a GET has no body; anything else is refused below
    tcp().expires_after(site_->idle_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->onRequest(ec); });
  }

  void onRequest(beast::error_code ec) {
    if (evicted_) return;
    if (ec == http::error::end_of_stream) return close();
    if (ec) {
      // Too large, malformed, or a body on the request: say so, then close.
      if (ec == http::error::header_limit) return answer(http::status::request_header_fields_too_large, {}, false);
      if (ec == beast::error::timeout || ec == asio::error::eof || ec == asio::error::connection_reset) return close();
      return answer(http::status::bad_request, {}, false);
    }
    const auto& request = parser_->get();
    const bool keep_alive = request.keep_alive();
    std::string_view target = view(request.target());
    target = target.substr(0, target.find('?'));
    if (std::find(site_->paths.begin(), site_->paths.end(), target) == site_->paths.end()) {
      return answer(http::status::not_found, {}, keep_alive);
    }
    const bool head = request.method() == http::verb::head;
    if (request.method() != http::verb::get && !head) {
      return answer(http::status::method_not_allowed, "Allow: GET, HEAD\r\n", keep_alive);
    }
    if (site_->basic_auth && !basicAuthMatches(view(request[http::field::authorization]), site_->basic_auth->username,
                                               site_->basic_auth->password)) {
      return answer(http::status::unauthorized, "WWW-Authenticate: Basic realm=\"opticsd\"\r\n", keep_alive);
    }
    site_->limiter->busy(*ticket_);
    HttpAnswer routed;
    try {
      const std::string_view full = view(request.target());
      const auto mark = full.find('?');
      routed = site_->router(HttpRequest{target, mark == std::string_view::npos ? "" : full.substr(mark + 1),
                                         view(request[http::field::host]), view(request[http::field::accept_encoding]),
                                         view(request[http::field::accept]), head});
    } catch (const std::exception&) {
      return answer(http::status::internal_server_error, {}, false);
    }
    if (routed.status != 200 || (!routed.body && !head)) {
      return answer(routed.status == 200 ? http::status::internal_server_error : http::int_to_status(routed.status), {},
                    keep_alive);
    }
    if (head) return answerHead(routed, request.version() >= 11, keep_alive);
    stream(std::move(routed), request.version() >= 11, keep_alive);
  }

  // A refusal or an error: a status and headers, no body.
  void answer(http::status status, std::string_view headers, bool keep_alive) {
    head_ = statusLine(status);
    head_ += headers;
    head_ += "Content-Length: 0\r\n";
    if (!keep_alive) head_ += "Connection: close\r\n";
    head_ += "\r\n";
    tcp().expires_after(site_->write_timeout);
    asio::async_write(stream_, asio::buffer(head_),
                      [self = this->shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                        self->onAnswered(ec, keep_alive);
                      });
  }

  static std::string okHead(const HttpAnswer& routed, bool chunked, bool keep_alive) {
    std::string head = statusLine(http::status::ok);
    head += "Content-Type: " + routed.content_type + "\r\n";
    if (routed.gzip) head += "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n";
    head += routed.headers;
    head += chunked ? "Transfer-Encoding: chunked\r\n" : "Connection: close\r\n";
    if (chunked && !keep_alive) head += "Connection: close\r\n";
    return head + "\r\n";
  }

  // HEAD: the headers a GET would get; the body source is dropped unread.
  void answerHead(const HttpAnswer& routed, bool chunked, bool keep_alive) {
    head_ = okHead(routed, chunked, keep_alive);
    const bool keep = chunked && keep_alive;
    tcp().expires_after(site_->write_timeout);
    asio::async_write(
        stream_, asio::buffer(head_),
        [self = this->shared_from_this(), keep](beast::error_code ec, std::size_t) { self->onAnswered(ec, keep); });
  }

  // A 200 whose body is produced while it is sent: chunked for HTTP/1.1,
  // ended by a close for HTTP/1.0.
  void stream(HttpAnswer routed, bool chunked, bool keep_alive) {
    source_ = std::move(routed.body);
    streamed_bytes_ = 0;
    chunked_ = chunked;
    keep_alive_ = chunked && keep_alive;
    head_ = okHead(routed, chunked, keep_alive);
    tcp().expires_after(site_->write_timeout);
    asio::async_write(stream_, asio::buffer(head_),
                      [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec) return self->onAnswered(ec, false);
                        self->sendNext();
                      });
  }

  void sendNext() {
    HttpBody().swap(body_);
    bool more = false;
    try {
      more = source_->next(body_);
    } catch (const std::exception&) {
      return onAnswered(asio::error::operation_aborted, false);  // cut short: the client sees a broken body
    }
    std::size_t length = 0;
    for (const auto& part : body_) length += part.size();
    streamed_bytes_ += length;
    std::vector<asio::const_buffer> buffers;
    if (chunked_ && length > 0) {
      char size[20];
      chunk_head_.assign(size, static_cast<std::size_t>(std::snprintf(size, sizeof size, "%zx\r\n", length)));
      buffers.push_back(asio::buffer(chunk_head_));
    }
    for (const auto& part : body_) {
      if (!part.empty()) buffers.push_back(asio::buffer(part));
    }
    if (chunked_ && length > 0) buffers.push_back(asio::buffer(kCrLf));
    if (chunked_ && !more) buffers.push_back(asio::buffer(kLastChunk));
    // No new deadline here: the one set with the head bounds the whole
    // answer, so a slow reader cannot hold its body (and the memory behind
    // it) for longer than write_timeout however steadily it trickles.
    asio::async_write(stream_, buffers, [self = this->shared_from_this(), more](beast::error_code ec, std::size_t) {
      if (ec || !more) {
        self->source_.reset();
        return self->onAnswered(ec, self->keep_alive_);
      }
      self->sendNext();
    });
  }

  void onAnswered(beast::error_code ec, bool keep_alive) {
    HttpBody().swap(body_);
    source_.reset();
    // A large fleet's exposition is tens of megabytes built from many growing
    // buffers; give those pages back between scrapes instead of keeping the
    // high-water mark resident for good. Not after every small per-target
    // answer: a thousand trims a poll interval would cost more than they free.
    if (std::exchange(streamed_bytes_, 0) >= kTrimAfterBytes) malloc_trim(0);
    if (ec || !keep_alive) return close();
    readRequest();
  }

  void close() {
    beast::error_code ignored;
    if constexpr (kTls) {
      // Best effort close_notify, bounded by a short timer; then the socket goes.
      tcp().expires_after(std::chrono::seconds(1));
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {
        beast::error_code ignored_too;
        self->tcp().socket().shutdown(tcp::socket::shutdown_both, ignored_too);
      });
    } else {
      tcp().socket().shutdown(tcp::socket::shutdown_send, ignored);
      // Read and discard what the client still sends for a moment: closing
      // with unread bytes would reset the connection and could destroy the
      // error answer before the client reads it.
      tcp().expires_after(std::chrono::seconds(1));
      drain();
    }
  }

  void drain() {
    buffer_.clear();
    tcp().async_read_some(buffer_.prepare(4096), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (!ec) self->drain();
    });
  }

  Stream stream_;
  std::shared_ptr<Site> site_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  std::string head_;
  HttpBody body_;
  std::unique_ptr<HttpBodySource> source_;
  std::string chunk_head_;
  bool chunked_ = false;
  bool keep_alive_ = false;
  std::size_t streamed_bytes_ = 0;  // of the answer being sent
  std::optional<ConnectionLimiter::Ticket> ticket_;
  bool evicted_ = false;
};

struct Endpoint {
  std::string host;
  std::string port;
};

// "HOST:PORT", "[V6]:PORT" or "PORT".
Result<tcp::endpoint> parseListen(const std::string& listen) {
  Endpoint e;
  if (!listen.empty() && listen.front() == '[') {
    const auto close = listen.find("]:");
    if (close == std::string::npos) return fail("expected [IPV6]:PORT");
    e = {listen.substr(1, close - 1), listen.substr(close + 2)};
  } else if (const auto colon = listen.rfind(':'); colon != std::string::npos) {
    e = {listen.substr(0, colon), listen.substr(colon + 1)};
  } else {
    e = {"0.0.0.0", listen};
  }
  if (e.port.empty() || e.port.size() > 5 || e.port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(e.port) > 65535) {
    return fail("expected a port number from 0 to 65535");
  }
  beast::error_code ec;
  const auto address = asio::ip::make_address(e.host, ec);
  if (ec) return fail("'" + e.host + "' is not an IP address");
  return tcp::endpoint(address, static_cast<std::uint16_t>(std::stoul(e.port)));
}

Result<std::unique_ptr<asio::ssl::context>> tlsContext(const HttpServerOptions::Tls& tls) {
  auto context = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  context->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1 |
                       asio::ssl::context::single_dh_use);
  beast::error_code ec;
  context->use_certificate_chain_file(tls.cert_file, ec);
  if (ec) return fail("cannot load TLS certificate " + tls.cert_file + ": " + ec.message());
  // OpenSSL also checks here that the key belongs to the certificate.
  context->use_private_key_file(tls.key_file, asio::ssl::context::pem, ec);
  if (ec) return fail("cannot load TLS key " + tls.key_file + ": " + ec.message());
  return context;
}

}  // namespace

struct HttpServer::State {
  std::unique_ptr<asio::ssl::context> tls;  // before io: outlives the connections
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::shared_ptr<Site> site;
  std::vector<std::thread> threads;
  std::uint16_t port = 0;

  asio::steady_timer accept_pause{io};

  void accept() {
    acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        serve(std::move(socket));
        return accept();
      }
      // Out of file descriptors or similar: pause instead of spinning.
      accept_pause.expires_after(std::chrono::milliseconds(100));
      accept_pause.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) accept();
      });
    });
  }

  void serve(tcp::socket socket) {
    beast::error_code ec;
    const std::string source = socket.remote_endpoint(ec).address().to_string();
    if (ec) return;  // already gone
    beast::tcp_stream stream(std::move(socket));
    if (tls) {
      admit(std::make_shared<Connection<beast::ssl_stream<beast::tcp_stream>>>(
                beast::ssl_stream<beast::tcp_stream>(std::move(stream), *tls), site),
            source);
    } else {
      admit(std::make_shared<Connection<beast::tcp_stream>>(std::move(stream), site), source);
    }
  }

  // Without room (every slot busy answering) the connection is dropped
  // here and its socket closes: a flood does not pile up connections.
  template <class C>
  void admit(const std::shared_ptr<C>& connection, const std::string& source) {
    const auto ticket = site->limiter->admit(source, connection);
    if (!ticket) return;
    asio::post(connection->executor(), [connection, ticket = *ticket] { connection->run(ticket); });
  }
};

std::unique_ptr<HttpBodySource> wholeBody(HttpBody parts) { return std::make_unique<WholeBody>(std::move(parts)); }

HttpServer::HttpServer(std::unique_ptr<State> state) : state_(std::move(state)) {}

HttpServer::~HttpServer() {
  state_->io.stop();
  for (auto& t : state_->threads) t.join();
}

HttpServer::ConnectionCounts HttpServer::connectionCounts() const {
  return {state_->site->limiter->evictions(), state_->site->limiter->refusals()};
}

std::uint16_t HttpServer::port() const { return state_->port; }

Result<std::unique_ptr<HttpServer>> HttpServer::start(const HttpServerOptions& options, std::string path,
                                                      std::function<std::unique_ptr<HttpBodySource>()> handler) {
  return start(options, std::vector<std::string>{std::move(path)},
               [handler = std::move(handler)](const HttpRequest& r) {
                 return r.head ? HttpAnswer{200, nullptr} : HttpAnswer{200, handler()};
               });
}

Result<std::unique_ptr<HttpServer>> HttpServer::start(const HttpServerOptions& options, std::vector<std::string> paths,
                                                      HttpRouter router) {
  if (options.threads == 0) return fail("http: threads must be at least 1");
  auto endpoint = parseListen(options.listen);
  if (!endpoint) return fail("http: listen address '" + options.listen + "': " + endpoint.error().message);

  auto state = std::make_unique<State>();
  if (options.tls) {
    auto context = tlsContext(*options.tls);
    if (!context) return fail("http: " + context.error().message);
    state->tls = std::move(*context);
  }
  state->site = std::make_shared<Site>();
  state->site->paths = std::move(paths);
  state->site->router = std::move(router);
  state->site->basic_auth = options.basic_auth;
  state->site->idle_timeout = options.idle_timeout;
  state->site->handshake_timeout = options.handshake_timeout;
  state->site->write_timeout = options.write_timeout;
  state->site->limiter = std::make_unique<ConnectionLimiter>(
      ConnectionLimiter::Limits{options.max_connections, options.max_connections_per_source});

  beast::error_code ec;
  auto& acceptor = state->acceptor;
  acceptor.open(endpoint->protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(*endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail("http: cannot listen on " + options.listen + ": " + ec.message());
  state->port = acceptor.local_endpoint().port();

  state->accept();
  for (std::size_t i = 0; i < options.threads; ++i) {
    state->threads.emplace_back([&io = state->io] { io.run(); });
  }
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(state)));
}

}  // namespace opticsd
