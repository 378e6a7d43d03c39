#include "drivers/eeprom/text_field.hpp"

namespace opticsd::eeprom {
namespace {

constexpr char kHex[] = "0123456789abcdef";

bool isPadding(std::uint8_t c) { return c == ' ' || c == 0; }

}  // namespace

void assignText(std::string& out, const std::uint8_t* bytes, std::size_t length) {
  out.clear();
  std::size_t begin = 0;
  std::size_t end = length;
  while (begin < end && isPadding(bytes[begin])) ++begin;
  while (end > begin && isPadding(bytes[end - 1])) --end;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint8_t c = bytes[i];
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('\\');
      out.push_back('x');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
}

void assignOui(std::string& out, const std::uint8_t* bytes) {
  out.clear();
  for (int i = 0; i < 3; ++i) {
    if (i > 0) out.push_back(':');
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 0xf]);
  }
}

void assignDateCode(std::string& out, const std::uint8_t* bytes) {
  bool digits = true;
  for (int i = 0; i < 6; ++i) digits = digits && bytes[i] >= '0' && bytes[i] <= '9';
  if (!digits) {
    assignText(out, bytes, 8);
    return;
  }
  out.assign("20");
  out.push_back(static_cast<char>(bytes[0]));
  out.push_back(static_cast<char>(bytes[1]));
  out.push_back('-');
  out.push_back(static_cast<char>(bytes[2]));
  out.push_back(static_cast<char>(bytes[3]));
  out.push_back('-');
  out.push_back(static_cast<char>(bytes[4]));
  out.push_back(static_cast<char>(bytes[5]));
}

}  // namespace opticsd::eeprom
