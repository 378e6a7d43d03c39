#pragma once
// The exporter's view of the fleet: the latest Samples of each target.
//
// Thread-safety: every method may be called from any thread. Writers (the
// polling thread) swap in a whole target's Samples at once; readers (HTTP
// scrape threads) take a snapshot of shared pointers and render without any
// lock held, so a slow scrape never delays a poll and vice versa. The Samples
// behind a pointer are immutable once published.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class LatestSamples {
 public:
  struct TargetSamples {
    std::string target;
    std::shared_ptr<const std::vector<Sample>> samples;  // never null
  };
  using Snapshot = std::vector<TargetSamples>;  // sorted by target name

  // Replaces everything known about `target` with the Samples of its latest
  // poll. O(log targets) under the lock: the vector is moved, not copied.
  // A module's identity and thresholds equal to the previous poll's of the
  // same port are pointed at the previous poll's objects (shareUnchanged), so
  // an unchanged module holds one of each however many polls are in flight.
  // A poll that completes after removeTarget() re-adds the target; the caller
  // (the pipeline) drops results of targets it no longer polls.
  void replaceTarget(const std::string& target, std::vector<Sample> samples);
  // The same with a published poll's shared Samples, as they are (the
  // pipeline already shared its unchanged modules): no copy, unless bins
  // are to be dropped (keepFecBinsAtFullDetailOnly).
  void replaceTarget(const std::string& target, std::shared_ptr<const std::vector<Sample>> samples);

  // From the next replaceTarget on, keep the FEC codeword histogram's bins
  // only of the ports `policy` exports at full detail, the only level that
  // serves them (daemon/exporter/fec_bin_retention.hpp); null keeps them all.
  void keepFecBinsAtFullDetailOnly(std::shared_ptr<const ExportPolicy> policy);

  // Forgets `target` (a reload dropped it, or its kept values expired): its
  // series vanish from /metrics. What stays and for how long after a failed
  // poll is ServedPolls' policy.
  void removeTarget(const std::string& target);

  Snapshot snapshot() const;

  // The first target whose name sorts after `name` ("" for the first one),
  // or nothing past the last: walks the targets one at a time without
  // holding any of them longer than the caller keeps the result.
  std::optional<TargetSamples> after(std::string_view name) const;

  std::size_t targetCount() const;

  // Points each of `fresh`'s identities and threshold tables at `previous`'s
  // of the same port where they are equal (shareUnchangedModules).
  static void shareUnchanged(std::vector<Sample>& fresh, const std::vector<Sample>& previous);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::vector<Sample>>, std::less<>> targets_;
  std::shared_ptr<const ExportPolicy> bins_policy_;  // null: every port's bins kept
};

}  // namespace opticsd
