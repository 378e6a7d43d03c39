#include "daemon/web/html_escape.hpp"

#include <gtest/gtest.h>

namespace opticsd::web {
namespace {

TEST(HtmlEscape, MarkupAndQuotesBecomeEntities) {
  EXPECT_EQ(htmlEscape("<script>alert(\"x\")</script>"), "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  EXPECT_EQ(htmlEscape("a&b 'c'"), "a&amp;b &#39;c&#39;");
}

TEST(HtmlEscape, ControlCharactersAreShownNotPassed) {
  EXPECT_EQ(htmlEscape(std::string("eth\x1b[31m1\x07", 10)), "eth\\x1B[31m1\\x07");
  EXPECT_EQ(htmlEscape(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(htmlEscape("\x7f"), "\\x7F");
}

TEST(HtmlEscape, ValidUtf8PassesInvalidBytesAreShown) {
  EXPECT_EQ(htmlEscape("Ä°C µ"), "Ä°C µ");
  EXPECT_EQ(htmlEscape("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(htmlEscape("\xc0\xaf"), "\\xC0\\xAF");           // overlong '/'
  EXPECT_EQ(htmlEscape("\xed\xa0\x80"), "\\xED\\xA0\\x80");  // a surrogate
  EXPECT_EQ(htmlEscape("\xc2\x9b"), "\\xC2\\x9B");           // C1 CSI, a terminal escape
  EXPECT_EQ(htmlEscape("ok\xe2\x82"), "ok\\xE2\\x82");       // cut short
}

TEST(HtmlEscape, PrintableKeepsMarkupButNotEscapes) { EXPECT_EQ(printable("<b>\x1b]0;x\x07"), "<b>\\x1B]0;x\\x07"); }

TEST(HtmlEscape, UrlComponentEncodesEverythingReserved) {
  EXPECT_EQ(urlComponent("Ethernet1/1"), "Ethernet1%2F1");
  EXPECT_EQ(urlComponent("a b&c=\"<"), "a%20b%26c%3D%22%3C");
  EXPECT_EQ(urlComponent("leaf-1_x.y~"), "leaf-1_x.y~");
}

}  // namespace
}  // namespace opticsd::web
