#include "daemon/pipeline/poll_preparation.hpp"

#include <spdlog/spdlog.h>

#include "drivers/plausibility.hpp"

namespace opticsd {

std::size_t PollPreparation::prepare(const std::string& target, std::int64_t started_ms, std::vector<Sample>& samples) {
  return prepare(target, started_ms, samples, {});
}

std::size_t PollPreparation::prepare(const std::string& target, std::int64_t started_ms, std::vector<Sample>& samples,
                                     const std::vector<Checked>& checked) {
  std::size_t implausible = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    Sample& sample = samples[i];
    const Checked known = i < checked.size() ? checked[i] : Checked{};
    sample.target = target;
    if (sample.timestamp_ms == 0) sample.timestamp_ms = started_ms;
    const std::size_t before = sample.issues.size();
    if (const std::size_t n = known.readings_plausible ? 0 : dropImplausibleReadings(sample); n > 0) {
      implausible += n;
      if (auto suppressed = limiter_.allow(target + "\nimplausible")) {
        spdlog::warn("implausible value dropped target={} port={} detail={} values_this_poll={} suppressed={}", target,
                     logValue(sample.port), logValue(sample.issues[before]), n, *suppressed);
      }
    }
    if (!known.thresholds_plausible) implausible += dropThresholdsOncePerModule(target, sample);
    fec_.apply(sample);
  }
  if (maintenance_) maintenance_(target, samples);
  return implausible;
}

// A module's advertised limits are the same on every poll: an impossible one
// (an unused VDM set of 0xFFFF) is dropped every time, but said and counted
// once per module.
std::size_t PollPreparation::dropThresholdsOncePerModule(const std::string& target, Sample& sample) {
  const std::size_t before = sample.issues.size();
  const std::size_t n = dropImplausibleThresholds(sample);
  if (n == 0) return 0;
  auto& reported = thresholds_reported_[target];
  if (!reported.insert(sample.port + "\n" + sample.identity().serial).second) return 0;
  spdlog::warn("implausible thresholds dropped, said once per module target={} port={} serial={} detail={} count={}",
               target, logValue(sample.port), logValue(sample.identity().serial), logValue(sample.issues[before]), n);
  return n;
}

void PollPreparation::forgetTarget(const std::string& target) {
  thresholds_reported_.erase(target);
  fec_.forgetTarget(target);
}

}  // namespace opticsd
