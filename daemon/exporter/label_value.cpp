#include "daemon/exporter/label_value.hpp"

#include <algorithm>
#include <cstdint>

namespace opticsd {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when invalid.
std::size_t validSequenceLength(std::string_view s, std::size_t i) {
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

bool isControl(std::uint8_t b) { return b < 0x20 || b == 0x7F; }

}  // namespace

std::string sanitizeLabelValue(std::string_view raw) {
  bool clean = raw.size() <= kMaxLabelValueBytes;
  for (std::size_t i = 0; clean && i < raw.size(); ++i) {
    const auto b = static_cast<std::uint8_t>(raw[i]);
    clean = b >= 0x20 && b < 0x7F;
  }
  if (clean) return std::string(raw);

  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(std::min(raw.size(), kMaxLabelValueBytes));
  std::size_t i = 0;
  while (i < raw.size()) {
    const auto b = static_cast<std::uint8_t>(raw[i]);
    const std::size_t n = validSequenceLength(raw, i);
    if (n == 0 || (n == 1 && isControl(b))) {
      if (out.size() + 4 > kMaxLabelValueBytes) break;
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0x0F];
      i += 1;
    } else {
      if (out.size() + n > kMaxLabelValueBytes) break;
      out.append(raw.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace opticsd
