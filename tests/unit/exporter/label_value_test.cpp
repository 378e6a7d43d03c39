#include "daemon/exporter/label_value.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

TEST(LabelValue, PrintableAsciiIsUnchanged) {
  EXPECT_EQ(sanitizeLabelValue("FINISAR CORP."), "FINISAR CORP.");
  EXPECT_EQ(sanitizeLabelValue(""), "");
}

TEST(LabelValue, ValidMultibyteUtf8IsKept) {
  EXPECT_EQ(sanitizeLabelValue("Gr\xC3\xBCn \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "Gr\xC3\xBCn \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(LabelValue, InvalidBytesAreHexEscaped) {
  EXPECT_EQ(sanitizeLabelValue("ACME\xFF\xFE"), "ACME\\xFF\\xFE");
  EXPECT_EQ(sanitizeLabelValue("\x80start"), "\\x80start");                   // lone continuation byte
  EXPECT_EQ(sanitizeLabelValue("trunc\xE2\x82"), "trunc\\xE2\\x82");          // sequence cut short
  EXPECT_EQ(sanitizeLabelValue("\xC0\xAF"), "\\xC0\\xAF");                    // overlong '/'
  EXPECT_EQ(sanitizeLabelValue("\xED\xA0\x80"), "\\xED\\xA0\\x80");           // surrogate U+D800
  EXPECT_EQ(sanitizeLabelValue("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
}

TEST(LabelValue, ControlCharactersAreHexEscaped) {
  EXPECT_EQ(sanitizeLabelValue(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(sanitizeLabelValue("line\nbreak\x7F"), "line\\x0Abreak\\x7F");
}

TEST(LabelValue, DirectionOverridesAndInvisiblesAreShownNotObeyed) {
  // A sysName of "leaf-7" + U+202E + "21-fael" would display as another switch on a dashboard.
  EXPECT_EQ(sanitizeLabelValue("leaf-7\xE2\x80\xAE"
                               "21-fael"),
            "leaf-7\\u202E21-fael");
  EXPECT_EQ(sanitizeLabelValue("Eth\xE2\x80\x8B"
                               "1"),
            "Eth\\u200B1");  // zero-width space
  EXPECT_EQ(sanitizeLabelValue("\xEF\xBB\xBF"
                               "ACME"),
            "\\uFEFFACME");  // byte-order mark
  EXPECT_EQ(sanitizeLabelValue("\xC2\x9B"
                               "31m"),
            "\\u009B31m");                                       // C1 CSI
  EXPECT_EQ(sanitizeLabelValue("x\xE2\x81\xA7y"), "x\\u2067y");  // right-to-left isolate
  // Ordinary non-ASCII next to them is untouched.
  EXPECT_EQ(sanitizeLabelValue("\xC3\xBC\xE2\x80\x8F"), "\xC3\xBC\\u200F");
}

TEST(LabelValue, LongValuesAreCutOnACharacterBoundary) {
  const std::string ascii(70000, 'x');
  EXPECT_EQ(sanitizeLabelValue(ascii).size(), kMaxLabelValueBytes);

  std::string euros;
  for (int i = 0; i < 200; ++i) euros += "\xE2\x82\xAC";  // 3 bytes each
  const std::string cut = sanitizeLabelValue(euros);
  EXPECT_EQ(cut.size(), kMaxLabelValueBytes / 3 * 3);
  EXPECT_EQ(sanitizeLabelValue(cut), cut);  // still valid UTF-8

  const std::string bad(1000, '\xFF');
  const std::string escaped = sanitizeLabelValue(bad);
  EXPECT_LE(escaped.size(), kMaxLabelValueBytes);
  EXPECT_EQ(escaped.size() % 4, 0u);  // no half escape
}

}  // namespace
}  // namespace opticsd
