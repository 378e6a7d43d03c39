#include "daemon/remote_write/remote_writer.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>

namespace opticsd {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// One keep-alive connection to the receiver, reopened after any error.
struct RemoteWriter::Connection {
  asio::io_context io;
  std::optional<beast::tcp_stream> stream;
};

namespace {

prometheus::Counter& counter(prometheus::Registry& registry, const std::string& name, const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry).Add({});
}

}  // namespace

RemoteWriter::RemoteWriter(RemoteWriteConfig config, prometheus::Registry& registry)
    : config_(std::move(config)),
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
      connection_(std::make_unique<Connection>()),
      sender_([this] { run(); }) {}

RemoteWriter::~RemoteWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  sender_.join();
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

void RemoteWriter::push(const std::string& target, const std::vector<Sample>& samples) {
  std::shared_ptr<const ExportPolicy> policy;
  {
    std::lock_guard lock(mutex_);
    policy = policy_;
  }
  EncodedWrite write = encodeWriteRequest(target, samples, policy.get(), config_.external_labels);
  if (write.samples == 0) return;
  {
    std::lock_guard lock(mutex_);
    if (write.samples > config_.queue_samples) {
      dropped_.Increment(static_cast<double>(write.samples));
      return;
    }
    // Full: the oldest goes first, so what is sent after an outage is the newest.
    while (queued_samples_ + write.samples > config_.queue_samples && !queue_.empty()) {
      dropLocked(queue_.front().samples);
      queue_.pop_front();
    }
    queued_samples_ += write.samples;
    queued_.Set(static_cast<double>(queued_samples_));
    queue_.push_back({std::make_shared<const std::string>(std::move(write.body)), write.samples, next_id_++});
  }
  wake_.notify_one();
}

RemoteWriter::Stats RemoteWriter::stats() const {
  return {sent_.Value(), retried_.Value(), dropped_.Value(), queued_.Value()};
}

void RemoteWriter::run() {
  std::unique_lock lock(mutex_);
  auto backoff = config_.min_backoff;
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    // The request stays queued while it is tried: a full queue drops it like any other.
    const Pending pending = queue_.front();
    lock.unlock();
    const Outcome outcome = post(*pending.body);
    lock.lock();
    const std::uint64_t samples = pending.samples;
    const bool still_first = !queue_.empty() && queue_.front().id == pending.id;
    if (outcome == Outcome::kRetry) {
      if (still_first) retried_.Increment(static_cast<double>(samples));
      wake_.wait_for(lock, backoff, [this] { return stopping_; });
      backoff = std::min(backoff * 2, config_.max_backoff);
      continue;
    }
    backoff = config_.min_backoff;
    if (!still_first) continue;  // dropped by a full queue while in flight: already counted
    if (outcome == Outcome::kSent) {
      sent_.Increment(static_cast<double>(samples));
      queued_samples_ -= std::min(queued_samples_, samples);
      queued_.Set(static_cast<double>(queued_samples_));
    } else {
      dropLocked(samples);
    }
    queue_.pop_front();
  }
}

RemoteWriter::Outcome RemoteWriter::post(const std::string& body) {
  Connection& c = *connection_;
  beast::error_code ec;
  if (!c.stream) {
    asio::ip::tcp::resolver resolver(c.io);
    const auto endpoints = resolver.resolve(config_.host, config_.port, ec);
    if (ec) return Outcome::kRetry;
    c.stream.emplace(c.io);
    c.stream->expires_after(config_.timeout);
    c.stream->connect(endpoints, ec);
    if (ec) {
      c.stream.reset();
      return Outcome::kRetry;
    }
  }
  http::request<http::string_body> request{http::verb::post, config_.path, 11};
  request.set(http::field::host, config_.host + ":" + config_.port);
  request.set(http::field::user_agent, "opticsd");
  request.set(http::field::content_type, "application/x-protobuf");
  request.set(http::field::content_encoding, "snappy");
  request.set("X-Prometheus-Remote-Write-Version", "0.1.0");
  request.body() = body;
  request.prepare_payload();
  c.stream->expires_after(config_.timeout);
  http::write(*c.stream, request, ec);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (!ec) http::read(*c.stream, buffer, response, ec);
  if (ec || !response.keep_alive()) c.stream.reset();
  if (ec) return Outcome::kRetry;
  const unsigned status = response.result_int();
  if (status / 100 == 2) return Outcome::kSent;
  if (status == 429 || status / 100 == 5) return Outcome::kRetry;
  return Outcome::kRefused;
}

}  // namespace opticsd
