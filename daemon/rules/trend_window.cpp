#include "daemon/rules/trend_window.hpp"

#include <algorithm>
#include <array>
#include <cmath>

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

std::optional<double> TrendWindow::significantSlopePerHour(std::int64_t window_ms, double min_ratio,
                                                           double floor) const {
  if (filledBuckets() < kBuckets || head_ < kBuckets - 1) return std::nullopt;
  const double width_h = static_cast<double>(std::max<std::int64_t>(1, window_ms / kBuckets)) / 3'600'000.0;
  std::array<double, kBuckets> y{};  // oldest first
  for (int age = 0; age < kBuckets; ++age) {
    const auto slot = static_cast<std::size_t>((head_ - age) % kBuckets);
    y[static_cast<std::size_t>(kBuckets - 1 - age)] = sum_[slot] / count_[slot];
  }
  std::array<double, kBuckets*(kBuckets - 1) / 2> slopes{};
  std::size_t n = 0;
  for (int i = 0; i < kBuckets; ++i) {
    for (int j = i + 1; j < kBuckets; ++j) {
      slopes[n++] = (y[static_cast<std::size_t>(j)] - y[static_cast<std::size_t>(i)]) / ((j - i) * width_h);
    }
  }
  std::nth_element(slopes.begin(), slopes.begin() + static_cast<std::ptrdiff_t>(n / 2),
                   slopes.begin() + static_cast<std::ptrdiff_t>(n));
  const double slope = slopes[n / 2];
  // Intercept and scatter: medians of the residuals, scaled to a Gaussian sigma.
  std::array<double, kBuckets> r{};
  for (int i = 0; i < kBuckets; ++i)
    r[static_cast<std::size_t>(i)] = y[static_cast<std::size_t>(i)] - slope * i * width_h;
  std::array<double, kBuckets> sorted = r;
  std::sort(sorted.begin(), sorted.end());
  const double mid = 0.5 * (sorted[kBuckets / 2 - 1] + sorted[kBuckets / 2]);
  for (auto& v : r) v = std::fabs(v - mid);
  std::sort(r.begin(), r.end());
  const double sigma = std::max(floor, 1.4826 * 0.5 * (r[kBuckets / 2 - 1] + r[kBuckets / 2]));
  const double change = std::fabs(slope) * (kBuckets - 1) * width_h;
  if (change < min_ratio * sigma) return std::nullopt;
  return slope;
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
