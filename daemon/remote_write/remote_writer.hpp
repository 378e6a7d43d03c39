#pragma once
// Pushes every poll to a remote-write 1.0 receiver (Prometheus with
// --web.enable-remote-write-receiver, VictoriaMetrics, Mimir, Thanos
// Receive) from its own thread.
//
// push() encodes the poll (write_request_encoder.hpp) on the caller's
// thread and queues it; `connections` sender threads, each with its own
// keep-alive connection, POST queued requests oldest first, one target's
// requests one at a time and in order. A request that fails with a connection error, a timeout, a
// 5xx, a 429, a 401 or a 403 is retried with exponential backoff (min_backoff doubling up
// to max_backoff); any other 4xx is dropped (the receiver will never take
// it). The queue is bounded in samples: when it is full the oldest queued
// request no sender holds is dropped, so memory stays bounded while a receiver is down.
// Every sample ends up counted once as sent or dropped; each retry of a
// request counts its samples as retried:
//   opticsd_remote_write_samples_sent_total, _retried_total, _dropped_total,
//   opticsd_remote_write_queue_samples.
//
// Thread-safety: push() and setExportPolicy() may be called from any thread.
// The destructor stops the sender (counting what is still queued as dropped).

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "daemon/exporter/target_collectable.hpp"
#include "daemon/remote_write/remote_write_config.hpp"
#include "daemon/remote_write/write_request_encoder.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class RemoteWriter {
 public:
  RemoteWriter(RemoteWriteConfig config, prometheus::Registry& registry);
  ~RemoteWriter();
  RemoteWriter(const RemoteWriter&) = delete;
  RemoteWriter& operator=(const RemoteWriter&) = delete;

  // One target's poll, with that target's series from the target source;
  // every kSelfEvery also opticsd's own metrics (the registry given to the
  // constructor: /metrics/self's families), so a pushing fleet needs no scrape.
  void push(const std::string& target, const std::vector<Sample>& samples);
  // Only opticsd's own metrics, when due (a failed poll: no target series).
  void pushSelfWhenDue();
  void setExportPolicy(ExportPolicy policy);
  // The rules engine's per-target series (findings, suspect score, ...).
  void setTargetSource(std::weak_ptr<const TargetCollectable> source);

  static constexpr std::chrono::seconds kSelfEvery{30};

  struct Stats {
    double sent = 0, retried = 0, dropped = 0, queued = 0;
  };
  Stats stats() const;

 private:
  enum class Outcome { kSent, kRetry, kRefused };
  struct Connection;
  void run(Connection& connection);
  Outcome post(Connection& connection, const std::string& body);
  static std::vector<std::unique_ptr<Connection>> makeConnections(const RemoteWriteConfig& config);
  void dropLocked(std::uint64_t samples);
  void enqueue(EncodedWrite write);

  struct Pending {
    std::shared_ptr<const std::string> body;  // shared with the sender while in flight
    std::uint64_t samples = 0;
    std::uint64_t id = 0;
    std::string target;      // "" for opticsd's own metrics
    bool in_flight = false;  // a sender is posting it: never dropped by a full queue
  };
  // The oldest request no sender holds and whose target has none in flight
  // (so one target's polls arrive in order: Prometheus refuses out-of-order samples).
  std::deque<Pending>::iterator nextToSendLocked();
  // Drops the oldest requests no sender holds until `samples` more fit.
  void makeRoomLocked(std::uint64_t samples);

  const RemoteWriteConfig config_;
  prometheus::Registry& registry_;
  prometheus::Counter& sent_;
  prometheus::Counter& retried_;
  prometheus::Counter& dropped_;
  prometheus::Gauge& queued_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  std::uint64_t next_id_ = 0;
  std::uint64_t queued_samples_ = 0;
  bool stopping_ = false;
  std::shared_ptr<const ExportPolicy> policy_ = std::make_shared<const ExportPolicy>();
  std::weak_ptr<const TargetCollectable> target_source_;
  std::chrono::steady_clock::time_point next_self_{};  // the first push also sends them

  const std::string authorization_;                       // the header's value; empty without auth; never logged
  std::vector<std::unique_ptr<Connection>> connections_;  // one per sender thread
  std::vector<std::thread> senders_;                      // last: started when the rest is ready
};

}  // namespace opticsd
