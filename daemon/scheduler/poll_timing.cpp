#include "daemon/scheduler/poll_timing.hpp"

#include <algorithm>
#include <cmath>

namespace opticsd {

std::chrono::milliseconds jitteredDelay(std::chrono::milliseconds base, double fraction, double unit) {
  const double spread = static_cast<double>(base.count()) * std::clamp(fraction, 0.0, 1.0);
  const double offset = (std::clamp(unit, 0.0, 1.0) * 2.0 - 1.0) * spread;
  return std::chrono::milliseconds(std::max<std::int64_t>(1, std::llround(static_cast<double>(base.count()) + offset)));
}

std::chrono::milliseconds backoffDelay(std::chrono::milliseconds interval, std::uint32_t consecutive_failures,
                                       std::chrono::milliseconds max_backoff) {
  if (consecutive_failures == 0) return interval;
  const std::int64_t cap = std::max(interval.count(), max_backoff.count());
  std::int64_t delay = interval.count();
  for (std::uint32_t i = 0; i < consecutive_failures && delay < cap; ++i) delay *= 2;
  return std::chrono::milliseconds(std::min(delay, cap));
}

}  // namespace opticsd
