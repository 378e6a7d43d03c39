// How a whole-instance scrape is cut into slices of families.
#include "daemon/exporter/slice_plan.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace opticsd {
namespace {

std::vector<FamilyRange> plan(const std::vector<std::size_t>& counts, std::size_t bound) {
  return planSlices(counts, bound);
}

TEST(SlicePlan, FamiliesWithoutSeriesAreNeverASliceOrItsEdge) {
  // Families 0, 3, 4 and 7 have series; 1, 2, 5, 6 and 8 none.
  const std::vector<std::size_t> counts{10, 0, 0, 5, 5, 0, 0, 20, 0};
  EXPECT_EQ(plan(counts, 1000), (std::vector<FamilyRange>{{0, 8}}));  // one pass, empty ones inside it
  EXPECT_EQ(plan(counts, 10), (std::vector<FamilyRange>{{0, 1}, {3, 5}, {7, 8}}));
  EXPECT_TRUE(plan({0, 0, 0}, 10).empty());
  EXPECT_TRUE(plan({}, 10).empty());
}

TEST(SlicePlan, ASliceStaysUnderTheBoundUnlessOneFamilyAloneIsOver) {
  const std::vector<std::size_t> counts{4, 4, 4, 30, 1, 1, 4};
  const auto slices = plan(counts, 8);
  EXPECT_EQ(slices, (std::vector<FamilyRange>{{0, 2}, {2, 3}, {3, 4}, {4, 7}}));
  // Every family is in exactly one slice, in order.
  std::size_t next = 0;
  for (const FamilyRange& r : slices) {
    EXPECT_EQ(r.first, next);
    next = r.end;
  }
  EXPECT_EQ(next, counts.size());
}

TEST(SlicePlan, TheBoundIsAnEighthOfTheFleetAndNotLessThanTheMinimum) {
  EXPECT_EQ(sliceSeriesBound(0), kMinSliceSeries);
  EXPECT_EQ(sliceSeriesBound(kMinSliceSeries), kMinSliceSeries);
  EXPECT_EQ(sliceSeriesBound(8'000'000), 1'000'000u);
}

}  // namespace
}  // namespace opticsd
