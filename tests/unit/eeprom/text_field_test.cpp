#include "drivers/eeprom/text_field.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace opticsd::eeprom {
namespace {

TEST(TextField, TrimsPaddingAndEscapes) {
  std::string out = "previous";
  const std::uint8_t bytes[] = {' ', 'A', 'B', 0x07, '\\', 'C', ' ', 0, ' '};
  assignText(out, bytes, sizeof bytes);
  EXPECT_EQ(out, "AB\\x07\\x5cC");
  const std::uint8_t blank[] = {' ', ' ', 0};
  assignText(out, blank, sizeof blank);
  EXPECT_EQ(out, "");
}

// Every byte value at every position of a 16-byte field (the word-at-a-time check's lanes and tail):
// printable ASCII but the backslash passes through, everything else is escaped.
TEST(TextField, EveryByteAtEveryPosition) {
  std::string out;
  for (int value = 0; value < 256; ++value) {
    const auto c = static_cast<std::uint8_t>(value);
    if (c == ' ' || c == 0) continue;  // padding, trimmed at the ends
    const bool plain = c >= 0x20 && c < 0x7f && c != '\\';
    for (std::size_t at = 0; at < 16; ++at) {
      std::uint8_t field[16];
      std::fill(std::begin(field), std::end(field), 'A');
      field[at] = c;
      assignText(out, field, sizeof field);
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", value);
      const std::string want = std::string(at, 'A') +
                               (plain ? std::string(1, static_cast<char>(c)) : std::string(hex)) +
                               std::string(15 - at, 'A');
      ASSERT_EQ(out, want) << "byte 0x" << std::hex << value << " at " << std::dec << at;
    }
  }
}

TEST(TextField, OuiAndDateCode) {
  std::string out;
  const std::uint8_t oui[] = {0x00, 0x1B, 0xAF};
  assignOui(out, oui);
  EXPECT_EQ(out, "00:1b:af");
  const std::uint8_t date[] = {'2', '1', '0', '6', '3', '0', ' ', ' '};
  assignDateCode(out, date);
  EXPECT_EQ(out, "2021-06-30");
  const std::uint8_t junk[] = {'2', '1', 0xFF, '6', '3', '0', ' ', ' '};
  assignDateCode(out, junk);
  EXPECT_EQ(out, "21\\xff630");
}

}  // namespace
}  // namespace opticsd::eeprom
