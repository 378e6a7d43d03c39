#include "daemon/exporter/self_metrics.hpp"

#include "daemon/exporter/label_value.hpp"

namespace opticsd {
namespace {

// Poll durations from a fast local ethtool read to an SNMP walk near its timeout.
const prometheus::Histogram::BucketBoundaries kPollBuckets{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                           1,     2.5,  5,     10,   30,  60};

prometheus::Counter& singleCounter(prometheus::Registry& r, const char* name, const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(r).Add({});
}

prometheus::Gauge& singleGauge(prometheus::Registry& r, const char* name, const char* help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(r).Add({});
}

// prometheus-cpp counters only increment: move to the new total when it is ahead.
void advanceTo(prometheus::Counter& counter, std::uint64_t total) {
  const double delta = static_cast<double>(total) - counter.Value();
  if (delta > 0) counter.Increment(delta);
}

}  // namespace

SelfMetrics::SelfMetrics(prometheus::Registry& registry, std::string_view version)
    : poll_duration_(prometheus::BuildHistogram()
                         .Name("opticsd_poll_duration_seconds")
                         .Help("Duration of one poll of a target, success or not.")
                         .Register(registry)),
      poll_errors_(prometheus::BuildCounter()
                       .Name("opticsd_poll_errors_total")
                       .Help("Polls of a target that failed or timed out.")
                       .Register(registry)),
      target_up_(prometheus::BuildGauge()
                     .Name("opticsd_target_up")
                     .Help("Whether the target answered its last poll (1) or is failing/backing off (0).")
                     .Register(registry)),
      poll_samples_(prometheus::BuildGauge()
                        .Name("opticsd_poll_samples")
                        .Help("Modules returned by the last successful poll of a target.")
                        .Register(registry)),
      target_modules_(prometheus::BuildGauge()
                          .Name("opticsd_target_modules")
                          .Help("Modules the last poll of a target returned; 0 when it failed or found none.")
                          .Register(registry)),
      implausible_values_(prometheus::BuildCounter()
                              .Name("opticsd_implausible_values_total")
                              .Help("Values outside what any module can report (e.g. 2e41 degrees Celsius, a BER "
                                    "above 1), dropped as not reported.")
                              .Register(registry)),
      store_written_(
          singleCounter(registry, "opticsd_store_samples_written_total", "Samples committed to the history store.")),
      store_dropped_(singleCounter(registry, "opticsd_store_samples_dropped_total",
                                   "Samples dropped because the store queue was full or a write failed for good.")),
      store_decimated_(singleCounter(registry, "opticsd_store_samples_decimated_total",
                                     "Samples left out of history by storage.sample_interval (metrics still carry "
                                     "them).")),
      store_downsampled_(singleCounter(registry, "opticsd_store_rows_downsampled_total",
                                       "Old history rows (module and lane) thinned by the storage.downsample tiers.")),
      store_expired_age_(prometheus::BuildCounter()
                             .Name("opticsd_store_rows_expired_total")
                             .Help("History rows deleted by reason: age (older than storage.retention) or size "
                                   "(the oldest, so writes keep succeeding under storage.max_size).")
                             .Register(registry)
                             .Add({{"reason", "age"}})),
      store_expired_size_(prometheus::BuildCounter()
                              .Name("opticsd_store_rows_expired_total")
                              .Help("History rows deleted by reason: age (older than storage.retention) or size "
                                    "(the oldest, so writes keep succeeding under storage.max_size).")
                              .Register(registry)
                              .Add({{"reason", "size"}})),
      store_errors_(singleCounter(registry, "opticsd_store_write_errors_total",
                                  "Failed write transactions of the history store.")),
      store_queue_(
          singleGauge(registry, "opticsd_store_queue_length", "Poll cycles waiting for the history store writer.")),
      store_lag_(singleGauge(registry, "opticsd_store_lag_seconds",
                             "Age of the oldest cycle not yet committed to the history store.")),
      findings_store_up_family_(prometheus::BuildGauge()
                                    .Name("opticsd_findings_store_up")
                                    .Help("Whether findings are being written to the history database (1) or not: "
                                          "it could not be opened or the last write failed (0).")
                                    .Register(registry)),
      findings_dropped_(singleCounter(registry, "opticsd_findings_store_events_dropped_total",
                                      "Findings, suspects and baselines dropped because the findings queue was full.")),
      findings_errors_(singleCounter(registry, "opticsd_findings_store_write_errors_total",
                                     "Failed write transactions of the findings tables (retried).")),
      connections_evicted_(singleCounter(registry, "opticsd_http_connections_evicted_total",
                                         "Connections to /metrics closed to make room for a new one: the one that "
                                         "had waited longest for a request (idle, slow or unauthenticated).")),
      connections_refused_(singleCounter(registry, "opticsd_http_connections_refused_total",
                                         "New connections to /metrics closed at once: every open one was being "
                                         "answered.")),
      reload_success_(singleGauge(registry, "opticsd_config_reload_success",
                                  "Whether the last config load or reload succeeded (1) or was refused (0).")),
      reload_timestamp_(singleGauge(registry, "opticsd_config_last_reload_timestamp_seconds",
                                    "UNIX time of the last successful config load or reload.")) {
  prometheus::BuildGauge()
      .Name("opticsd_build_info")
      .Help("opticsd build; always 1.")
      .Register(registry)
      .Add({{"version", std::string(version)}})
      .Set(1);
}

SelfMetrics::TargetSeries& SelfMetrics::seriesFor(const std::string& target, const std::string& driver) {
  auto [it, inserted] = targets_.try_emplace(target);
  TargetSeries& s = it->second;
  if (!inserted && s.driver == driver) return s;
  if (!inserted) removeSeries(s);  // a reload moved the target to another driver
  s.driver = driver;
  s.labels = {{"target", sanitizeLabelValue(target)}, {"driver", sanitizeLabelValue(driver)}};
  s.duration = &poll_duration_.Add(s.labels, kPollBuckets);
  s.errors = &poll_errors_.Add(s.labels);
  s.implausible = &implausible_values_.Add(s.labels);
  // up and samples are created when first known, so they never show a made-up 0.
  return s;
}

void SelfMetrics::removeSeries(TargetSeries& s) {
  if (s.duration) poll_duration_.Remove(s.duration);
  if (s.errors) poll_errors_.Remove(s.errors);
  if (s.up) target_up_.Remove(s.up);
  if (s.samples) poll_samples_.Remove(s.samples);
  if (s.modules) target_modules_.Remove(s.modules);
  if (s.implausible) implausible_values_.Remove(s.implausible);
  s = TargetSeries{};
}

void SelfMetrics::observePoll(const std::string& target, const std::string& driver, double seconds, bool ok,
                              std::size_t samples) {
  std::lock_guard lock(mutex_);
  TargetSeries& s = seriesFor(target, driver);
  s.duration->Observe(seconds);
  if (!s.modules) s.modules = &target_modules_.Add(s.labels);
  s.modules->Set(ok ? static_cast<double>(samples) : 0.0);
  if (!ok) {
    s.errors->Increment();
    return;
  }
  if (!s.samples) s.samples = &poll_samples_.Add(s.labels);
  s.samples->Set(static_cast<double>(samples));
}

void SelfMetrics::countImplausible(const std::string& target, const std::string& driver, std::size_t count) {
  std::lock_guard lock(mutex_);
  seriesFor(target, driver).implausible->Increment(static_cast<double>(count));
}

void SelfMetrics::setTargetUp(const std::string& target, const std::string& driver, bool up) {
  std::lock_guard lock(mutex_);
  TargetSeries& s = seriesFor(target, driver);
  if (!s.up) s.up = &target_up_.Add(s.labels);
  s.up->Set(up ? 1 : 0);
}

void SelfMetrics::removeTarget(const std::string& target) {
  std::lock_guard lock(mutex_);
  auto it = targets_.find(target);
  if (it == targets_.end()) return;
  removeSeries(it->second);
  targets_.erase(it);
}

void SelfMetrics::setStoreStats(const StoreStats& stats) {
  std::lock_guard lock(mutex_);
  advanceTo(store_written_, stats.written_total);
  advanceTo(store_dropped_, stats.dropped_total);
  advanceTo(store_decimated_, stats.decimated_total);
  advanceTo(store_downsampled_, stats.downsampled_rows_total);
  advanceTo(store_expired_age_, stats.expired_age_rows_total);
  advanceTo(store_expired_size_, stats.expired_size_rows_total);
  advanceTo(store_errors_, stats.write_errors_total);
  store_queue_.Set(static_cast<double>(stats.queue_length));
  store_lag_.Set(stats.lag_seconds);
}

void SelfMetrics::setFindingsStoreStats(const FindingsStoreStats& stats) {
  std::lock_guard lock(mutex_);
  if (!findings_store_up_) findings_store_up_ = &findings_store_up_family_.Add({});
  findings_store_up_->Set(stats.up ? 1 : 0);
  advanceTo(findings_dropped_, stats.dropped_total);
  advanceTo(findings_errors_, stats.write_errors_total);
}

void SelfMetrics::setHttpConnectionCounts(std::uint64_t evicted_total, std::uint64_t refused_total) {
  std::lock_guard lock(mutex_);
  advanceTo(connections_evicted_, evicted_total);
  advanceTo(connections_refused_, refused_total);
}

void SelfMetrics::recordConfigLoad(bool ok, double unix_seconds) {
  std::lock_guard lock(mutex_);
  reload_success_.Set(ok ? 1 : 0);
  if (ok) reload_timestamp_.Set(unix_seconds);
}

}  // namespace opticsd
