#include "daemon/exporter/served_polls.hpp"

#include <spdlog/spdlog.h>

namespace opticsd {

void ServedPolls::onTargets(const std::vector<std::string>& targets) {
  std::set<std::string, std::less<>> next(targets.begin(), targets.end());
  for (const auto& old : targets_) {
    if (!next.contains(old)) {
      latest_.removeTarget(old);
      freshness_.removeTarget(old);
      served_.erase(old);
    }
  }
  targets_ = std::move(next);
}

void ServedPolls::onPoll(const PublishedPoll& poll) {
  served_[poll.target] = Served{poll.driver, std::nullopt};
  freshness_.polledOk(poll.target, poll.driver, poll.started_ms);
  latest_.replaceTarget(poll.target, poll.samples);
}

// The last good values stay as they were published (same render buffers),
// marked stale, until keep_stale_for has passed since the first failed poll:
// an operator looking at a dead switch sees its last known state, and
// opticsd_target_up and opticsd_target_stale say what it is.
void ServedPolls::onPollFailed(const FailedPoll& poll) {
  const auto it = served_.find(poll.target);
  if (it != served_.end() && !it->second.kept_since_ms) {
    it->second.kept_since_ms = poll.started_ms;
    freshness_.setStale(poll.target, poll.driver, true);
    if (keep_stale_for_.count() > 0) {
      spdlog::info("target failing, its last values are kept target={} driver={} keep_stale_for_ms={}", poll.target,
                   poll.driver, keep_stale_for_.count());
    }
  } else if (it == served_.end()) {
    freshness_.setStale(poll.target, poll.driver, false);  // nothing served: none stale
  }
  expireStale(poll.started_ms + static_cast<std::int64_t>(poll.seconds * 1000));
}

void ServedPolls::expireStale(std::int64_t now_ms) {
  for (auto it = served_.begin(); it != served_.end();) {
    const auto& since = it->second.kept_since_ms;
    if (since && now_ms - *since >= keep_stale_for_.count()) {
      const std::string target = it->first;
      const std::string driver = it->second.driver;
      it = served_.erase(it);
      dropKeptValues(target, driver);
    } else {
      ++it;
    }
  }
}

void ServedPolls::dropKeptValues(const std::string& target, const std::string& driver) {
  latest_.removeTarget(target);
  freshness_.setStale(target, driver, false);
  if (keep_stale_for_.count() > 0) {
    spdlog::info("kept values dropped target={} driver={} keep_stale_for_ms={}", target, driver,
                 keep_stale_for_.count());
  }
}

}  // namespace opticsd
