#include "daemon/output/time_text.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

TEST(TimeTextTest, FormatsUtcWithMilliseconds) {
  EXPECT_EQ(formatRfc3339Ms(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(formatRfc3339Ms(1714564800123), "2024-05-01T12:00:00.123Z");
  EXPECT_EQ(formatRfc3339Ms(-1), "1969-12-31T23:59:59.999Z");
}

TEST(TimeTextTest, ParsesRfc3339) {
  EXPECT_EQ(*parseRfc3339("2024-05-01T12:00:00Z"), 1714564800000);
  EXPECT_EQ(*parseRfc3339("2024-05-01T12:00:00.5Z"), 1714564800500);
  EXPECT_EQ(*parseRfc3339("2024-05-01T14:00:00.123456+02:00"), 1714564800123);
  EXPECT_EQ(*parseRfc3339("2024-05-01 07:30:00-04:30"), 1714564800000);
  EXPECT_EQ(*parseRfc3339(formatRfc3339Ms(1714564800123)), 1714564800123);
}

TEST(TimeTextTest, RejectsMalformedTimes) {
  for (const char* bad :
       {"", "2024-05-01", "2024-05-01T12:00:00", "2024-13-01T00:00:00Z", "2024-02-30T00:00:00Z", "2024-05-01T25:00:00Z",
        "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00Zjunk", "2024-05-01T12:00:00+2:00"}) {
    auto r = parseRfc3339(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_NE(r.error().message.find("RFC 3339"), std::string::npos);
    }
  }
}

TEST(TimeTextTest, BoundsAcceptDurationsBackFromNow) {
  const std::int64_t now = 1714564800000;
  EXPECT_EQ(*parseTimeBound("1h", now), now - 3'600'000);
  EXPECT_EQ(*parseTimeBound("90m", now), now - 5'400'000);
  EXPECT_EQ(*parseTimeBound("now", now), now);
  EXPECT_EQ(*parseTimeBound("2024-05-01T11:00:00Z", now), now - 3'600'000);
  EXPECT_FALSE(parseTimeBound("yesterday", now));
  EXPECT_FALSE(parseTimeBound("-1h", now));
}

}  // namespace
}  // namespace opticsd
