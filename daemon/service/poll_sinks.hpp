#pragma once
// The one place that lists what the daemon's polls feed, in the order each
// poll reaches them: opticsd's own accounting, topology (before the rules, so
// they see the poll's neighbours), the rules engine, the exporter's cache,
// remote write, history. The pipeline knows none of them: each is a PollSink.
//
// A new consumer (a page, a webhook, OTLP) is one class deriving from
// PollSink and one add<>() line in the constructor (poll_sinks.cpp).
//
// Ownership: owns the sinks; the parts they feed (exporter, engine, store,
// writer) are the caller's and must outlive this. Threading: built and
// attached at start; the sinks then run on the polling thread.

#include <memory>
#include <utility>
#include <vector>

#include "daemon/exporter/metrics_exporter.hpp"
#include "daemon/exporter/served_polls.hpp"
#include "daemon/pipeline/pipeline.hpp"
#include "daemon/pipeline/poll_sink.hpp"

namespace opticsd {

class RulesEngine;
class SqliteStore;
class RemoteWriter;

class PollSinks {
 public:
  // `rules`, `store` and `remote_writer` may be null (not configured).
  PollSinks(MetricsExporter& exporter, RulesEngine* rules, SqliteStore* store, RemoteWriter* remote_writer);

  // Adds every sink to `pipeline`, in the order listed.
  void attach(Pipeline& pipeline);

  // The exporter's cache: the daemon sets its keep_stale_for and expires kept values.
  ServedPolls& served() { return *served_; }

  // Appends a sink (built here from `args`) after those listed.
  template <typename Sink, typename... Args>
  Sink& add(Args&&... args) {
    auto sink = std::make_unique<Sink>(std::forward<Args>(args)...);
    Sink& ref = *sink;
    sinks_.push_back(std::move(sink));
    return ref;
  }

  std::size_t size() const { return sinks_.size(); }

 private:
  std::vector<std::unique_ptr<PollSink>> sinks_;
  ServedPolls* served_ = nullptr;
};

}  // namespace opticsd
