#include "daemon/service/poll_progress.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(PollProgress, LimitCoversTheLongestWaitOfOneTarget) {
  EXPECT_EQ(PollProgress::limitFor(seconds(30), seconds(300), seconds(10)), seconds(2 * 300 + 10 + 60));
  EXPECT_EQ(PollProgress::limitFor(seconds(900), seconds(300), seconds(10)), seconds(2 * 900 + 10 + 60));
}

TEST(PollProgress, StallsOnlyWhenNoPollCompletesWithinTheLimit) {
  PollProgress p;
  p.setLimit(seconds(100));
  const auto t0 = PollProgress::Clock::time_point{} + seconds(1000);
  p.observe(5, 3, t0);
  p.observe(5, 3, t0 + seconds(60));
  EXPECT_FALSE(p.stalled(t0 + seconds(100)));
  EXPECT_TRUE(p.stalled(t0 + seconds(101)));
  p.observe(6, 3, t0 + seconds(150));  // polls complete again: healthy
  EXPECT_FALSE(p.stalled(t0 + seconds(200)));
  EXPECT_TRUE(p.stalled(t0 + seconds(251)));
}

TEST(PollProgress, NoTargetsIsNeverAStall) {
  PollProgress p;
  p.setLimit(seconds(10));
  const auto t0 = PollProgress::Clock::time_point{} + seconds(1000);
  for (int i = 0; i < 10; ++i) p.observe(0, 0, t0 + seconds(5 * i));
  EXPECT_FALSE(p.stalled(t0 + seconds(50)));
}

}  // namespace
}  // namespace opticsd
