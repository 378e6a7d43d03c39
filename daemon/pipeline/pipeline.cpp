#include "daemon/pipeline/pipeline.hpp"

#include <spdlog/spdlog.h>

#include "daemon/store/sqlite_store.hpp"
#include "drivers/plausibility.hpp"

namespace opticsd {

Pipeline::Pipeline(LatestSamples& latest, SelfMetrics& self, SqliteStore* store)
    : latest_(latest), self_(self), store_(store) {}

void Pipeline::setTargets(const std::vector<std::string>& targets) {
  std::set<std::string, std::less<>> next(targets.begin(), targets.end());
  for (const auto& old : targets_) {
    if (!next.contains(old)) {
      latest_.removeTarget(old);
      self_.removeTarget(old);
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
  if (!reported.insert(sample.port + "\n" + sample.identity.serial).second) return 0;
  spdlog::warn("implausible thresholds dropped, said once per module target={} port={} serial={} detail={} count={}",
               target, logValue(sample.port), logValue(sample.identity.serial), logValue(sample.issues[before]), n);
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
  for (auto& stage : stages_) stage(report.target, samples);

  // A failed poll clears the target's series: stale optics data would look
  // healthy, and opticsd_target_up already says why nothing is there.
  latest_.replaceTarget(report.target, samples);
  if (store_ != nullptr && !samples.empty()) store_->enqueue(std::move(samples));
}

}  // namespace opticsd
