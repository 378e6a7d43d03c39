#include "daemon/exporter/slice_plan.hpp"

#include <algorithm>

namespace opticsd {

std::vector<FamilyRange> planSlices(const std::vector<std::size_t>& series_per_family, std::size_t max_series) {
  std::vector<FamilyRange> plan;
  std::size_t held = 0;  // series in the open slice (plan.back())
  bool open = false;
  for (std::size_t f = 0; f < series_per_family.size(); ++f) {
    const std::size_t n = series_per_family[f];
    if (n == 0) continue;  // inside a slice or between two: rendered as nothing, never a pass of its own
    if (open && held + n <= max_series) {
      plan.back().end = f + 1;
      held += n;
    } else {
      plan.push_back({f, f + 1});
      held = n;
      open = true;
    }
  }
  return plan;
}

std::size_t sliceSeriesBound(std::size_t total_series) {
  return std::max(kMinSliceSeries, total_series / kSlicesPerFleet);
}

}  // namespace opticsd
