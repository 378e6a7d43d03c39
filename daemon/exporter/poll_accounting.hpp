#pragma once
// opticsd's own account of every poll, as a poll sink: per target success,
// duration, modules, up, and the implausible values dropped
// (opticsd_target_* and opticsd_poll_* on /metrics/self). Recorded for every
// driver in one place, never by a driver.
//
// Threading: the polling thread; SelfMetrics is thread-safe for scrapes.

#include <set>
#include <string>
#include <vector>

#include "daemon/exporter/self_metrics.hpp"
#include "daemon/pipeline/poll_sink.hpp"

namespace opticsd {

class PollAccounting : public PollSink {
 public:
  explicit PollAccounting(SelfMetrics& self) : self_(self) {}

  void onPoll(const PublishedPoll& poll) override;
  void onPollFailed(const FailedPoll& poll) override;
  void onTargets(const std::vector<std::string>& targets) override;

 private:
  SelfMetrics& self_;
  std::set<std::string, std::less<>> targets_;
};

}  // namespace opticsd
