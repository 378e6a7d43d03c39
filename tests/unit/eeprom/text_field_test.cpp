#include "drivers/eeprom/text_field.hpp"

#include <gtest/gtest.h>

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
