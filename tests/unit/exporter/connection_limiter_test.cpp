#include "daemon/exporter/connection_limiter.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace opticsd {
namespace {

struct Recorder : ConnectionLimiter::Evictable {
  void evict() override { ++evicted; }
  int evicted = 0;
};

std::vector<std::shared_ptr<Recorder>> recorders(int n) {
  std::vector<std::shared_ptr<Recorder>> all;
  for (int i = 0; i < n; ++i) all.push_back(std::make_shared<Recorder>());
  return all;
}

TEST(ConnectionLimiter, AFullTableEvictsTheLongestWaitingInsteadOfRefusing) {
  ConnectionLimiter limiter({3, 3});
  auto c = recorders(5);
  const auto first = limiter.admit("10.0.0.1", c[0]);
  const auto second = limiter.admit("10.0.0.2", c[1]);
  const auto third = limiter.admit("10.0.0.3", c[2]);
  ASSERT_TRUE(first && second && third);
  // The first one got a request and went back to waiting: now the second
  // has waited longest.
  limiter.busy(*first);
  limiter.waiting(*first);
  ASSERT_TRUE(limiter.admit("10.0.0.4", c[3]));
  EXPECT_EQ(c[1]->evicted, 1);
  EXPECT_EQ(c[0]->evicted + c[2]->evicted, 0);
  EXPECT_EQ(limiter.connections(), 3u);
  EXPECT_EQ(limiter.evictions(), 1u);
  // The evicted one leaving later changes nothing.
  limiter.leave(*second);
  EXPECT_EQ(limiter.connections(), 3u);
}

TEST(ConnectionLimiter, BusyConnectionsAreNeverEvictedAndOnlyThenIsANewOneRefused) {
  ConnectionLimiter limiter({2, 2});
  auto c = recorders(3);
  const auto a = limiter.admit("10.0.0.1", c[0]);
  const auto b = limiter.admit("10.0.0.2", c[1]);
  limiter.busy(*a);
  limiter.busy(*b);
  EXPECT_FALSE(limiter.admit("10.0.0.3", c[2]));
  EXPECT_EQ(c[0]->evicted + c[1]->evicted, 0);
  EXPECT_EQ(limiter.refusals(), 1u);
  limiter.leave(*a);
  EXPECT_TRUE(limiter.admit("10.0.0.3", c[2]));
}

TEST(ConnectionLimiter, ASourceAtItsLimitEvictsItsOwnConnectionsNotOthers) {
  ConnectionLimiter limiter({10, 2});
  auto c = recorders(4);
  ASSERT_TRUE(limiter.admit("10.0.0.9", c[0]));  // another source, waiting longest
  ASSERT_TRUE(limiter.admit("10.0.0.1", c[1]));
  ASSERT_TRUE(limiter.admit("10.0.0.1", c[2]));
  ASSERT_TRUE(limiter.admit("10.0.0.1", c[3]));
  EXPECT_EQ(c[0]->evicted, 0);
  EXPECT_EQ(c[1]->evicted, 1);
  EXPECT_EQ(c[2]->evicted, 0);
  EXPECT_EQ(limiter.connections(), 3u);
}

TEST(ConnectionLimiter, ASourceWhoseConnectionsAreAllBusyIsRefused) {
  ConnectionLimiter limiter({10, 1});
  auto c = recorders(2);
  const auto a = limiter.admit("10.0.0.1", c[0]);
  limiter.busy(*a);
  EXPECT_FALSE(limiter.admit("10.0.0.1", c[1]));
  EXPECT_TRUE(limiter.admit("10.0.0.2", c[1]));
}

TEST(ConnectionLimiter, AConnectionAlreadyGoneIsForgottenWithoutACall) {
  ConnectionLimiter limiter({1, 1});
  auto gone = std::make_shared<Recorder>();
  ASSERT_TRUE(limiter.admit("10.0.0.1", gone));
  gone.reset();
  auto next = std::make_shared<Recorder>();
  EXPECT_TRUE(limiter.admit("10.0.0.1", next));
  EXPECT_EQ(limiter.connections(), 1u);
}

}  // namespace
}  // namespace opticsd
