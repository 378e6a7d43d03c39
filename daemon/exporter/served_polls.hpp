#pragma once
// The exporter's cache as a poll sink, and the one home of the keep-stale
// policy. A successful poll's shared Samples become the target's series
// (LatestSamples, no copy) and are fresh (TargetFreshness). A failed poll
// (any driver: an agent that does not answer, a stream down, an ethtool
// error) leaves the target's last good values on /metrics for
// poll.keep_stale_for after its first failed poll, marked stale, then drops
// them. Kept values are only served: other sinks get the failed poll, never
// the kept values again.
//
// Threading: the PollSink methods, setKeepStaleFor() and expireStale() run on
// the polling thread; scrapes read LatestSamples and TargetFreshness, which
// are thread-safe.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/target_freshness.hpp"
#include "daemon/pipeline/poll_sink.hpp"

namespace opticsd {

class ServedPolls : public PollSink {
 public:
  // Both must outlive this.
  ServedPolls(LatestSamples& latest, TargetFreshness& freshness) : latest_(latest), freshness_(freshness) {}

  // How long a failing target's last good values stay on /metrics, marked
  // stale, after its first failed poll (poll.keep_stale_for); zero drops them
  // at the first failed poll. Applies from the next poll or expireStale().
  void setKeepStaleFor(std::chrono::milliseconds keep) { keep_stale_for_ = keep; }

  // Drops the kept values of targets failing for keep_stale_for or longer at
  // `now_ms` (UNIX ms). Called every few seconds by the daemon: a failing
  // target backs off, so its next poll may be minutes away.
  void expireStale(std::int64_t now_ms);

  void onPoll(const PublishedPoll& poll) override;
  void onPollFailed(const FailedPoll& poll) override;
  // Targets no longer polled: their series disappear.
  void onTargets(const std::vector<std::string>& targets) override;

 private:
  void dropKeptValues(const std::string& target, const std::string& driver);

  LatestSamples& latest_;
  TargetFreshness& freshness_;
  std::chrono::milliseconds keep_stale_for_{0};
  // Targets whose values are on /metrics, with their driver: fresh (no time)
  // or kept since their first failed poll (UNIX ms).
  struct Served {
    std::string driver;
    std::optional<std::int64_t> kept_since_ms;
  };
  std::map<std::string, Served, std::less<>> served_;
  std::set<std::string, std::less<>> targets_;
};

}  // namespace opticsd
