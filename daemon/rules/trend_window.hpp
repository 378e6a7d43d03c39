#pragma once
// A fixed window of time buckets over one signal: mean per bucket, least
// squares slope, best value. 8 buckets of window/8 each, so per-module memory
// stays at ~60 bytes per signal whatever the poll interval.
//
// Value type; not thread-safe (one module's state, one polling thread).

#include <array>
#include <cstdint>
#include <optional>

namespace opticsd {

class TrendWindow {
 public:
  static constexpr int kBuckets = 8;

  void add(std::int64_t t_ms, double value, std::int64_t window_ms);
  // Sum of the values in the window (event counts).
  double sum() const;
  // Least-squares slope of the bucket means, per hour; nullopt until at
  // least half the window holds data.
  std::optional<double> slopePerHour(std::int64_t window_ms) const;
  // A trend that is evidence, not noise: the Theil-Sen slope (median of the
  // pairwise slopes of the bucket means, so one outlying bucket cannot make
  // it) once every bucket holds data, and only when the change it explains
  // over the window is at least `min_ratio` times the window's own scatter
  // about that line (a robust sigma, never below `floor`). nullopt otherwise.
  std::optional<double> significantSlopePerHour(std::int64_t window_ms, double min_ratio, double floor) const;
  // Highest / lowest bucket mean in the window.
  std::optional<double> maxMean() const;
  std::optional<double> minMean() const;
  int filledBuckets() const;
  void clear() { *this = TrendWindow(); }

 private:
  std::array<float, kBuckets> sum_{};
  std::array<std::uint16_t, kBuckets> count_{};
  std::int64_t head_ = -1;  // absolute index of the newest bucket
};

}  // namespace opticsd
