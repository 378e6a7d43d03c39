#pragma once
// A Collectable whose series carry a `target` label and that can give one
// target's series alone, so /metrics?target=NAME costs that target's share,
// not the whole fleet's. The exporter asks registered Collectables for it.

#include <prometheus/metric_family.h>

#include <string_view>
#include <vector>

namespace opticsd {

class TargetCollectable {
 public:
  virtual ~TargetCollectable() = default;
  virtual std::vector<prometheus::MetricFamily> collectTarget(std::string_view target) const = 0;
};

}  // namespace opticsd
