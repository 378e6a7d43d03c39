#include "drivers/reading.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "drivers/sample.hpp"

namespace opticsd {
namespace {

TEST(Reading, StartsAbsentAndHoldsWhatIsSet) {
  Reading r;
  EXPECT_FALSE(r.has_value());
  EXPECT_FALSE(r);
  EXPECT_EQ(r.value_or(-7.5), -7.5);
  EXPECT_THROW((void)r.value(), std::bad_optional_access);
  r = -40.0;
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, -40.0);
  EXPECT_EQ(r.value(), -40.0);
  r.reset();
  EXPECT_FALSE(r.has_value());
  EXPECT_EQ(r.emplace(2.5), 2.5);
  r = std::nullopt;
  EXPECT_FALSE(r.has_value());
}

TEST(Reading, EveryDoubleIsAValueIncludingZeroInfinityAndNan) {
  for (double v : {0.0, -0.0, 1e-300, -1e300, std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    const Reading r(v);
    ASSERT_TRUE(r.has_value()) << v;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(*r), std::bit_cast<std::uint64_t>(v)) << v;
  }
  // Any NaN, whatever its payload or sign, is a NaN value, never "absent".
  for (std::uint64_t bits : {0x7ff8'0000'0000'0000ULL, 0xfff8'0000'0000'0001ULL, 0x7ff4'0000'0000'a65dULL,
                             0xfff4'0000'0000'a65dULL, 0x7ff0'0000'0000'0001ULL}) {
    const Reading r(std::bit_cast<double>(bits));
    ASSERT_TRUE(r.has_value()) << std::hex << bits;
    EXPECT_TRUE(std::isnan(*r));
  }
}

TEST(Reading, ArithmeticOnAnAbsentReadingIsNotAbsent) {
  // Absence is a signalling NaN: anything computed from it is a quiet NaN,
  // which a Reading holds as a (NaN) value rather than as "not reported".
  const Reading absent;
  volatile double raw = *absent;
  const Reading computed(raw * 2.0);
  EXPECT_TRUE(computed.has_value());
}

TEST(Reading, ConvertsToAndFromTheStandardOptional) {
  const std::optional<double> some = 3.25;
  const std::optional<double> none;
  EXPECT_EQ(Reading(some), 3.25);
  EXPECT_FALSE(Reading(none).has_value());
  const std::optional<double> back = Reading(1.5);
  EXPECT_EQ(back, 1.5);
  const std::optional<double> back_none = Reading();
  EXPECT_FALSE(back_none.has_value());
  Reading r;
  r = some;
  EXPECT_EQ(r, some);
  r = none;
  EXPECT_EQ(r, none);
  EXPECT_EQ(r, std::nullopt);
}

TEST(Reading, ComparesAsTheStandardOptionalDoes) {
  const Reading absent, one(1.0), two(2.0);
  EXPECT_EQ(absent, Reading());
  EXPECT_NE(absent, one);
  EXPECT_NE(one, two);
  EXPECT_EQ(one, 1.0);
  EXPECT_NE(absent, 0.0);
  EXPECT_LT(absent, one);
  EXPECT_LT(one, two);
  EXPECT_LT(absent, -1e300);
  EXPECT_GT(two, 1.5);
  EXPECT_NE(Reading(std::numeric_limits<double>::quiet_NaN()), Reading(std::numeric_limits<double>::quiet_NaN()));
  const std::optional<double> opt_one = 1.0, opt_none;
  EXPECT_TRUE(one == opt_one);
  EXPECT_TRUE(opt_one == one);
  EXPECT_TRUE(absent == opt_none);
  EXPECT_TRUE(opt_none == absent);
  EXPECT_FALSE(absent == opt_one);
}

TEST(Reading, HalvesTheSampleStorageOfAnOptionalDouble) {
  static_assert(sizeof(Reading) == 8);
  static_assert(sizeof(Thresholds) == 32);
  static_assert(sizeof(std::optional<AlarmFlags>) == 2);
  LaneValues values;
  EXPECT_TRUE(values.empty());
  values.set(LaneMetric::kRxPowerDbm, -3.5);
  EXPECT_FALSE(values.empty());
  EXPECT_EQ(values[LaneMetric::kRxPowerDbm], -3.5);
  EXPECT_FALSE(values[LaneMetric::kTxPowerDbm].has_value());
}

}  // namespace
}  // namespace opticsd
