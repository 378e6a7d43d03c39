#include "daemon/exporter/poll_accounting.hpp"

namespace opticsd {

void PollAccounting::onPoll(const PublishedPoll& poll) {
  self_.observePoll(poll.target, poll.driver, poll.seconds, true, poll.samples->size());
  self_.setTargetUp(poll.target, poll.driver, true);
  if (poll.implausible > 0) self_.countImplausible(poll.target, poll.driver, poll.implausible);
}

void PollAccounting::onPollFailed(const FailedPoll& poll) {
  self_.observePoll(poll.target, poll.driver, poll.seconds, false, 0);
  self_.setTargetUp(poll.target, poll.driver, false);
  if (poll.implausible > 0) self_.countImplausible(poll.target, poll.driver, poll.implausible);
}

void PollAccounting::onTargets(const std::vector<std::string>& targets) {
  std::set<std::string, std::less<>> next(targets.begin(), targets.end());
  for (const auto& old : targets_) {
    if (!next.contains(old)) self_.removeTarget(old);
  }
  targets_ = std::move(next);
}

}  // namespace opticsd
