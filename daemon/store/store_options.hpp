#pragma once
// Settings and self-statistics of the SQLite history store.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opticsd {

// Rows older than `after` keep one row per module per `interval` (history_downsampler.hpp).
struct DownsampleTier {
  std::chrono::milliseconds after;
  std::chrono::milliseconds interval;
  bool operator==(const DownsampleTier&) const = default;
};

// Deadband (exception) recording, deadband.hpp. Defaults are documented in
// the README's History section. They sit about 4-6 standard deviations of a
// poll-to-poll difference above the noise of a healthy module's readings (sim
// fleet, tests/bench/store/store_size_bench.cpp), so noise alone rarely stores
// a row, while a real step (a dirty connector's 0.5 dB, a BER decade) does.
struct DeadbandOptions {
  // At most this long between two stored rows of a module; zero turns the
  // deadband off (every sample is stored).
  // 20 minutes: 14 days of 64,000 sim modules polled every 30 s measured at
  // 16 GiB (10 minutes: 31 GiB), README History.
  std::chrono::milliseconds heartbeat{std::chrono::minutes(20)};
  double power_db = 0.2;        // _dbm, _decibels
  double temperature_c = 0.5;   // _celsius
  double voltage_v = 0.02;      // _volts
  double relative = 0.02;       // bias and units without their own: 2 % of the last stored value
  double ber_decades = 0.3;     // BER and frame-error ratios
  double percent_points = 1.0;  // _percent
  // Polls kept at full resolution before and after a finding is raised or cleared.
  std::size_t finding_context_rows = 2;
  bool operator==(const DeadbandOptions&) const = default;
};

struct StoreOptions {
  std::filesystem::path path;  // the database file; its directory must exist
  // Poll cycles waiting for the writer (queued or in a failing batch) before
  // new cycles are dropped and counted.
  std::size_t queue_capacity_cycles = 4096;
  // Rows older than this are deleted; zero keeps everything.
  std::chrono::milliseconds retention{std::chrono::hours(24 * 14)};
  std::chrono::milliseconds retention_interval{std::chrono::minutes(5)};
  std::size_t retention_modules_per_step = 1000;  // modules expired per transaction, so writes interleave
  // Near max_size_bytes, this much of the oldest history goes per step.
  std::chrono::milliseconds size_expiry_slice{std::chrono::hours(1)};
  DeadbandOptions deadband;
  // Resolution by age, tiers in order of `after`; empty keeps every row until retention.
  std::vector<DownsampleTier> downsample;
  std::size_t downsample_modules_per_step = 200;  // modules thinned per transaction, so writes interleave
  // History resolution: at most one sample per module per interval, plus every
  // sample where the module's state changed (HistoryDecimator); zero keeps all.
  std::chrono::milliseconds sample_interval{0};
  // Queued cycles merged into one transaction (amortises the commit's fsync).
  std::size_t max_batch_cycles = 32;
  // How long one attempt waits for another connection's lock before the
  // batch is retried later (the writer never waits on the polling thread).
  std::chrono::milliseconds busy_timeout{1000};
  std::chrono::milliseconds retry_initial{100};
  std::chrono::milliseconds retry_max{std::chrono::seconds(10)};
  // Caps the database size (PRAGMA max_page_count); zero is unlimited.
  std::uint64_t max_size_bytes = 0;
  // Wall clock in UNIX ms (retention cutoff, last write time); a seam for tests.
  std::function<std::int64_t()> now_ms;
  // Called from the writer thread when writing starts failing, recovers, or
  // begins dropping; the daemon logs it. Transitions only, so never a flood.
  std::function<void(std::string_view)> log;
};

struct StoreStats {
  std::size_t queued_cycles = 0;  // waiting or being retried
  std::uint64_t written_cycles_total = 0;
  std::uint64_t written_samples_total = 0;  // module rows
  std::uint64_t written_lanes_total = 0;    // lane rows
  std::uint64_t dropped_cycles_total = 0;
  std::uint64_t dropped_samples_total = 0;
  std::uint64_t dropped_finding_events_total = 0;  // findings/suspects/baselines lost to a long failure
  std::uint64_t decimated_samples_total = 0;       // left out by the sample interval, by design
  std::uint64_t write_errors_total = 0;            // failed transaction attempts
  std::uint64_t reopens_total = 0;                 // connection re-created after a failure or a replaced file
  std::uint64_t stored_rows_total = 0;             // module_history rows written (samples less the deadband)
  std::uint64_t retention_deleted_rows_total = 0;  // expired by age (storage.retention)
  std::uint64_t expired_rows_size_total = 0;       // oldest rows expired to stay under max_size_bytes
  std::uint64_t downsampled_rows_total = 0;        // old rows removed by the downsample tiers
  bool failing = false;                            // the last attempt failed
  std::string last_error;                          // empty until the first failure
  std::optional<std::int64_t> last_error_ms;
  std::optional<std::int64_t> last_write_ms;  // last committed batch, UNIX ms
  double lag_seconds = 0;                     // age of the oldest cycle not yet written
};

}  // namespace opticsd
