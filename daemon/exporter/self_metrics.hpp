#pragma once
// opticsd's own health on /metrics: polling, the history store, config
// reloads and the build. The names are what the collector-health dashboard
// and the target-down / store-behind alerts use:
//   opticsd_poll_duration_seconds{target,driver}   histogram
//   opticsd_poll_errors_total{target,driver}       counter
//   opticsd_target_up{target,driver}               gauge 0/1
//   opticsd_poll_samples{target,driver}            gauge, modules in the last successful poll
//   opticsd_target_modules{target,driver}          gauge, modules in the last poll (0: failed or none found)
//   opticsd_implausible_values_total{target,driver} counter, values outside physics, dropped
//   opticsd_store_samples_written_total, opticsd_store_samples_dropped_total,
//   opticsd_store_samples_decimated_total, opticsd_store_rows_downsampled_total,
//   opticsd_store_write_errors_total               counters
//   opticsd_store_queue_length                     gauge, cycles waiting for the writer
//   opticsd_store_lag_seconds                      gauge
//   opticsd_findings_store_up                      gauge 0/1, findings are being persisted
//                                                  (absent when storage is off in the config)
//   opticsd_findings_store_events_dropped_total,
//   opticsd_findings_store_write_errors_total      counters
//   opticsd_build_info{version}                    gauge, always 1
//   opticsd_config_reload_success                  gauge 0/1, the last load or reload attempt
//   opticsd_config_last_reload_timestamp_seconds   gauge, UNIX time of the last successful load
//   opticsd_http_connections_evicted_total         counter, /metrics connections closed to make
//                                                  room (the longest waiting for a request)
//   opticsd_http_connections_refused_total         counter, closed on accept: every one busy
//
// Ownership: the metrics live in the Registry passed in, which must outlive
// this object. Thread-safety: every method may be called from any thread;
// they are meant for the polling thread (one mutex, taken briefly).

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace opticsd {

class SelfMetrics {
 public:
  SelfMetrics(prometheus::Registry& registry, std::string_view version);

  // One poll of `target` took `seconds`; on success `samples` modules came back.
  void observePoll(const std::string& target, const std::string& driver, double seconds, bool ok, std::size_t samples);
  void setTargetUp(const std::string& target, const std::string& driver, bool up);
  // `count` values of this poll were impossible (drivers/plausibility.hpp) and dropped.
  void countImplausible(const std::string& target, const std::string& driver, std::size_t count);
  // A reload dropped `target`: all its series go away.
  void removeTarget(const std::string& target);

  // Totals as the store counts them; counters only move forward.
  struct StoreStats {
    std::uint64_t written_total = 0;
    std::uint64_t dropped_total = 0;
    std::uint64_t decimated_total = 0;  // left out by storage.sample_interval, by design
    std::uint64_t write_errors_total = 0;
    std::size_t queue_length = 0;  // cycles
    double lag_seconds = 0;
    std::uint64_t downsampled_rows_total = 0;   // old rows thinned by storage.downsample, by design
    std::uint64_t expired_age_rows_total = 0;   // older than storage.retention
    std::uint64_t expired_size_rows_total = 0;  // the oldest, to stay under storage.max_size
  };
  void setStoreStats(const StoreStats& stats);

  // The findings tables: `up` false when they could not be opened or the last write failed.
  struct FindingsStoreStats {
    bool up = false;
    std::uint64_t dropped_total = 0;
    std::uint64_t write_errors_total = 0;
  };
  void setFindingsStoreStats(const FindingsStoreStats& stats);

  // The HTTP server's totals; counters only move forward.
  void setHttpConnectionCounts(std::uint64_t evicted_total, std::uint64_t refused_total);

  // Config load or reload at `unix_seconds`; the timestamp moves only on success.
  void recordConfigLoad(bool ok, double unix_seconds);

 private:
  struct TargetSeries {
    std::string driver;
    prometheus::Labels labels;
    prometheus::Histogram* duration = nullptr;
    prometheus::Counter* errors = nullptr;
    prometheus::Gauge* up = nullptr;
    prometheus::Gauge* samples = nullptr;
    prometheus::Gauge* modules = nullptr;
    prometheus::Counter* implausible = nullptr;
  };
  TargetSeries& seriesFor(const std::string& target, const std::string& driver);  // mutex_ held
  void removeSeries(TargetSeries& series);                                        // mutex_ held

  std::mutex mutex_;
  prometheus::Family<prometheus::Histogram>& poll_duration_;
  prometheus::Family<prometheus::Counter>& poll_errors_;
  prometheus::Family<prometheus::Gauge>& target_up_;
  prometheus::Family<prometheus::Gauge>& poll_samples_;
  prometheus::Family<prometheus::Gauge>& target_modules_;
  prometheus::Family<prometheus::Counter>& implausible_values_;
  prometheus::Counter& store_written_;
  prometheus::Counter& store_dropped_;
  prometheus::Counter& store_decimated_;
  prometheus::Counter& store_downsampled_;
  prometheus::Counter& store_expired_age_;
  prometheus::Counter& store_expired_size_;
  prometheus::Counter& store_errors_;
  prometheus::Gauge& store_queue_;
  prometheus::Gauge& store_lag_;
  prometheus::Family<prometheus::Gauge>& findings_store_up_family_;
  prometheus::Gauge* findings_store_up_ = nullptr;  // created when first known
  prometheus::Counter& findings_dropped_;
  prometheus::Counter& findings_errors_;
  prometheus::Counter& connections_evicted_;
  prometheus::Counter& connections_refused_;
  prometheus::Gauge& reload_success_;
  prometheus::Gauge& reload_timestamp_;
  std::map<std::string, TargetSeries, std::less<>> targets_;
};

}  // namespace opticsd
