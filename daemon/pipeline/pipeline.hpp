#pragma once
// Where a finished poll goes: prepared once (PollPreparation: stamp,
// plausibility, FEC BER), then published once, immutable and shared
// (PublishedPoll), to every sink in the order they were added. The pipeline
// knows no sink type: the service lists them (daemon/service/poll_sinks.cpp).
// A failed poll goes to every sink as a FailedPoll; what a sink keeps of the
// target then (the exporter's cache keeps it stale for a while) is the sink's
// policy, in the sink.
//
// Results of targets not polled now (a poll that finished after a reload
// removed its target) are dropped before any sink sees them.
//
// Threading: onReport() and setTargets() run on the scheduler's thread. The
// sinks are called on it and never block it (history and remote write queue).

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "daemon/log/log.hpp"
#include "daemon/pipeline/poll_preparation.hpp"
#include "daemon/pipeline/poll_sink.hpp"
#include "daemon/scheduler/scheduler.hpp"

namespace opticsd {

class Pipeline {
 public:
  // Adds a sink after those added before; it must outlive the pipeline (or
  // at least its last onReport()).
  void addSink(PollSink& sink) { sinks_.push_back(&sink); }

  // The targets being polled now; every sink is told, and forgets the others.
  void setTargets(const std::vector<std::string>& targets);

  void onReport(PollReport& report);

  std::uint64_t cycles() const { return cycles_; }

  // The ports paused on purpose, marked in every poll's preparation.
  void setMaintenanceMarker(PollPreparation::MaintenanceMarker marker) {
    preparation_.setMaintenanceMarker(std::move(marker));
  }

 private:
  std::shared_ptr<const std::vector<Sample>> share(const std::string& target, std::vector<Sample> samples);
  void logErrors(const PollReport& report);

  PollPreparation preparation_;
  std::vector<PollSink*> sinks_;
  std::set<std::string, std::less<>> targets_;
  std::set<std::string, std::less<>> failing_;
  LogLimiter limiter_;
  // Each target's last published Samples while some sink still holds them:
  // the next poll's unchanged identities and thresholds point at theirs.
  std::map<std::string, std::weak_ptr<const std::vector<Sample>>, std::less<>> published_;
  std::uint64_t cycles_ = 0;
};

}  // namespace opticsd
