#include "drivers/untrusted_text.hpp"

#include <cstdint>

namespace opticsd {

std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const std::uint8_t b0 = byte(i);
  const std::size_t left = s.size() - i;
  const auto continuation = [&](std::size_t k) { return (byte(k) & 0xC0) == 0x80; };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return left >= 2 && continuation(i + 1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (left < 3 || !continuation(i + 1) || !continuation(i + 2)) return 0;
    const std::uint8_t b1 = byte(i + 1);
    if (b0 == 0xE0 && b1 < 0xA0) return 0;   // overlong
    if (b0 == 0xED && b1 >= 0xA0) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (left < 4 || !continuation(i + 1) || !continuation(i + 2) || !continuation(i + 3)) return 0;
    const std::uint8_t b1 = byte(i + 1);
    if (b0 == 0xF0 && b1 < 0x90) return 0;   // overlong
    if (b0 == 0xF4 && b1 >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;  // continuation byte without a lead, C0/C1 overlong lead, F5..FF
}

char32_t utf8CodePoint(std::string_view s, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) { return static_cast<char32_t>(static_cast<std::uint8_t>(s[i + k])); };
  switch (n) {
    case 1:
      return byte(0);
    case 2:
      return (byte(0) & 0x1F) << 6 | (byte(1) & 0x3F);
    case 3:
      return (byte(0) & 0x0F) << 12 | (byte(1) & 0x3F) << 6 | (byte(2) & 0x3F);
    default:
      return (byte(0) & 0x07) << 18 | (byte(1) & 0x3F) << 12 | (byte(2) & 0x3F) << 6 | (byte(3) & 0x3F);
  }
}

bool isHiddenOrControl(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F)  // C0, DEL, C1
         || c == 0x00AD                        // soft hyphen
         || c == 0x061C                        // Arabic letter mark
         || c == 0x180E                        // Mongolian vowel separator
         || (c >= 0x200B && c <= 0x200F)       // zero-width space/joiners, LRM, RLM
         || (c >= 0x2028 && c <= 0x202E)       // line/paragraph separators, LRE RLE PDF LRO RLO
         || (c >= 0x2060 && c <= 0x206F)       // word joiner, invisible operators, isolates LRI..PDI
         || c == 0xFEFF                        // byte-order mark, zero-width no-break space
         || (c >= 0xFFF9 && c <= 0xFFFB);      // interlinear annotation controls
}

}  // namespace opticsd
