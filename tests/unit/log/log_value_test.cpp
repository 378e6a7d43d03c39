#include <gtest/gtest.h>

#include "daemon/log/log.hpp"

namespace opticsd {
namespace {

TEST(LogValue, PlainTokensStayBare) {
  EXPECT_EQ(logValue("leaf-7"), "leaf-7");
  EXPECT_EQ(logValue("Ethernet12"), "Ethernet12");
}

TEST(LogValue, SpacesQuotesAndEqualsAreQuoted) {
  EXPECT_EQ(logValue(""), "\"\"");
  EXPECT_EQ(logValue("no route"), "\"no route\"");
  EXPECT_EQ(logValue("a=\"b\"\\"), "\"a=\\\"b\\\"\\\\\"");
}

TEST(LogValue, ControlsAndInvalidUtf8AreHexEscaped) {
  EXPECT_EQ(logValue("x\ny"), "\"x\\x0ay\"");
  EXPECT_EQ(logValue("ACME\xFF"), "\"ACME\\xff\"");
  EXPECT_EQ(logValue("\xC2\x85"), "\"\\u0085\"");  // C1 NEL, valid UTF-8 but a line break to some terminals
}

TEST(LogValue, ReadableUtf8IsKept) { EXPECT_EQ(logValue("Gr\xC3\xBCn"), "\"Gr\xC3\xBCn\""); }

TEST(LogValue, DirectionOverridesAndInvisiblesAreShownNotObeyed) {
  // "leaf-7" followed by RIGHT-TO-LEFT OVERRIDE would flip the rest of the journal line.
  EXPECT_EQ(logValue("leaf-7\xE2\x80\xAE"
                     "cod"),
            "\"leaf-7\\u202ecod\"");
  EXPECT_EQ(logValue("a\xE2\x80\x8B"
                     "b"),
            "\"a\\u200bb\"");                                               // zero-width space
  EXPECT_EQ(logValue("\xEF\xBB\xBFx"), "\"\\ufeffx\"");                     // byte-order mark
  EXPECT_EQ(logValue("\xE2\x81\xA6x\xE2\x81\xA9"), "\"\\u2066x\\u2069\"");  // isolate LRI .. PDI
}

}  // namespace
}  // namespace opticsd
