// A module's per-lane memory is held for the lanes it reported, exactly
// sized, and a lane beyond them reads as having no baseline and no Tx.
#include "daemon/rules/lane_memory.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace opticsd {
namespace {

TEST(LaneMemories, ALaneNotHeldHasNoBaselineAndNoTx) {
  const LaneMemories lanes;
  const LaneMemory m = lanes[5];
  EXPECT_EQ(m.bias_baseline_ma, 0.0f);  // 0: no bias baseline
  EXPECT_TRUE(std::isnan(m.rx_baseline_dbm));
  EXPECT_TRUE(std::isnan(m.tx_baseline_dbm));
  EXPECT_TRUE(std::isnan(m.last_tx_dbm));
  EXPECT_EQ(lanes.held(), 0u);
}

TEST(LaneMemories, HeldExactlyForTheLanesReported) {
  LaneMemories lanes;
  lanes.hold(8);
  EXPECT_EQ(lanes.held(), 8u);
  lanes.at(2).last_tx_dbm = 1.5f;
  lanes.hold(4);  // never shrinks what is held
  EXPECT_EQ(lanes.held(), 8u);
  EXPECT_EQ(lanes[2].last_tx_dbm, 1.5f);
  EXPECT_TRUE(std::isnan(lanes[3].last_tx_dbm));
  lanes.at(9).bias_baseline_ma = 6.0f;  // a lane beyond: held from now on, with those before it
  EXPECT_EQ(lanes.held(), 10u);
  EXPECT_EQ(lanes[9].bias_baseline_ma, 6.0f);
  EXPECT_EQ(lanes[8].bias_baseline_ma, 0.0f);
  EXPECT_EQ(lanes[2].last_tx_dbm, 1.5f);
}

}  // namespace
}  // namespace opticsd
