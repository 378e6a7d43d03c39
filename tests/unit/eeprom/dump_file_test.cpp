// The dump-file parser: page-addressed format, ethtool hex/raw, bare hex, errors.
#include "drivers/eeprom/dump_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/unit/eeprom/fixture.hpp"

namespace opticsd::eeprom::test {
namespace {

std::span<const std::uint8_t> asBytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// The linear (ethtool legacy) image of a memory: SFF-8472 A0h+A2h, else lower + pages 0..n.
std::vector<std::uint8_t> linear(const ModuleMemory& m, bool sfp, int pages) {
  std::vector<std::uint8_t> out;
  auto append = [&](const PageKey& key) {
    const auto* b = m.find(key);
    for (std::size_t i = 0; i < kPageSize; ++i) out.push_back(b ? (*b)[i] : 0);
  };
  if (sfp) {
    append({0x50, 0, 0, false});
    append({0x50, 0, 0, true});
    append({0x51, 0, 0, false});
    append({0x51, 0, 0, true});
    return out;
  }
  append({0x50, 0, 0, false});
  for (int p = 0; p < pages; ++p) append({0x50, 0, static_cast<std::uint8_t>(p), true});
  return out;
}

bool samePages(const ModuleMemory& a, const ModuleMemory& b) {
  if (a.pages().size() != b.pages().size()) return false;
  for (const auto& p : a.pages()) {
    const std::bitset<kPageSize>* valid = nullptr;
    const auto* other = b.find(p.key, &valid);
    if (other == nullptr || *other != p.bytes || *valid != p.valid) return false;
  }
  return true;
}

TEST(PageDump, RoundTripsEveryFixture) {
  for (const char* name : {"synthetic-sfp-internal-cal", "synthetic-qsfp28-sr4", "synthetic-cmis-400g-dr4",
                           "synthetic-cmis-osfp-2banks", "synthetic-cmis-flat-dac"}) {
    SCOPED_TRACE(name);
    const ModuleMemory m = loadFixture(name);
    const std::string text = writePageDump(m);
    auto again = parseDumpFileDetailed(asBytes(text));
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->format, "page-dump");
    EXPECT_TRUE(samePages(m, again->memory));
  }
}

TEST(PageDump, MissingBytesStayMissing) {
  const std::string text =
      "# opticsd module dump v1\n"
      "[i2c=0x50 bank=0 page=0x00]\n"
      "0x00: 11 -- 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"
      "[i2c=0x50 bank=1 page=0x11]  # a bank-1 page\n"
      "0x80: 44 44\n";
  auto parsed = parseDumpFileDetailed(asBytes(text));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->memory.byte({0x50, 0, 0, false}, 0), 0x11);
  EXPECT_FALSE(parsed->memory.byte({0x50, 0, 0, false}, 1));
  EXPECT_EQ(parsed->memory.byte({0x50, 1, 0x11, true}, 1), 0x44);
  ASSERT_EQ(parsed->notes.size(), 1u);  // the short line
  EXPECT_NE(parsed->notes[0].find("line 5"), std::string::npos);
  EXPECT_NE(writePageDump(parsed->memory).find("0x00: 11 -- 00"), std::string::npos);
}

TEST(PageDump, MalformedLinesAreErrorsWithLineNumbers) {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"[i2c=0x50 bank=0 page=0x00]\n0x00: 1g\n", "line 2"},
      {"[i2c=0x50 bank=0 page=0x00\n", "line 1"},
      {"[i2c=0x50 bank=0 colour=1]\n", "unknown page header item"},
      {"[i2c=0x50 bank=0]\n", "needs page"},
      {"# opticsd module dump v1\n0x00: 00\n", "before the first"},
      {"[i2c=0x50 bank=0 page=0]\n0xf8: 00 00 00 00 00 00 00 00 00\n", "past window offset"},
      {"[i2c=0x50 bank=999 page=0]\n", "0-255"},
  };
  for (const auto& c : cases) {
    auto parsed = parseDumpFile(asBytes(c.text));
    ASSERT_FALSE(parsed) << c.text;
    EXPECT_NE(parsed.error().message.find(c.want), std::string::npos) << parsed.error().message;
  }
}

TEST(EthtoolHex, SfpLinearLayoutDecodesLikeTheFixture) {
  const ModuleMemory m = loadFixture("synthetic-sfp-internal-cal");
  const auto bytes = linear(m, true, 0);
  std::string text = "Offset\t\tValues\n------\t\t------\n";
  char buf[32];
  for (std::size_t row = 0; row < bytes.size(); row += 16) {
    std::snprintf(buf, sizeof buf, "0x%04zx:\t\t", row);
    text += buf;
    for (std::size_t i = row; i < row + 16; ++i) {
      std::snprintf(buf, sizeof buf, "%02x ", bytes[i]);
      text += buf;
    }
    text += "\n";
  }
  auto parsed = parseDumpFileDetailed(asBytes(text));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->format, "ethtool-hex");
  Sample s;
  decodeModule(parsed->memory, s);
  EXPECT_TRUE(s.issues.empty());
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], -5.5);
  EXPECT_EQ(s.identity().part_number, "SFP-10G-SR");
}

TEST(RawBinary, Qsfp640BytesPutsPage03AtOffset512) {
  const ModuleMemory m = loadFixture("synthetic-qsfp28-sr4");
  const auto bytes = linear(m, false, 4);  // lower, 00h, 01h, 02h, 03h = 640 bytes
  ASSERT_EQ(bytes.size(), 640u);
  auto parsed = parseDumpFileDetailed(bytes);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->format, "raw");
  Sample s;
  decodeModule(parsed->memory, s);
  EXPECT_TRUE(s.issues.empty());
  EXPECT_NEAR(*s.thresholds(ModuleMetric::kSupplyVoltageVolts)->high_alarm, 3.63, 1e-9);
}

TEST(RawBinary, TruncatedSfpSaysWhatIsMissing) {
  const ModuleMemory m = loadFixture("synthetic-sfp-internal-cal");
  auto bytes = linear(m, true, 0);
  bytes.resize(300);  // A0h plus 44 bytes of A2h: thresholds only
  auto parsed = parseDumpFileDetailed(bytes);
  ASSERT_TRUE(parsed);
  ASSERT_FALSE(parsed->notes.empty());
  EXPECT_NE(parsed->notes.back().find("A2h"), std::string::npos);
  Sample s;
  decodeModule(parsed->memory, s);
  EXPECT_DOUBLE_EQ(*s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 75.0);
  EXPECT_FALSE(s.module[ModuleMetric::kTemperatureCelsius]);  // byte 96 was cut off
}

TEST(BareHex, CommentsAndWhitespaceAllowed) {
  const std::string text = "# a module\n0d 05 00\n0000 # trailing comment\n";
  auto parsed = parseDumpFileDetailed(asBytes(text));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->format, "hex");
  EXPECT_EQ(parsed->memory.byte({0x50, 0, 0, false}, 0), 0x0d);
  EXPECT_EQ(parsed->memory.byte({0x50, 0, 0, false}, 4), 0x00);
  EXPECT_FALSE(parsed->memory.byte({0x50, 0, 0, false}, 5));
}

// The fuzzer's round-trip invariant: whatever parses survives writePageDump -> parse with the same pages.
void expectRoundTrip(std::span<const std::uint8_t> bytes) {
  auto parsed = parseDumpFile(bytes);
  if (!parsed) return;
  const std::string text = writePageDump(*parsed);
  auto again = parseDumpFile(asBytes(text));
  ASSERT_TRUE(again) << again.error().message << "\n" << text;
  EXPECT_TRUE(samePages(*parsed, *again)) << text;
}

// Fuzzer finding (was tests/fuzz/reproducers/fuzz_eeprom_dump_file-roundtrip-page-count.txt):
// an ethtool-hex line at offset 0xd040 parsed to an empty memory that did not round-trip.
TEST(EthtoolHex, ReproducerOffsetPastLinearImageIsRejected) {
  const auto bytes =
      readFile(std::string(OPTICSD_SOURCE_DIR) +
               "/tests/fuzz/corpus/fuzz_eeprom_dump_file/regress-ethtool-hex-offset-past-linear-image.txt");
  ASSERT_FALSE(bytes.empty());
  auto parsed = parseDumpFile(bytes);
  ASSERT_FALSE(parsed) << "offset 0xd040 is not something ethtool prints";
  EXPECT_NE(parsed.error().message.find("line 2: offset 0xd040 is past 0x027f"), std::string::npos)
      << parsed.error().message;
  expectRoundTrip(bytes);
}

TEST(EthtoolHex, LinearImageEndsAt0x27f) {
  // The last line of a 640-byte SFF-8636 dump (page 03h bytes 240-255) is accepted and lands in page 03h.
  auto last =
      parseDumpFileDetailed(asBytes("0x0000:\t\t11 00\n0x0270:\t\t01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10\n"));
  ASSERT_TRUE(last) << last.error().message;
  EXPECT_EQ(last->memory.byte({0x50, 0, 3, true}, 0x70), 0x01);
  EXPECT_EQ(last->memory.byte({0x50, 0, 3, true}, 0x7f), 0x10);
  expectRoundTrip(asBytes("0x0270: 01\n"));
  // A line that starts inside the image but runs past its end is rejected too.
  auto over = parseDumpFile(asBytes("0x0278: 00 00 00 00 00 00 00 00 00\n"));
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().message.find("past offset 0x027f"), std::string::npos) << over.error().message;
  ASSERT_FALSE(parseDumpFile(asBytes("0x0280: 00\n")));
}

TEST(BareHex, LongLinearImageRoundTrips) {
  // Bare hex may carry a CMIS linear image past 640 bytes: page N at 128 x (N + 1).
  std::string text = "18";
  for (int i = 1; i < 128 * (0x11 + 1); ++i) text += " 00";
  text += " 5a";  // page 11h byte 128
  auto parsed = parseDumpFileDetailed(asBytes(text));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->memory.byte({0x50, 0, 0x11, true}, 0), 0x5a);
  expectRoundTrip(asBytes(text));
}

TEST(Errors, EmptyAndNonDumpInput) {
  EXPECT_FALSE(parseDumpFile({}));
  EXPECT_FALSE(parseDumpFile(asBytes("hello world\n")));
  EXPECT_FALSE(parseDumpFile(asBytes("# only a comment\n")));
}

}  // namespace
}  // namespace opticsd::eeprom::test
