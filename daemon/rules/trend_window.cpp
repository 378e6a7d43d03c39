#include "daemon/rules/trend_window.hpp"

#include <algorithm>

namespace opticsd {

void TrendWindow::add(std::int64_t t_ms, double value, std::int64_t window_ms) {
  const std::int64_t width = std::max<std::int64_t>(1, window_ms / kBuckets);
  const std::int64_t index = t_ms / width;
  if (index < head_ - kBuckets + 1) return;  // older than the window (clock went back)
  if (index > head_) {
    const std::int64_t fresh = std::min<std::int64_t>(index - head_, kBuckets);
    for (std::int64_t i = 0; i < fresh; ++i) {
      const auto slot = static_cast<std::size_t>((index - i) % kBuckets);
      sum_[slot] = 0;
      count_[slot] = 0;
    }
    head_ = index;
  }
  const auto slot = static_cast<std::size_t>(index % kBuckets);
  sum_[slot] += static_cast<float>(value);
  if (count_[slot] < 0xffff) ++count_[slot];
}

double TrendWindow::sum() const {
  double s = 0;
  for (int i = 0; i < kBuckets; ++i) s += sum_[static_cast<std::size_t>(i)];
  return s;
}

int TrendWindow::filledBuckets() const {
  int n = 0;
  for (auto c : count_) n += c > 0 ? 1 : 0;
  return n;
}

std::optional<double> TrendWindow::slopePerHour(std::int64_t window_ms) const {
  if (filledBuckets() < kBuckets / 2 || head_ < 0) return std::nullopt;
  const double width_h = static_cast<double>(std::max<std::int64_t>(1, window_ms / kBuckets)) / 3'600'000.0;
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int age = 0; age < kBuckets; ++age) {
    const std::int64_t index = head_ - age;
    if (index < 0) break;
    const auto slot = static_cast<std::size_t>(index % kBuckets);
    if (count_[slot] == 0) continue;
    const double x = -age * width_h;
    const double y = sum_[slot] / count_[slot];
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double den = n * sxx - sx * sx;
  if (n < 3 || den <= 0) return std::nullopt;
  return (n * sxy - sx * sy) / den;
}

std::optional<double> TrendWindow::maxMean() const {
  std::optional<double> best;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (count_[i] == 0) continue;
    const double m = sum_[i] / count_[i];
    if (!best || m > *best) best = m;
  }
  return best;
}

std::optional<double> TrendWindow::minMean() const {
  std::optional<double> best;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (count_[i] == 0) continue;
    const double m = sum_[i] / count_[i];
    if (!best || m < *best) best = m;
  }
  return best;
}

}  // namespace opticsd
