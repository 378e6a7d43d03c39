#include "daemon/pipeline/pipeline.hpp"

#include <spdlog/spdlog.h>

#include "daemon/store/sqlite_store.hpp"
#include "drivers/plausibility.hpp"

namespace opticsd {

Pipeline::Pipeline(LatestSamples& latest, SelfMetrics& self, TargetFreshness& freshness, SqliteStore* store)
    : latest_(latest), self_(self), freshness_(freshness), store_(store) {}

void Pipeline::setTargets(const std::vector<std::string>& targets) {
  std::set<std::string, std::less<>> next(targets.begin(), targets.end());
  for (const auto& old : targets_) {
    if (!next.contains(old)) {
      latest_.removeTarget(old);
      self_.removeTarget(old);
      freshness_.removeTarget(old);
      served_.erase(old);
      failing_.erase(old);
      thresholds_reported_.erase(old);
      fec_.forgetTarget(old);
    }
  }
  targets_ = std::move(next);
}

// A module's advertised limits are the same on every poll: an impossible one
// (an unused VDM set of 0xFFFF) is dropped every time, but said and counted
// once per module (per serial, so a swapped-in module is told of again).
std::size_t Pipeline::dropThresholdsOncePerModule(const std::string& target, Sample& sample) {
  const std::size_t before = sample.issues.size();
  const std::size_t n = dropImplausibleThresholds(sample);
  if (n == 0) return 0;
  auto& reported = thresholds_reported_[target];
  if (!reported.insert(sample.port + "\n" + sample.identity().serial).second) return 0;
  spdlog::warn("implausible thresholds dropped, said once per module target={} port={} serial={} detail={} count={}",
               target, logValue(sample.port), logValue(sample.identity().serial), logValue(sample.issues[before]), n);
  return n;
}

void Pipeline::onReport(PollReport& report) {
  if (!targets_.contains(report.target)) return;
  ++cycles_;
  auto& samples = report.result.samples;
  self_.observePoll(report.target, report.driver, report.seconds, report.ok, samples.size());
  self_.setTargetUp(report.target, report.driver, report.ok);

  // One line when a target starts failing (then at most one per window with
  // a count) and one when it recovers, however often it is polled.
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
    spdlog::info("target recovered target={} driver={} modules={}", report.target, report.driver, samples.size());
  }

  std::size_t implausible = 0;
  for (auto& sample : samples) {
    sample.target = report.target;
    if (sample.timestamp_ms == 0) sample.timestamp_ms = report.started_ms;
    const std::size_t before = sample.issues.size();
    if (const std::size_t n = dropImplausibleReadings(sample); n > 0) {
      implausible += n;
      if (auto suppressed = limiter_.allow(report.target + "\nimplausible")) {
        spdlog::warn("implausible value dropped target={} port={} detail={} values_this_poll={} suppressed={}",
                     report.target, logValue(sample.port), logValue(sample.issues[before]), n, *suppressed);
      }
    }
    implausible += dropThresholdsOncePerModule(report.target, sample);
    fec_.apply(sample);
  }
  if (implausible > 0) self_.countImplausible(report.target, report.driver, implausible);
  if (report.ok) {
    for (auto& stage : neighbor_stages_) stage(report.target, report.result.neighbors);
  }
  // A failed poll has no Samples: the stages see exactly that, never the kept
  // values (the rules engine leaves its findings as they are).
  for (auto& stage : stages_) stage(report.target, samples);

  if (report.ok) {
    publishGoodPoll(report);
  } else {
    keepAfterFailedPoll(report);
  }
}

void Pipeline::publishGoodPoll(PollReport& report) {
  auto& samples = report.result.samples;
  served_[report.target] = Served{report.driver, std::nullopt};
  freshness_.polledOk(report.target, report.driver, report.started_ms);
  if (store_ == nullptr || samples.empty()) {
    // Nothing else takes them: moved, not copied (a poll's copy was 0.5 MB
    // more for each of up to poll.concurrency polls landing at once). Kept
    // until the next poll, so without the slack of a vector grown by push_back.
    samples.shrink_to_fit();
    latest_.replaceTarget(report.target, std::move(samples));
    return;
  }
  latest_.replaceTarget(report.target, samples);
  store_->enqueue(std::move(samples));
}

// The last good values stay as they were published (same render buffers),
// marked stale, until keep_stale_for has passed since the first failed poll:
// an operator looking at a dead switch sees its last known state, and
// opticsd_target_up and opticsd_target_stale say what it is.
void Pipeline::keepAfterFailedPoll(const PollReport& report) {
  const auto it = served_.find(report.target);
  if (it != served_.end() && !it->second.kept_since_ms) {
    it->second.kept_since_ms = report.started_ms;
    freshness_.setStale(report.target, report.driver, true);
    if (keep_stale_for_.count() > 0) {
      spdlog::info("target failing, its last values are kept target={} driver={} keep_stale_for_ms={}", report.target,
                   report.driver, keep_stale_for_.count());
    }
  } else if (it == served_.end()) {
    freshness_.setStale(report.target, report.driver, false);  // nothing served: none stale
  }
  latest_.keepTarget(report.target);
  const auto ended_ms = report.started_ms + static_cast<std::int64_t>(report.seconds * 1000);
  expireStale(ended_ms);
}

void Pipeline::expireStale(std::int64_t now_ms) {
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

void Pipeline::dropKeptValues(const std::string& target, const std::string& driver) {
  latest_.removeTarget(target);
  freshness_.setStale(target, driver, false);
  if (keep_stale_for_.count() > 0) {
    spdlog::info("kept values dropped target={} driver={} keep_stale_for_ms={}", target, driver,
                 keep_stale_for_.count());
  }
}

}  // namespace opticsd
