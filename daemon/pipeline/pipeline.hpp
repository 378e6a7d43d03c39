#pragma once
// Where a finished poll goes: derived values are added to its Samples, then
// they fan out to the exporter's latest-value cache and to the history store.
// Per-target success and duration are recorded here, once for every driver.
//
// A failed poll (any driver: an agent that does not answer, a stream down,
// an ethtool error) leaves the target's last good values on /metrics for
// keep_stale_for after its first failed poll, marked stale (TargetFreshness),
// then drops them. Kept values are only served: never stored, pushed or given
// to the stages again (the stages see the failed poll's own, empty, Samples).
//
// Threading: onReport() and setTargets() run on the scheduler's thread. The
// sinks it feeds are thread-safe and never block it (the store only queues).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/self_metrics.hpp"
#include "daemon/exporter/target_freshness.hpp"
#include "daemon/log/log.hpp"
#include "daemon/pipeline/fec_ber_deriver.hpp"
#include "daemon/scheduler/scheduler.hpp"

namespace opticsd {

class SqliteStore;

class Pipeline {
 public:
  // Optional extra stage over every poll's Samples (derivations, rules).
  using Stage = std::function<void(const std::string& target, std::vector<Sample>& samples)>;

  // `store` may be null (history disabled or unavailable).
  Pipeline(LatestSamples& latest, SelfMetrics& self, TargetFreshness& freshness, SqliteStore* store);

  // How long a failing target's last good values stay on /metrics, marked
  // stale, after its first failed poll (poll.keep_stale_for); zero drops them
  // at the first failed poll. Applies from the next poll or expireStale().
  void setKeepStaleFor(std::chrono::milliseconds keep) { keep_stale_for_ = keep; }

  // Drops the kept values of targets failing for keep_stale_for or longer at
  // `now_ms` (UNIX ms). Called every few seconds by the daemon: a failing
  // target backs off, so its next poll may be minutes away.
  void expireStale(std::int64_t now_ms);

  void addStage(Stage stage) { stages_.push_back(std::move(stage)); }

  // Optional sink for the LLDP neighbours a poll reported (topology), run
  // before the Sample stages so they see this poll's neighbours.
  using NeighborStage = std::function<void(const std::string& target, const std::vector<LinkNeighbor>& neighbors)>;
  void addNeighborStage(NeighborStage stage) { neighbor_stages_.push_back(std::move(stage)); }

  // The targets being polled now; results of any other target (a poll that
  // finished after a reload removed it) are dropped, and removed targets'
  // series disappear.
  void setTargets(const std::vector<std::string>& targets);

  void onReport(PollReport& report);

  std::uint64_t cycles() const { return cycles_; }

 private:
  std::size_t dropThresholdsOncePerModule(const std::string& target, Sample& sample);
  void publishGoodPoll(PollReport& report);
  void keepAfterFailedPoll(const PollReport& report);
  void dropKeptValues(const std::string& target, const std::string& driver);

  LatestSamples& latest_;
  SelfMetrics& self_;
  TargetFreshness& freshness_;
  SqliteStore* store_;
  std::chrono::milliseconds keep_stale_for_{0};
  // Targets whose values are on /metrics, with their driver: fresh (no time)
  // or kept since their first failed poll (UNIX ms).
  struct Served {
    std::string driver;
    std::optional<std::int64_t> kept_since_ms;
  };
  std::map<std::string, Served, std::less<>> served_;
  FecBerDeriver fec_;  // pre-FEC BER from counters, for every driver, before any stage
  std::vector<Stage> stages_;
  std::vector<NeighborStage> neighbor_stages_;
  std::set<std::string, std::less<>> targets_;
  std::set<std::string, std::less<>> failing_;
  LogLimiter limiter_;
  // Per target, the modules ("port\nserial") whose impossible thresholds were said.
  std::map<std::string, std::set<std::string>, std::less<>> thresholds_reported_;
  std::uint64_t cycles_ = 0;
};

}  // namespace opticsd
