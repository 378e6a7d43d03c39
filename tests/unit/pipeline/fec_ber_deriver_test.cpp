#include "daemon/pipeline/fec_ber_deriver.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

Sample port(std::int64_t t_ms, std::uint64_t corrected_bits, double speed_gbps = 400, std::uint16_t lanes = 8) {
  Sample s;
  s.target = "host1";
  s.port = "eth2";
  s.timestamp_ms = t_ms;
  s.mutableIdentity().serial = "SN1";
  s.fec.corrected_bits_total = corrected_bits;
  s.link.speed_gbps = speed_gbps;
  s.link.lanes = lanes;
  return s;
}

TEST(LaneLineRate, TableIncludesFecOverhead) {
  EXPECT_DOUBLE_EQ(*laneLineRateGbps(10), 10.3125);
  EXPECT_DOUBLE_EQ(*laneLineRateGbps(25), 25.78125);
  EXPECT_DOUBLE_EQ(*laneLineRateGbps(50), 53.125);
  EXPECT_DOUBLE_EQ(*laneLineRateGbps(100), 106.25);
  EXPECT_DOUBLE_EQ(*laneLineRateGbps(200), 212.5);
  EXPECT_FALSE(laneLineRateGbps(42));
}

TEST(PortRate, FromSpeedAndLanesOrExplicitRate) {
  LinkState link;
  link.speed_gbps = 100;
  link.lanes = 4;
  auto rate = portRate(link, 0);
  ASSERT_TRUE(rate);
  EXPECT_EQ(rate->lanes, 4);
  EXPECT_DOUBLE_EQ(rate->lane_line_rate_gbps, 25.78125);
  link.lane_line_rate_gbps = 26.5625;  // explicit rate wins over the table
  EXPECT_DOUBLE_EQ(portRate(link, 0)->lane_line_rate_gbps, 26.5625);
  LinkState unknown;
  unknown.speed_gbps = 100;  // lanes unknown, no lane counters: cannot tell 4x25 from 2x50
  EXPECT_FALSE(portRate(unknown, 0));
  EXPECT_EQ(portRate(unknown, 2)->lanes, 2);  // lanes from the per-lane counters
  EXPECT_DOUBLE_EQ(portRate(unknown, 2)->lane_line_rate_gbps, 53.125);
}

TEST(FecBerDeriver, FirstSampleHasNoValue) {
  FecBerDeriver deriver;
  auto s = port(1000, 5000);
  deriver.apply(s);
  EXPECT_FALSE(s.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_EQ(deriver.ports(), 1u);
}

TEST(FecBerDeriver, CorrectedBitsOverBitsCarried) {
  FecBerDeriver deriver;
  auto a = port(0, 1'000'000);
  deriver.apply(a);
  // 400G = 8 lanes x 53.125 Gb/s; 10 s carry 4.25e12 bits; 4.25e6 corrected bits → 1e-6.
  auto b = port(10'000, 1'000'000 + 4'250'000);
  deriver.apply(b);
  ASSERT_TRUE(b.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_NEAR(*b.module[ModuleMetric::kPreFecBerRatio], 1e-6, 1e-15);
}

// 1.6TBASE-DR8 (IEEE 802.3dj): 8 lanes of 200G, 212.5 Gb/s each on the line.
TEST(FecBerDeriver, OnePointSixTerabitPortAt200GLanes) {
  FecBerDeriver deriver;
  auto a = port(0, 0, 1600, 8);
  deriver.apply(a);
  // 10 s carry 8 x 212.5e9 x 10 = 1.7e13 bits; 1.7e7 corrected bits -> 1e-6.
  auto b = port(10'000, 17'000'000, 1600, 8);
  deriver.apply(b);
  ASSERT_TRUE(b.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_NEAR(*b.module[ModuleMetric::kPreFecBerRatio], 1e-6, 1e-18);
}

TEST(FecBerDeriver, PerLaneWhereLaneCountersExist) {
  FecBerDeriver deriver;
  auto a = port(0, 0, 100, 4);
  a.fec.lane_corrected_bits_total = {0, 0, 0, 0};
  deriver.apply(a);
  auto b = port(1000, 0, 100, 4);
  // 1 s at 25.78125 Gb/s per lane.
  b.fec.corrected_bits_total = 25'781'250 + 2'578'125;
  b.fec.lane_corrected_bits_total = {25'781'250, 2'578'125, 0, std::nullopt};
  deriver.apply(b);
  ASSERT_EQ(b.lanes.size(), 3u);  // lane 4 not reported → not created
  EXPECT_EQ(b.lanes[0].number, 1);
  EXPECT_NEAR(*b.lanes[0].values[LaneMetric::kPreFecBerRatio], 1e-3, 1e-12);
  EXPECT_NEAR(*b.lanes[1].values[LaneMetric::kPreFecBerRatio], 1e-4, 1e-13);
  EXPECT_EQ(*b.lanes[2].values[LaneMetric::kPreFecBerRatio], 0.0);
  EXPECT_NEAR(*b.module[ModuleMetric::kPreFecBerRatio], (1e-3 + 1e-4) / 4, 1e-12);
}

TEST(FecBerDeriver, NeverOverwritesReportedValues) {
  FecBerDeriver deriver;
  auto a = port(0, 0, 100, 4);
  a.fec.lane_corrected_bits_total = {0, 0, 0, 0};
  deriver.apply(a);
  auto b = port(1000, 1000, 100, 4);
  b.fec.lane_corrected_bits_total = {1000, 0, 0, 0};
  b.module.set(ModuleMetric::kPreFecBerRatio, 3e-9);
  b.lanes.resize(4);
  for (std::uint16_t i = 0; i < 4; ++i) b.lanes[i].number = i + 1;
  b.lanes[0].values.set(LaneMetric::kPreFecBerRatio, 7e-7);  // CMIS VDM value
  deriver.apply(b);
  EXPECT_EQ(*b.module[ModuleMetric::kPreFecBerRatio], 3e-9);
  EXPECT_EQ(*b.lanes[0].values[LaneMetric::kPreFecBerRatio], 7e-7);
  EXPECT_TRUE(b.lanes[1].values[LaneMetric::kPreFecBerRatio]);
}

TEST(FecBerDeriver, LaneCountMismatchSkipsPerLane) {
  FecBerDeriver deriver;
  auto a = port(0, 0);
  a.fec.lane_corrected_bits_total = std::vector<std::optional<std::uint64_t>>(8, 0);
  deriver.apply(a);
  auto b = port(1000, 800);
  b.fec.lane_corrected_bits_total = std::vector<std::optional<std::uint64_t>>(8, 100);
  b.lanes.resize(4);  // DR4 module: 4 media lanes
  deriver.apply(b);
  for (const auto& lane : b.lanes) EXPECT_FALSE(lane.values[LaneMetric::kPreFecBerRatio]);
  EXPECT_TRUE(b.module[ModuleMetric::kPreFecBerRatio]);
}

TEST(FecBerDeriver, CounterResetRebaselinesWithoutNegativeOrSpike) {
  FecBerDeriver deriver;
  auto a = port(0, 9'000'000);
  deriver.apply(a);
  auto reset = port(1000, 100);  // NIC reset: counter cleared
  deriver.apply(reset);
  EXPECT_FALSE(reset.module[ModuleMetric::kPreFecBerRatio]);
  auto after = port(2000, 100 + 425'000);
  deriver.apply(after);
  ASSERT_TRUE(after.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_NEAR(*after.module[ModuleMetric::kPreFecBerRatio], 425'000 / 425e9, 1e-18);
}

TEST(FecBerDeriver, UncorrectableResetAlsoRebaselines) {
  FecBerDeriver deriver;
  auto a = port(0, 1000);
  a.fec.uncorrectable_blocks_total = 50;
  deriver.apply(a);
  auto b = port(1000, 2000);
  b.fec.uncorrectable_blocks_total = 0;
  deriver.apply(b);
  EXPECT_FALSE(b.module[ModuleMetric::kPreFecBerRatio]);
}

TEST(FecBerDeriver, ModuleSwapRebaselines) {
  FecBerDeriver deriver;
  auto a = port(0, 1000);
  deriver.apply(a);
  auto swapped = port(1000, 5'000'000);
  swapped.mutableIdentity().serial = "SN2";
  deriver.apply(swapped);
  EXPECT_FALSE(swapped.module[ModuleMetric::kPreFecBerRatio]);
  auto next = port(2000, 5'000'000);
  next.mutableIdentity().serial = "SN2";
  deriver.apply(next);
  ASSERT_TRUE(next.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_EQ(*next.module[ModuleMetric::kPreFecBerRatio], 0.0);
}

TEST(FecBerDeriver, BlocksTimesBitsPerBlockWhenNoBitCounter) {
  FecBerDeriver deriver;
  auto a = port(0, 0, 100, 2);
  a.fec.corrected_bits_total.reset();
  a.fec.corrected_blocks_total = 0;
  a.fec.bits_per_block = 75;
  deriver.apply(a);
  auto b = a;
  b.timestamp_ms = 1000;
  b.fec.corrected_blocks_total = 1000;
  deriver.apply(b);
  ASSERT_TRUE(b.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_NEAR(*b.module[ModuleMetric::kPreFecBerRatio], 75'000 / (2 * 53.125e9), 1e-18);
  auto c = b;  // without bits_per_block nothing can be estimated
  c.timestamp_ms = 2000;
  c.fec.bits_per_block.reset();
  c.module = ModuleValues{};
  deriver.apply(c);
  EXPECT_FALSE(c.module[ModuleMetric::kPreFecBerRatio]);
}

TEST(FecBerDeriver, ClockNotAdvancingGivesNoValue) {
  FecBerDeriver deriver;
  auto a = port(5000, 0);
  deriver.apply(a);
  auto b = port(5000, 100);
  deriver.apply(b);
  EXPECT_FALSE(b.module[ModuleMetric::kPreFecBerRatio]);
}

TEST(FecBerDeriver, PortsAreIndependent) {
  FecBerDeriver deriver;
  auto a = port(0, 0);
  deriver.apply(a);
  auto other = port(1000, 999);
  other.port = "eth3";
  deriver.apply(other);
  EXPECT_FALSE(other.module[ModuleMetric::kPreFecBerRatio]);  // eth3's first sample
  deriver.forget("host1", "eth3");
  EXPECT_EQ(deriver.ports(), 1u);
}

// Ports are kept per target: forgetting one target keeps every port of the
// others, a target whose name begins with it included, and their counters
// still give a value at their next Sample.
TEST(FecBerDeriver, ForgettingATargetKeepsTheOthersPorts) {
  FecBerDeriver deriver;
  for (const char* target : {"host1", "host10", "host1-b"}) {
    for (const char* name : {"eth2", "eth3"}) {
      auto s = port(0, 0);
      s.target = target;
      s.port = name;
      deriver.apply(s);
    }
  }
  EXPECT_EQ(deriver.ports(), 6u);
  deriver.forgetTarget("host1");
  EXPECT_EQ(deriver.ports(), 4u);
  deriver.forget("host10", "eth3");
  deriver.forget("host10", "eth9");  // never seen: nothing happens
  deriver.forget("nohost", "eth2");
  EXPECT_EQ(deriver.ports(), 3u);

  auto kept = port(1000, 2'125'000);
  kept.target = "host10";
  deriver.apply(kept);
  ASSERT_TRUE(kept.module[ModuleMetric::kPreFecBerRatio]);  // compared with its first Sample
  auto forgotten = port(1000, 2'125'000);
  deriver.apply(forgotten);  // host1 was forgotten: a first Sample again
  EXPECT_FALSE(forgotten.module[ModuleMetric::kPreFecBerRatio]);
  EXPECT_EQ(deriver.ports(), 4u);
}

TEST(FecBerDeriver, NoCountersNoState) {
  FecBerDeriver deriver;
  Sample s;
  s.port = "lo";
  deriver.apply(s);
  EXPECT_EQ(deriver.ports(), 0u);
}

}  // namespace
}  // namespace opticsd
