#include "drivers/fec_tail.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

// Bins 0..n-1, one symbol count each, with the given port totals.
std::vector<FecHistogramBin> bins(std::vector<std::uint64_t> counts) {
  std::vector<FecHistogramBin> out;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    FecHistogramBin b;
    b.low = b.high = static_cast<std::uint16_t>(k);
    b.codewords_total = counts[k];
    out.push_back(b);
  }
  return out;
}

TEST(FecTail, HighestBinThatGrewNotHighestNonZero) {
  // Bin 5 holds old codewords but did not grow: the window's tail is bin 3.
  const auto tail = fecTail(bins({100, 10, 5, 2, 0, 7}), bins({200, 20, 6, 3, 0, 7}));
  EXPECT_EQ(tail.symbols, std::optional<std::uint16_t>(3));
  EXPECT_TRUE(tail.lane_symbols.empty());
}

TEST(FecTail, RangesTakeTheirUpperBound) {
  auto before = bins({100, 0});
  auto after = bins({150, 0});
  before.push_back({4, 7, 1, {}});
  after.push_back({4, 7, 2, {}});
  EXPECT_EQ(fecTail(before, after).symbols, std::optional<std::uint16_t>(7));
}

TEST(FecTail, NoWindowResetOrChangedBinsIsAbsent) {
  EXPECT_FALSE(fecTail({}, bins({1, 2})).symbols);               // first poll
  EXPECT_FALSE(fecTail(bins({5, 5}), bins({5, 5})).symbols);     // no traffic
  EXPECT_FALSE(fecTail(bins({50, 5}), bins({10, 6})).symbols);   // a counter reset
  EXPECT_FALSE(fecTail(bins({5, 5}), bins({6, 6, 1})).symbols);  // other bins
  auto moved = bins({5, 5});
  moved[1].high = 3;
  EXPECT_FALSE(fecTail(bins({5, 5}), moved).symbols);
}

TEST(FecTail, PerLaneBinsGiveEachLaneItsTail) {
  // Port totals absent, as a NIC that counts per lane only (bin-val optional).
  std::vector<FecHistogramBin> before{{0, 0, {}, {100, 100}}, {1, 1, {}, {5, 5}}, {2, 2, {}, {1, 0}}};
  std::vector<FecHistogramBin> after{{0, 0, {}, {200, 180}}, {1, 1, {}, {6, 5}}, {2, 2, {}, {1, 1}}};
  const auto tail = fecTail(before, after);
  EXPECT_EQ(tail.symbols, std::optional<std::uint16_t>(2));
  ASSERT_EQ(tail.lane_symbols.size(), 2u);
  EXPECT_EQ(tail.lane_symbols[0], std::optional<std::uint16_t>(1));
  EXPECT_EQ(tail.lane_symbols[1], std::optional<std::uint16_t>(2));
}

TEST(FecTail, MarginToTheCodesLimit) {
  FecCounters fec;
  EXPECT_FALSE(fec.margin(3));  // the code is unknown
  fec.correctable_symbols = 15;
  EXPECT_EQ(fec.margin(3), std::optional<std::uint16_t>(12));
  EXPECT_EQ(fec.margin(15), std::optional<std::uint16_t>(0));
  EXPECT_EQ(fec.margin(20), std::optional<std::uint16_t>(0));
  EXPECT_FALSE(fec.margin(std::nullopt));
}

TEST(FecTail, TrackerNeedsTheSameModuleTwice) {
  FecTailTracker tracker;
  Sample s;
  s.port = "eth2";
  s.mutableIdentity().serial = "A";
  s.fec.histogram = bins({10, 1});
  tracker.apply(s);
  EXPECT_FALSE(s.fec.tail.symbols);
  s.fec.histogram = bins({20, 2});
  tracker.apply(s);
  EXPECT_EQ(s.fec.tail.symbols, std::optional<std::uint16_t>(1));
  // A swapped module starts a new window.
  s.mutableIdentity().serial = "B";
  s.fec.histogram = bins({30, 3});
  s.fec.tail = {};
  tracker.apply(s);
  EXPECT_FALSE(s.fec.tail.symbols);
}

}  // namespace
}  // namespace opticsd
