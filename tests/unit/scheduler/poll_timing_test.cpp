#include "daemon/scheduler/poll_timing.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

using std::chrono::milliseconds;

TEST(PollTimingTest, BackoffDoublesUpToTheCap) {
  const milliseconds interval(30'000), cap(300'000);
  EXPECT_EQ(backoffDelay(interval, 0, cap), interval);
  EXPECT_EQ(backoffDelay(interval, 1, cap), milliseconds(60'000));
  EXPECT_EQ(backoffDelay(interval, 2, cap), milliseconds(120'000));
  EXPECT_EQ(backoffDelay(interval, 3, cap), milliseconds(240'000));
  EXPECT_EQ(backoffDelay(interval, 4, cap), cap);
  EXPECT_EQ(backoffDelay(interval, 4'000'000'000u, cap), cap);
}

TEST(PollTimingTest, BackoffNeverShorterThanInterval) {
  EXPECT_EQ(backoffDelay(milliseconds(60'000), 3, milliseconds(1'000)), milliseconds(60'000));
}

TEST(PollTimingTest, JitterStaysWithinFraction) {
  const milliseconds base(10'000);
  EXPECT_EQ(jitteredDelay(base, 0.1, 0.0), milliseconds(9'000));
  EXPECT_EQ(jitteredDelay(base, 0.1, 0.5), milliseconds(10'000));
  EXPECT_EQ(jitteredDelay(base, 0.1, 1.0), milliseconds(11'000));
  EXPECT_EQ(jitteredDelay(base, 0.0, 0.9), base);
  for (double u = 0; u < 1.0; u += 0.01) {
    const auto d = jitteredDelay(base, 0.2, u);
    EXPECT_GE(d, milliseconds(8'000));
    EXPECT_LE(d, milliseconds(12'000));
  }
}

TEST(PollTimingTest, JitterNeverReachesZero) { EXPECT_GE(jitteredDelay(milliseconds(1), 0.5, 0.0), milliseconds(1)); }

}  // namespace
}  // namespace opticsd
