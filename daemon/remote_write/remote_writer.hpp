#pragma once
// Pushes every poll to a remote-write 1.0 receiver (Prometheus with
// --web.enable-remote-write-receiver, VictoriaMetrics, Mimir, Thanos
// Receive) from its own thread.
//
// push() encodes the poll (write_request_encoder.hpp) on the caller's
// thread and queues it; the sender POSTs queued requests one at a time,
// oldest first. A request that fails with a connection error, a timeout, a
// 5xx or a 429 is retried with exponential backoff (min_backoff doubling up
// to max_backoff); any other 4xx is dropped (the receiver will never take
// it). The queue is bounded in samples: when it is full the oldest queued
// request is dropped, so memory stays bounded while a receiver is down.
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

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
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

  void push(const std::string& target, const std::vector<Sample>& samples);
  void setExportPolicy(ExportPolicy policy);

  struct Stats {
    double sent = 0, retried = 0, dropped = 0, queued = 0;
  };
  Stats stats() const;

 private:
  enum class Outcome { kSent, kRetry, kRefused };
  void run();
  Outcome post(const std::string& body);
  void dropLocked(std::uint64_t samples);

  struct Pending {
    std::shared_ptr<const std::string> body;  // shared with the sender while in flight
    std::uint64_t samples = 0;
    std::uint64_t id = 0;
  };

  const RemoteWriteConfig config_;
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

  struct Connection;
  std::unique_ptr<Connection> connection_;  // the sender thread's only
  std::thread sender_;                      // last: started when the rest is ready
};

}  // namespace opticsd
