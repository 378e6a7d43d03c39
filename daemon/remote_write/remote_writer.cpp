#include "daemon/remote_write/remote_writer.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <optional>
#include <set>
#include <string_view>

#include "daemon/exporter/basic_auth.hpp"
#include "daemon/exporter/bounded_step.hpp"
#include "daemon/remote_write/remote_write_tls.hpp"

namespace opticsd {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// One keep-alive connection to the receiver, reopened after any error:
// plain, or TLS when the url is https://.
struct RemoteWriter::Connection {
  asio::io_context io;
  std::shared_ptr<asio::ssl::context> tls;  // null: plain HTTP
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;

  bool open() const { return plain || secure; }
  void close() {
    plain.reset();
    secure.reset();
  }
  beast::tcp_stream& tcp() { return plain ? *plain : beast::get_lowest_layer(*secure); }
};

namespace {

// The Authorization header's value; empty without auth. Never logged.
std::string authorization(const RemoteWriteConfig& config) {
  if (!config.basic_auth_user.empty()) return basicAuthorization(config.basic_auth_user, config.basic_auth_password);
  if (!config.bearer_token.empty()) return "Bearer " + config.bearer_token;
  return {};
}

prometheus::Counter& counter(prometheus::Registry& registry, const std::string& name, const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry).Add({});
}

}  // namespace

std::vector<std::unique_ptr<RemoteWriter::Connection>> RemoteWriter::makeConnections(const RemoteWriteConfig& config) {
  std::shared_ptr<asio::ssl::context> tls;
  if (config.tls) {
    // The config reader loaded the same files; one that changed since then
    // fails every request (counted as retried) until it is fixed.
    auto context = makeRemoteWriteTlsContext(config);
    tls = context ? *context : std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  }
  std::vector<std::unique_ptr<Connection>> out;
  for (unsigned i = 0; i < std::max(1u, config.connections); ++i) {
    out.push_back(std::make_unique<Connection>());
    out.back()->tls = tls;
  }
  return out;
}

RemoteWriter::RemoteWriter(RemoteWriteConfig config, prometheus::Registry& registry)
    : config_(std::move(config)),
      registry_(registry),
      sent_(counter(registry, "opticsd_remote_write_samples_sent_total",
                    "Samples the remote-write receiver accepted (2xx).")),
      retried_(counter(registry, "opticsd_remote_write_samples_retried_total",
                       "Samples sent again after a connection error, timeout, 5xx or 429 (each retry counts).")),
      dropped_(counter(registry, "opticsd_remote_write_samples_dropped_total",
                       "Samples never delivered: the queue was full, the receiver refused them (4xx), or "
                       "opticsd stopped with them queued.")),
      queued_(prometheus::BuildGauge()
                  .Name("opticsd_remote_write_queue_samples")
                  .Help("Samples waiting for the remote-write receiver.")
                  .Register(registry)
                  .Add({})),
      authorization_(authorization(config_)),
      connections_(makeConnections(config_)) {
  for (auto& connection : connections_) senders_.emplace_back([this, c = connection.get()] { run(*c); });
}

RemoteWriter::~RemoteWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& sender : senders_) sender.join();
  std::lock_guard lock(mutex_);
  while (!queue_.empty()) {
    dropLocked(queue_.front().samples);
    queue_.pop_front();
  }
}

void RemoteWriter::setExportPolicy(ExportPolicy policy) {
  auto shared = std::make_shared<const ExportPolicy>(std::move(policy));
  std::lock_guard lock(mutex_);
  policy_ = std::move(shared);
}

void RemoteWriter::dropLocked(std::uint64_t samples) {
  dropped_.Increment(static_cast<double>(samples));
  queued_samples_ -= std::min(queued_samples_, samples);
  queued_.Set(static_cast<double>(queued_samples_));
}

void RemoteWriter::setTargetSource(std::weak_ptr<const TargetCollectable> source) {
  std::lock_guard lock(mutex_);
  target_source_ = std::move(source);
}

void RemoteWriter::push(const std::string& target, const std::vector<Sample>& samples) {
  pushSelfWhenDue();
  std::shared_ptr<const ExportPolicy> policy;
  std::shared_ptr<const TargetCollectable> source;
  {
    std::lock_guard lock(mutex_);
    policy = policy_;
    source = target_source_.lock();
  }
  // A poll without modules has no findings either: nothing to send.
  if (samples.empty()) return;
  const auto families = source ? source->collectTarget(target) : std::vector<prometheus::MetricFamily>{};
  enqueue(encodeWriteRequest(target, samples, policy.get(), config_.external_labels, families));
}

void RemoteWriter::pushSelfWhenDue() {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    if (now < next_self_) return;
    next_self_ = now + kSelfEvery;
  }
  enqueue(encodeFamilies(registry_.Collect(), config_.external_labels));
}

void RemoteWriter::enqueue(EncodedWrite write) {
  if (write.samples == 0) return;
  {
    std::lock_guard lock(mutex_);
    if (write.samples > config_.queue_samples) {
      dropped_.Increment(static_cast<double>(write.samples));
      return;
    }
    makeRoomLocked(write.samples);
    if (queued_samples_ + write.samples > config_.queue_samples) {
      // What the senders hold fills the queue: the newest gives way this time.
      dropped_.Increment(static_cast<double>(write.samples));
      return;
    }
    queued_samples_ += write.samples;
    queued_.Set(static_cast<double>(queued_samples_));
    queue_.push_back({std::make_shared<const std::string>(std::move(write.body)), write.samples, next_id_++,
                      std::move(write.target)});
  }
  wake_.notify_one();
}

RemoteWriter::Stats RemoteWriter::stats() const {
  return {sent_.Value(), retried_.Value(), dropped_.Value(), queued_.Value()};
}

void RemoteWriter::makeRoomLocked(std::uint64_t samples) {
  // Full: the oldest goes first, so what is sent after an outage is the
  // newest. A request being posted stays: it may well arrive.
  for (auto it = queue_.begin(); queued_samples_ + samples > config_.queue_samples && it != queue_.end();) {
    if (it->in_flight) {
      ++it;
      continue;
    }
    dropLocked(it->samples);
    it = queue_.erase(it);
  }
}

std::deque<RemoteWriter::Pending>::iterator RemoteWriter::nextToSendLocked() {
  std::set<std::string_view> busy;
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->in_flight) {
      busy.insert(it->target);
    } else if (!busy.contains(it->target)) {
      return it;
    }
  }
  return queue_.end();
}

void RemoteWriter::run(Connection& connection) {
  std::unique_lock lock(mutex_);
  auto backoff = config_.min_backoff;
  while (true) {
    std::deque<Pending>::iterator next;
    wake_.wait(lock, [&] { return stopping_ || (next = nextToSendLocked()) != queue_.end(); });
    if (stopping_) return;
    next->in_flight = true;
    const std::shared_ptr<const std::string> body = next->body;
    const std::uint64_t id = next->id;
    const std::uint64_t samples = next->samples;
    lock.unlock();
    const Outcome outcome = post(connection, *body);
    lock.lock();
    // Only this sender erases an in-flight request: it is still queued.
    const auto it = std::find_if(queue_.begin(), queue_.end(), [id](const Pending& p) { return p.id == id; });
    if (outcome == Outcome::kRetry) {
      // Held through the backoff, so no other sender retries it sooner.
      retried_.Increment(static_cast<double>(samples));
      wake_.wait_for(lock, backoff, [this] { return stopping_; });
      backoff = std::min(backoff * 2, config_.max_backoff);
      const auto again = std::find_if(queue_.begin(), queue_.end(), [id](const Pending& p) { return p.id == id; });
      if (again != queue_.end()) again->in_flight = false;
      wake_.notify_all();
      continue;
    }
    backoff = config_.min_backoff;
    if (outcome == Outcome::kSent) {
      sent_.Increment(static_cast<double>(samples));
      queued_samples_ -= std::min(queued_samples_, samples);
      queued_.Set(static_cast<double>(queued_samples_));
    } else {
      dropLocked(samples);
    }
    queue_.erase(it);
    wake_.notify_all();  // its target's next request may go now
  }
}

RemoteWriter::Outcome RemoteWriter::post(Connection& c, const std::string& body) {
  beast::error_code ec;
  if (!c.open()) {
    asio::ip::tcp::resolver resolver(c.io);
    const auto endpoints = resolver.resolve(config_.host, config_.port, ec);
    if (ec) return Outcome::kRetry;
    if (c.tls) {
      c.secure.emplace(c.io, *c.tls);
      // SNI (a name, never an address), and the certificate must name the url's host.
      boost::system::error_code not_an_address;
      (void)asio::ip::make_address(config_.host, not_an_address);
      if (not_an_address) SSL_set_tlsext_host_name(c.secure->native_handle(), config_.host.c_str());
      c.secure->set_verify_callback(asio::ssl::host_name_verification(config_.host));
    } else {
      c.plain.emplace(c.io);
    }
    c.tcp().expires_after(config_.timeout);
    ec = runBoundedStep(c.io, [&](auto done) { c.tcp().async_connect(endpoints, std::move(done)); });
    if (!ec && c.secure) {
      ec = runBoundedStep(
          c.io, [&](auto done) { c.secure->async_handshake(asio::ssl::stream_base::client, std::move(done)); });
    }
    if (ec) {
      c.close();
      return Outcome::kRetry;
    }
  }
  http::request<http::string_body> request{http::verb::post, config_.path, 11};
  request.set(http::field::host, config_.host + ":" + config_.port);
  request.set(http::field::user_agent, "opticsd");
  request.set(http::field::content_type, "application/x-protobuf");
  request.set(http::field::content_encoding, "snappy");
  request.set("X-Prometheus-Remote-Write-Version", "0.1.0");
  if (!authorization_.empty()) request.set(http::field::authorization, authorization_);
  request.body() = body;
  request.prepare_payload();
  c.tcp().expires_after(config_.timeout);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  // Asynchronous steps: the deadline above bounds only those, and a receiver
  // that accepts and never answers must cost one timeout, not the sender.
  auto exchange = [&](auto& stream) {
    ec = runBoundedStep(c.io, [&](auto done) { http::async_write(stream, request, std::move(done)); });
    if (!ec) ec = runBoundedStep(c.io, [&](auto done) { http::async_read(stream, buffer, response, std::move(done)); });
  };
  if (c.secure) {
    exchange(*c.secure);
  } else {
    exchange(*c.plain);
  }
  if (ec || !response.keep_alive()) c.close();
  if (ec) return Outcome::kRetry;
  const unsigned status = response.result_int();
  if (status / 100 == 2) return Outcome::kSent;
  // 401/403 are retried: a password or certificate being rotated on either
  // side should not lose the samples queued meanwhile.
  if (status == 429 || status == 401 || status == 403 || status / 100 == 5) return Outcome::kRetry;
  return Outcome::kRefused;
}

}  // namespace opticsd
