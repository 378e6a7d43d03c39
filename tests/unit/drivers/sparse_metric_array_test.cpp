// The sparse lane storage (drivers/sparse_metric_array.hpp) must read like the
// fixed arrays it replaced: an unwritten metric is absent, a write is read
// back, references into it survive later writes, copies are independent.

#include "drivers/sparse_metric_array.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "drivers/sample.hpp"

namespace opticsd {
namespace {

constexpr std::size_t kAll = kLaneMetricCount;

LaneMetric metric(std::size_t i) { return static_cast<LaneMetric>(i); }

// A value of its own for every metric, so a value read from the wrong slot shows.
double valueOf(std::size_t i) { return -10.0 + 0.25 * static_cast<double>(i); }

// Every metric written, in an order that is neither the index order nor its reverse.
LaneValues allWritten() {
  LaneValues v;
  for (std::size_t n = 0; n < kAll; ++n) {
    const std::size_t i = (n * 17) % kAll;  // 17 and 49 are coprime: a permutation
    v[metric(i)] = valueOf(i);
  }
  return v;
}

// clear() reads like a new array and keeps its heap blocks for the next writes.
TEST(SparseMetricArray, ClearForgetsEveryMetricAndTheNextWritesReadBack) {
  LaneValues v = allWritten();  // 49 metrics: past the inline block
  const std::size_t slots_before = v.slotCount();
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.slotCount(), 0u);
  for (std::size_t i = 0; i < kAll; ++i) EXPECT_EQ(v.find(metric(i)), nullptr) << i;
  for (std::size_t i = 0; i < kAll; i += 3) v[metric(i)] = valueOf(i) + 1;
  const LaneValues& read = v;  // reads through a const array take no slot
  for (std::size_t i = 0; i < kAll; ++i) {
    if (i % 3 == 0) {
      ASSERT_TRUE(read[metric(i)].has_value()) << i;
      EXPECT_EQ(*read[metric(i)], valueOf(i) + 1) << i;
    } else {
      EXPECT_FALSE(read[metric(i)].has_value()) << i;
    }
  }
  EXPECT_EQ(v.slotCount(), (kAll + 2) / 3);  // only the metrics written since clear()
  EXPECT_LT(v.slotCount(), slots_before);
}

TEST(SparseMetricArray, AnUnwrittenMetricReadsAbsentAndReadingAllocatesNothing) {
  const LaneValues v;
  EXPECT_TRUE(v.empty());
  for (std::size_t i = 0; i < kAll; ++i) {
    EXPECT_FALSE(v[metric(i)].has_value()) << i;
    EXPECT_EQ(v.find(metric(i)), nullptr) << i;
  }
  EXPECT_EQ(v.slotCount(), 0u);
}

TEST(SparseMetricArray, AWriteIsReadBackAndOnlyThatMetricIsPresent) {
  LaneValues v;
  v.set(LaneMetric::kRxPowerDbm, -3.5);
  v[LaneMetric::kTxBiasMilliamperes] = 6.25;
  const LaneValues& c = v;
  EXPECT_EQ(c[LaneMetric::kRxPowerDbm], -3.5);
  EXPECT_EQ(c[LaneMetric::kTxBiasMilliamperes], 6.25);
  for (std::size_t i = 0; i < kAll; ++i) {
    if (metric(i) == LaneMetric::kRxPowerDbm || metric(i) == LaneMetric::kTxBiasMilliamperes) continue;
    EXPECT_FALSE(c[metric(i)].has_value()) << i;
  }
  EXPECT_FALSE(v.empty());
  EXPECT_EQ(v.slotCount(), 2u);
}

TEST(SparseMetricArray, ZeroIsAValueNotAbsence) {
  LaneValues v;
  v.set(LaneMetric::kTxPowerDbm, 0.0);
  EXPECT_TRUE(std::as_const(v)[LaneMetric::kTxPowerDbm].has_value());
  EXPECT_EQ(std::as_const(v)[LaneMetric::kTxPowerDbm], 0.0);
  EXPECT_FALSE(v.empty());
}

TEST(SparseMetricArray, AnOverwriteReplacesTheValueInItsOwnSlot) {
  LaneValues v;
  v.set(LaneMetric::kRxPowerDbm, -3.5);
  v.set(LaneMetric::kRxPowerDbm, -4.5);
  v[LaneMetric::kRxPowerDbm] = -5.5;
  EXPECT_EQ(std::as_const(v)[LaneMetric::kRxPowerDbm], -5.5);
  EXPECT_EQ(v.slotCount(), 1u);
  // Writing absence over a value makes it absent again, and the array empty.
  v.set(LaneMetric::kRxPowerDbm, std::nullopt);
  EXPECT_FALSE(std::as_const(v)[LaneMetric::kRxPowerDbm].has_value());
  EXPECT_TRUE(v.empty());
  v[LaneMetric::kRxPowerDbm] = -1.0;
  v[LaneMetric::kRxPowerDbm].reset();
  EXPECT_TRUE(v.empty());
}

TEST(SparseMetricArray, SettingAbsenceWhereNothingWasWrittenAllocatesNothing) {
  LaneValues v;
  v.set(LaneMetric::kEsnrDecibels, std::nullopt);
  EXPECT_EQ(v.slotCount(), 0u);
  EXPECT_TRUE(v.empty());
}

TEST(SparseMetricArray, ANonConstReadOfAnUnwrittenMetricReadsAbsent) {
  LaneValues v;
  EXPECT_FALSE(v[LaneMetric::kLtpDecibels].has_value());
  EXPECT_TRUE(v.empty());  // the slot it took holds no value
}

TEST(SparseMetricArray, EveryMetricWrittenBeyondTheInlineRoomIsReadBack) {
  static_assert(kAll > 3 * kLaneValuesInline, "the test must need several heap blocks");
  const LaneValues v = allWritten();
  EXPECT_EQ(v.slotCount(), kAll);
  for (std::size_t i = 0; i < kAll; ++i) EXPECT_EQ(v[metric(i)], valueOf(i)) << i;
  // Overwrite each once more, from the last index down.
  LaneValues w = v;
  for (std::size_t i = kAll; i-- > 0;) w.set(metric(i), valueOf(i) + 100.0);
  EXPECT_EQ(w.slotCount(), kAll);
  for (std::size_t i = 0; i < kAll; ++i) EXPECT_EQ(std::as_const(w)[metric(i)], valueOf(i) + 100.0) << i;
}

TEST(SparseMetricArray, ReferencesStayValidAcrossLaterWrites) {
  LaneValues v;
  Reading& first = v[LaneMetric::kTxBiasMilliamperes];  // inline block
  Reading& second = v[LaneMetric::kTxPowerDbm];
  first = 6.0;
  second = 1.0;
  // Fill past the inline room, keeping a reference into the first heap block.
  std::vector<Reading*> held;
  for (std::size_t i = 0; i < kAll; ++i) {
    Reading& r = v[metric(i)];
    held.push_back(&r);
    if (!r) r = valueOf(i);
  }
  // Both early references still name their metrics' slots: writes through
  // them are read back by metric, and every held pointer is the live slot.
  first = 7.0;
  second = 2.0;
  EXPECT_EQ(std::as_const(v)[LaneMetric::kTxBiasMilliamperes], 7.0);
  EXPECT_EQ(std::as_const(v)[LaneMetric::kTxPowerDbm], 2.0);
  for (std::size_t i = 0; i < kAll; ++i) {
    EXPECT_EQ(held[i], v.find(metric(i))) << i;
    EXPECT_EQ(held[i], &v[metric(i)]) << i;
  }
  *held[kAll - 1] = 42.0;  // a slot in the last heap block
  EXPECT_EQ(std::as_const(v)[metric(kAll - 1)], 42.0);
}

TEST(SparseMetricArray, CopiesAreIndependent) {
  LaneValues original = allWritten();
  LaneValues copy = original;
  copy.set(metric(0), 1000.0);             // inline block
  copy.set(metric(kAll - 1), 2000.0);      // a heap block
  original.set(metric(kAll - 2), 3000.0);  // a heap block of the original
  EXPECT_EQ(std::as_const(original)[metric(0)], valueOf(0));
  EXPECT_EQ(std::as_const(original)[metric(kAll - 1)], valueOf(kAll - 1));
  EXPECT_EQ(std::as_const(copy)[metric(kAll - 2)], valueOf(kAll - 2));
  EXPECT_EQ(std::as_const(copy)[metric(0)], 1000.0);

  LaneValues assigned;
  assigned.set(LaneMetric::kRxPowerDbm, -1.0);
  assigned = original;
  original.set(metric(kAll - 1), -500.0);
  EXPECT_EQ(std::as_const(assigned)[metric(kAll - 1)], valueOf(kAll - 1));
  EXPECT_EQ(std::as_const(assigned)[metric(kAll - 2)], 3000.0);
  EXPECT_EQ(assigned.slotCount(), kAll);

  // Assigning a smaller array drops what the larger held.
  LaneValues small;
  small.set(LaneMetric::kRxPowerDbm, -2.0);
  assigned = small;
  EXPECT_EQ(assigned.slotCount(), 1u);
  EXPECT_EQ(std::as_const(assigned)[LaneMetric::kRxPowerDbm], -2.0);
  EXPECT_FALSE(std::as_const(assigned)[metric(kAll - 1)].has_value());
}

TEST(SparseMetricArray, AMoveTakesTheValuesAndLeavesAnEmptyArray) {
  LaneValues source = allWritten();
  LaneValues moved = std::move(source);
  for (std::size_t i = 0; i < kAll; ++i) EXPECT_EQ(std::as_const(moved)[metric(i)], valueOf(i)) << i;
  // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is specified
  EXPECT_TRUE(source.empty());
  EXPECT_EQ(source.slotCount(), 0u);
  source.set(LaneMetric::kRxPowerDbm, -3.0);  // usable again
  EXPECT_EQ(std::as_const(source)[LaneMetric::kRxPowerDbm], -3.0);
  LaneValues target;
  target.set(LaneMetric::kTxPowerDbm, 1.0);
  target = std::move(moved);
  EXPECT_EQ(target.slotCount(), kAll);
  EXPECT_TRUE(moved.empty());
  // NOLINTEND(bugprone-use-after-move)
}

TEST(SparseMetricArray, IterationVisitsEveryMetricInIndexOrder) {
  LaneFlags flags;
  flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = AlarmFlags{false, true, false, false};
  flags[static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes)] = AlarmFlags{};
  std::size_t i = 0;
  std::size_t present = 0;
  for (const auto& f : flags) {
    const bool expected = i == static_cast<std::size_t>(LaneMetric::kRxPowerDbm) ||
                          i == static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes);
    EXPECT_EQ(f.has_value(), expected) << i;
    if (f) ++present;
    ++i;
  }
  EXPECT_EQ(i, kAll);
  EXPECT_EQ(present, 2u);
  EXPECT_TRUE(std::as_const(flags)[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]->low_alarm);
  EXPECT_FALSE(std::as_const(flags)[static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes)]->any());
}

TEST(SparseMetricArray, ManyFlagsBeyondTheInlineRoomAreReadBack) {
  LaneFlags flags;
  for (std::size_t i = 0; i < kAll; i += 2) flags[i] = AlarmFlags{i % 4 == 0, false, false, i % 3 == 0};
  const LaneFlags copy = flags;
  for (std::size_t i = 0; i < kAll; ++i) {
    if (i % 2) {
      EXPECT_FALSE(copy[i].has_value()) << i;
      continue;
    }
    ASSERT_TRUE(copy[i].has_value()) << i;
    EXPECT_EQ(copy[i]->high_alarm, i % 4 == 0) << i;
    EXPECT_EQ(copy[i]->low_warning, i % 3 == 0) << i;
  }
}

// What the layout is for: a lane holds what a simulated 8-lane CMIS module
// reports (9 values, 3 flags) without the heap, in far less than the 49
// fixed slots of each it had (8 + 49 x 8 + 49 x 2 + status, about 520 bytes).
TEST(SparseMetricArray, ALaneIsAThirdOfItsFixedArraySize) {
  static_assert(sizeof(LaneValues) == 128);
  static_assert(sizeof(LaneFlags) == 32);
  static_assert(sizeof(Lane) <= 192);
}

}  // namespace
}  // namespace opticsd
