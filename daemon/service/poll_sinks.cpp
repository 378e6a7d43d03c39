#include "daemon/service/poll_sinks.hpp"

#include "daemon/exporter/poll_accounting.hpp"
#include "daemon/remote_write/remote_write_sink.hpp"
#include "daemon/rules/rules_sink.hpp"
#include "daemon/rules/topology_sink.hpp"
#include "daemon/store/history_sink.hpp"

namespace opticsd {

PollSinks::PollSinks(MetricsExporter& exporter, RulesEngine* rules, SqliteStore* store, RemoteWriter* remote_writer) {
  add<PollAccounting>(exporter.self());
  if (rules != nullptr) add<TopologySink>(*rules);
  if (rules != nullptr) add<RulesSink>(*rules);
  served_ = &add<ServedPolls>(exporter.samples(), exporter.freshness());
  if (remote_writer != nullptr) add<RemoteWriteSink>(*remote_writer);
  if (store != nullptr) add<HistorySink>(*store);
}

void PollSinks::attach(Pipeline& pipeline) {
  for (auto& sink : sinks_) pipeline.addSink(*sink);
}

}  // namespace opticsd
