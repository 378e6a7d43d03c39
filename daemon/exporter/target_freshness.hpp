#pragma once
// How fresh each target's series are. While a target's polls fail, its last
// good values stay on /metrics for poll.keep_stale_for (the pipeline decides),
// and these two families say they are old and how old:
//
//   opticsd_target_stale{target,driver}   1 while the target's series are those of
//       its last successful poll, kept after failed ones; 0 while they are from its
//       latest poll or none are served (dropped after keep_stale_for, or never polled
//       successfully)
//   opticsd_target_last_success_timestamp_seconds{target,driver}   UNIX time of the
//       last successful poll (when it started: the time of the values); absent until
//       the first one. `time() - x` is the age of what is served.
//
// They belong beside the values they describe: on the whole-instance /metrics
// and on /metrics?target=NAME (a TargetCollectable), not on /metrics/self.
//
// Thread-safety: the pipeline writes on the polling thread; scrapes read on
// theirs. One mutex, held for a map update or a copy of one target's state.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/exporter/target_collectable.hpp"

namespace opticsd {

class TargetFreshness : public prometheus::Collectable, public TargetCollectable {
 public:
  struct State {
    std::string driver;
    std::optional<std::int64_t> last_success_ms;  // UNIX ms
    bool stale = false;
  };

  // A poll of `target` that started at `started_ms` succeeded: its values are fresh.
  void polledOk(const std::string& target, const std::string& driver, std::int64_t started_ms);
  // Whether what is served of `target` are kept values of an earlier poll.
  void setStale(const std::string& target, const std::string& driver, bool stale);
  // A reload dropped `target`: its series go.
  void removeTarget(const std::string& target);

  std::optional<State> state(std::string_view target) const;

  std::vector<prometheus::MetricFamily> Collect() const override;
  std::vector<prometheus::MetricFamily> collectTarget(std::string_view target) const override;
  std::optional<std::vector<std::string>> collectedTargets() const override;

 private:
  using States = std::map<std::string, State, std::less<>>;
  static std::vector<prometheus::MetricFamily> render(const States& states);

  mutable std::mutex mutex_;
  States states_;
};

}  // namespace opticsd
