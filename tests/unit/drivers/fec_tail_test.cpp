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

// The tracker keeps a port's last histogram compactly (a flat array of
// counts and the bins' shape): it must give the tail fecTail gives on the
// full bins, window after window, for port bins and per-lane bins alike.
TEST(FecTail, TrackerAgreesWithFecTailOnEveryWindow) {
  std::vector<std::vector<FecHistogramBin>> polls{
      {{0, 0, 100, {60, 40}}, {1, 3, 10, {5, 5}}, {4, 15, {}, {0, 1}}},
      {{0, 0, 200, {120, 80}}, {1, 3, 10, {5, 5}}, {4, 15, {}, {0, 2}}},
      {{0, 0, 300, {180, 120}}, {1, 3, 12, {7, 5}}, {4, 15, {}, {0, 2}}},
      {{0, 0, 300, {180, 120}}, {1, 3, 12, {7, 5}}, {4, 15, {}, {0, 2}}},  // no traffic
      {{0, 0, 10, {6, 4}}, {1, 3, 0, {0, 0}}, {4, 15, {}, {0, 0}}},        // cleared
      {{0, 0, 20, {12, 8}}, {1, 3, 0, {0, 0}}, {4, 15, {}, {1, 0}}},
  };
  FecTailTracker tracker;
  Sample s;
  s.port = "eth2";
  s.mutableIdentity().serial = "A";
  for (std::size_t i = 0; i < polls.size(); ++i) {
    s.fec.histogram = polls[i];
    s.fec.tail = {};
    tracker.apply(s);
    const FecTail want = i == 0 ? FecTail{} : fecTail(polls[i - 1], polls[i]);
    EXPECT_EQ(s.fec.tail.symbols, want.symbols) << "poll " << i;
    EXPECT_EQ(s.fec.tail.lane_symbols, want.lane_symbols) << "poll " << i;
  }
  // The window of poll 1 and of poll 5 are not empty: the comparison above is not of nothing.
  EXPECT_EQ(fecTail(polls[0], polls[1]).symbols, std::optional<std::uint16_t>(15));
  EXPECT_EQ(fecTail(polls[4], polls[5]).lane_symbols[0], std::optional<std::uint16_t>(15));
}

TEST(FecTail, TrackerStartsAgainWhenTheBinsChangeShape) {
  FecTailTracker tracker;
  Sample s;
  s.port = "eth2";
  s.fec.histogram = bins({10, 1, 0});
  tracker.apply(s);
  s.fec.histogram = {{0, 0, 20, {}}, {1, 1, {}, {2}}, {2, 2, 0, {}}};  // a total became a lane count
  tracker.apply(s);
  EXPECT_FALSE(s.fec.tail.symbols);
  s.fec.histogram = {{0, 0, 30, {}}, {1, 1, {}, {3}}, {2, 2, 0, {}}};
  tracker.apply(s);
  EXPECT_EQ(s.fec.tail.symbols, std::optional<std::uint16_t>(1));
  const std::size_t remembered = tracker.bytes();
  s.fec.histogram.clear();  // no histogram: the port is forgotten
  tracker.apply(s);
  EXPECT_LT(tracker.bytes(), remembered);
  s.fec.histogram = {{0, 0, 40, {}}, {1, 1, {}, {4}}, {2, 2, 0, {}}};
  s.fec.tail = {};
  tracker.apply(s);
  EXPECT_FALSE(s.fec.tail.symbols);
}

// What a fleet instance keeps a port for its tail: 16 port bins as 16 counts
// (128 bytes) and the node, not 16 bins of 48 bytes.
TEST(FecTail, TrackerKeepsAPortCompactly) {
  FecTailTracker tracker;
  for (int p = 0; p < 64; ++p) {
    Sample s;
    s.port = "Ethernet" + std::to_string(p * 8);
    s.fec.histogram = bins(std::vector<std::uint64_t>(16, 7));
    tracker.apply(s);
  }
  const std::size_t per_port = tracker.bytes() / 64;
  EXPECT_LE(per_port, 300u) << per_port;
  EXPECT_GE(per_port, 16u * sizeof(std::uint64_t));
}

}  // namespace
}  // namespace opticsd
