#include "daemon/pipeline/pipeline.hpp"

#include <spdlog/spdlog.h>

#include "daemon/pipeline/unchanged_modules.hpp"

namespace opticsd {

void Pipeline::setTargets(const std::vector<std::string>& targets) {
  std::set<std::string, std::less<>> next(targets.begin(), targets.end());
  for (const auto& old : targets_) {
    if (!next.contains(old)) {
      failing_.erase(old);
      published_.erase(old);
      preparation_.forgetTarget(old);
    }
  }
  targets_ = std::move(next);
  for (PollSink* sink : sinks_) sink->onTargets(targets);
}

// One line when a target starts failing (then at most one per window with a
// count) and one when it recovers, however often it is polled.
void Pipeline::logErrors(const PollReport& report) {
  for (const auto& error : report.result.errors) {
    const std::string key = report.target + "\n" + error;
    if (auto suppressed = limiter_.allow(key)) {
      spdlog::warn("poll error target={} driver={} error={} consecutive_failures={} suppressed={}", report.target,
                   report.driver, logValue(error), report.consecutive_failures, *suppressed);
    }
  }
  if (!report.ok) {
    failing_.insert(report.target);
  } else if (failing_.erase(report.target) > 0) {
    spdlog::info("target recovered target={} driver={} modules={}", report.target, report.driver,
                 report.result.samples.size());
  }
}

// Kept until the next poll by the exporter's cache: without the slack of a
// vector grown by push_back, and with unchanged modules' identities shared
// with the previous poll's.
std::shared_ptr<const std::vector<Sample>> Pipeline::share(const std::string& target, std::vector<Sample> samples) {
  samples.shrink_to_fit();
  auto& previous = published_[target];
  if (const auto before = previous.lock()) shareUnchangedModules(samples, *before);
  auto shared = std::make_shared<const std::vector<Sample>>(std::move(samples));
  previous = shared;
  return shared;
}

void Pipeline::onReport(PollReport& report) {
  if (!targets_.contains(report.target)) return;
  ++cycles_;
  logErrors(report);
  auto& result = report.result;
  const std::size_t implausible = preparation_.prepare(report.target, report.started_ms, result.samples);
  if (!report.ok) {
    const FailedPoll failed{report.target,
                            report.driver,
                            report.started_ms,
                            report.seconds,
                            std::move(result.errors),
                            report.consecutive_failures,
                            implausible};
    for (PollSink* sink : sinks_) sink->onPollFailed(failed);
    return;
  }
  const PublishedPoll poll{report.target,
                           report.driver,
                           report.started_ms,
                           report.seconds,
                           share(report.target, std::move(result.samples)),
                           std::move(result.neighbors),
                           std::move(result.errors),
                           implausible};
  for (PollSink* sink : sinks_) sink->onPoll(poll);
}

}  // namespace opticsd
