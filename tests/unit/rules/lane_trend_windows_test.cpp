// Per-lane trend windows are made per block at the first use, exactly sized,
// and a block made late does not disturb the windows of the others.
#include "daemon/rules/lane_trend_windows.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

constexpr std::int64_t kWindowMs = 8'000;

TEST(LaneTrendWindows, NothingIsMadeUntilALaneUsesItsBlock) {
  LaneTrendWindows w;
  w.reset(3, 8);
  EXPECT_EQ(w.held(), 0u);
  EXPECT_EQ(w.capacity(), 0u);
  ASSERT_NE(w.window(1, 0), nullptr);
  EXPECT_EQ(w.held(), 8u);  // the whole block, one window per lane
  EXPECT_EQ(w.capacity(), 8u);
  ASSERT_NE(w.window(1, 7), nullptr);
  EXPECT_EQ(w.held(), 8u);  // the same block: nothing more
}

TEST(LaneTrendWindows, LanesBeyondTheResolvedOnesHaveNone) {
  LaneTrendWindows w;
  w.reset(2, 4);
  EXPECT_EQ(w.window(0, 4), nullptr);
  EXPECT_EQ(w.held(), 0u);
}

TEST(LaneTrendWindows, ABlockMadeLateKeepsTheOthersWindowsAndStartsFresh) {
  LaneTrendWindows w;
  w.reset(3, 2);
  w.window(2, 1)->add(0, 5.0, kWindowMs);
  w.window(1, 0)->add(0, 3.0, kWindowMs);
  w.window(0, 1)->add(0, 1.0, kWindowMs);  // made last, placed first
  EXPECT_EQ(w.held(), 6u);
  EXPECT_EQ(w.capacity(), 6u);
  EXPECT_DOUBLE_EQ(*w.window(2, 1)->maxMean(), 5.0);
  EXPECT_DOUBLE_EQ(*w.window(1, 0)->maxMean(), 3.0);
  EXPECT_DOUBLE_EQ(*w.window(0, 1)->maxMean(), 1.0);
  EXPECT_FALSE(w.window(2, 0)->maxMean());  // another lane of the block: fresh
  EXPECT_FALSE(w.window(0, 0)->maxMean());
}

TEST(LaneTrendWindows, ResetForgetsEveryWindow) {
  LaneTrendWindows w;
  w.reset(2, 8);
  w.window(0, 0)->add(0, 1.0, kWindowMs);
  w.window(1, 0)->add(0, 1.0, kWindowMs);
  w.reset(2, 4);
  EXPECT_EQ(w.held(), 0u);
  EXPECT_EQ(w.capacity(), 0u);
  EXPECT_EQ(w.lanes(), 4u);
  EXPECT_FALSE(w.window(0, 0)->maxMean());
}

TEST(LaneTrendWindows, BlocksBeyondTheLazyOnesAreMadeAtReset) {
  LaneTrendWindows w;
  w.reset(66, 2);
  EXPECT_EQ(w.held(), 4u);  // blocks 64 and 65
  w.window(65, 1)->add(0, 7.0, kWindowMs);
  w.window(3, 0)->add(0, 2.0, kWindowMs);
  EXPECT_EQ(w.held(), 6u);
  EXPECT_DOUBLE_EQ(*w.window(65, 1)->maxMean(), 7.0);
  EXPECT_FALSE(w.window(64, 1)->maxMean());
  EXPECT_DOUBLE_EQ(*w.window(3, 0)->maxMean(), 2.0);
}

}  // namespace
}  // namespace opticsd
