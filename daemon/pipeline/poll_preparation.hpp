#pragma once
// The one way a poll's Samples are made ready for anyone to see: the daemon,
// `opticsd poll-once`, replay, the golden test and the detection harness all
// call prepare(), so what poll-once prints is what /metrics serves and what
// the rules judge.
//
//   1. stamp: the target's name, and the poll's start time where the driver
//      gave none (replay and gNMI carry their own);
//   2. plausibility: impossible readings are dropped every poll and logged
//      (rate-limited per target); impossible module thresholds are dropped
//      every poll but said and counted once per module (per serial, so a
//      swapped-in module is told of again);
//   3. FEC: pre-FEC BER derived from the counters (FecBerDeriver);
//   4. maintenance: the ports the config pauses (`maintenance:`) marked, so
//      every sink sees them as such (no findings, no alerts).
//
// Keeps per-target state (FEC baselines, modules already told of): one
// preparation per stream of polls. Not thread-safe: the polling thread only.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "daemon/log/log.hpp"
#include "daemon/pipeline/fec_ber_deriver.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class PollPreparation {
 public:
  // Prepares `samples` of one poll of `target` that started at `started_ms`
  // (UNIX ms), in place. Returns how many values were counted as implausible
  // (every impossible reading; a module's impossible thresholds once).
  std::size_t prepare(const std::string& target, std::int64_t started_ms, std::vector<Sample>& samples);

  // What a caller has already checked of a Sample (the backtest, rebuilding
  // stored rows, tests each value as it decodes it): a check known to drop
  // nothing is skipped, the rest is prepare()'s own.
  struct Checked {
    bool readings_plausible = false;    // dropImplausibleReadings would drop nothing
    bool thresholds_plausible = false;  // dropImplausibleThresholds would drop nothing
  };
  // prepare(), `checked[i]` saying what is known of samples[i] (same size).
  std::size_t prepare(const std::string& target, std::int64_t started_ms, std::vector<Sample>& samples,
                      const std::vector<Checked>& checked);

  // Marks the Samples of ports paused on purpose (the config's `maintenance:`
  // list, swapped on reload); empty: nothing is paused.
  using MaintenanceMarker = std::function<void(const std::string& target, std::vector<Sample>& samples)>;
  void setMaintenanceMarker(MaintenanceMarker marker) { maintenance_ = std::move(marker); }

  // A reload removed `target`: its FEC baselines and told-of modules go.
  void forgetTarget(const std::string& target);

 private:
  std::size_t dropThresholdsOncePerModule(const std::string& target, Sample& sample);

  FecBerDeriver fec_;
  MaintenanceMarker maintenance_;
  LogLimiter limiter_;
  // Per target, the modules ("port\nserial") whose impossible thresholds were said.
  std::map<std::string, std::set<std::string>, std::less<>> thresholds_reported_;
};

}  // namespace opticsd
