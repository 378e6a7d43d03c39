#pragma once
// How a whole-instance scrape is cut into slices of families. Each slice is
// one pass over the fleet's Samples and holds the fleet's text of its
// families while they are sent, so the plan trades passes (CPU) for the text
// held at once (memory): families without series are never passed over (at
// the default level most families have none: thresholds are on their own
// path, flags only while raised), and a slice grows only while it stays
// under a series bound. Pure.

#include <cstddef>
#include <vector>

namespace opticsd {

// Families first .. end - 1, in exposition order.
struct FamilyRange {
  std::size_t first = 0;
  std::size_t end = 0;
  bool operator==(const FamilyRange&) const = default;
};

// The slices for families with `series_per_family` series (by family index):
// in order, covering every family with series and none that starts or ends
// with an empty family. A slice holds at most `max_series` series, unless one
// family alone has more (it is then a slice by itself).
std::vector<FamilyRange> planSlices(const std::vector<std::size_t>& series_per_family, std::size_t max_series);

// The bound a whole-instance scrape uses for a fleet of `total_series`:
// an eighth of it, and no less than kMinSliceSeries so that a small fleet is
// sent in a few passes. About 75 bytes of text per series.
inline constexpr std::size_t kMinSliceSeries = 64 * 1024;
inline constexpr std::size_t kSlicesPerFleet = 8;
std::size_t sliceSeriesBound(std::size_t total_series);

}  // namespace opticsd
