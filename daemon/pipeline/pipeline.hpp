#pragma once
// Where a finished poll goes: derived values are added to its Samples, then
// they fan out to the exporter's latest-value cache and to the history store.
// Per-target success and duration are recorded here, once for every driver.
//
// Threading: onReport() and setTargets() run on the scheduler's thread. The
// sinks it feeds are thread-safe and never block it (the store only queues).

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/self_metrics.hpp"
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
  Pipeline(LatestSamples& latest, SelfMetrics& self, SqliteStore* store);

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

  LatestSamples& latest_;
  SelfMetrics& self_;
  SqliteStore* store_;
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
