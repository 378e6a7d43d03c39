#include "drivers/options/duration.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

using std::chrono::milliseconds;

TEST(DurationTest, ParsesSingleUnits) {
  EXPECT_EQ(parseDuration("250ms").value(), milliseconds(250));
  EXPECT_EQ(parseDuration("30s").value(), milliseconds(30'000));
  EXPECT_EQ(parseDuration("5m").value(), milliseconds(300'000));
  EXPECT_EQ(parseDuration("2h").value(), milliseconds(7'200'000));
  EXPECT_EQ(parseDuration("1d").value(), milliseconds(86'400'000));
  EXPECT_EQ(parseDuration("1w").value(), milliseconds(604'800'000));
}

TEST(DurationTest, ParsesCompoundDurations) {
  EXPECT_EQ(parseDuration("1h30m").value(), milliseconds(5'400'000));
  EXPECT_EQ(parseDuration("1m30s500ms").value(), milliseconds(90'500));
}

TEST(DurationTest, RejectsMalformedInput) {
  for (const char* bad : {"", "30", "s", "-5s", "5x", "1.5s", "5 s", "5sec", "m5"}) {
    auto parsed = parseDuration(bad);
    EXPECT_FALSE(parsed) << "'" << bad << "' should not parse";
    if (!parsed) {
      EXPECT_NE(parsed.error().message.find("duration"), std::string::npos);
    }
  }
}

TEST(DurationTest, RejectsOverflow) {
  EXPECT_FALSE(parseDuration("99999999999999999999s"));
  EXPECT_FALSE(parseDuration("9223372036854775807w"));
}

TEST(DurationTest, FormatsLargestUnitsFirst) {
  EXPECT_EQ(formatDuration(milliseconds(5'400'000)), "1h30m");
  EXPECT_EQ(formatDuration(milliseconds(90'500)), "1m30s500ms");
  EXPECT_EQ(formatDuration(milliseconds(0)), "0s");
  EXPECT_EQ(formatDuration(milliseconds(86'400'000 * 8LL)), "8d");
}

}  // namespace
}  // namespace opticsd
