#include "daemon/exporter/label_value.hpp"

#include <algorithm>
#include <cstdint>

#include "drivers/untrusted_text.hpp"

namespace opticsd {

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
    const std::size_t n = utf8SequenceLength(raw, i);
    if (n == 0 || (n == 1 && isHiddenOrControl(b))) {
      if (out.size() + 4 > kMaxLabelValueBytes) break;
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0x0F];
      i += 1;
    } else if (const char32_t c = utf8CodePoint(raw, i, n); isHiddenOrControl(c)) {
      // Valid but invisible or direction-changing: shown as \uXXXX (all are in the BMP).
      if (out.size() + 6 > kMaxLabelValueBytes) break;
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0x0F];
      i += n;
    } else {
      if (out.size() + n > kMaxLabelValueBytes) break;
      out.append(raw.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace opticsd
