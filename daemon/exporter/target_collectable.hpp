#pragma once
// A Collectable whose series carry a `target` label and that can give one
// target's series alone, so /metrics?target=NAME costs that target's share,
// not the whole fleet's. The exporter asks registered Collectables for it.

#include <prometheus/metric_family.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opticsd {

class TargetCollectable {
 public:
  virtual ~TargetCollectable() = default;
  virtual std::vector<prometheus::MetricFamily> collectTarget(std::string_view target) const = 0;
  // The targets with series, in the order Collect() lists them, so a
  // whole-instance scrape can be written target by target (one target's
  // ClientMetrics at a time, not the fleet's); none if not known, and the
  // scrape takes Collect() whole.
  virtual std::optional<std::vector<std::string>> collectedTargets() const { return std::nullopt; }
};

}  // namespace opticsd
