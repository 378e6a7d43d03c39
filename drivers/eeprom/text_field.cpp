#include "drivers/eeprom/text_field.hpp"

#include <bit>
#include <cstring>

namespace opticsd::eeprom {
namespace {

constexpr char kHex[] = "0123456789abcdef";

bool isPadding(std::uint8_t c) { return c == ' ' || c == 0; }
// Printable ASCII that needs no escaping (the backslash is escaped so escapes stay unambiguous).
bool isPlain(std::uint8_t c) { return c >= 0x20 && c < 0x7f && c != '\\'; }

// True when none of 8 bytes needs escaping, tested a word at a time (SWAR): a
// byte below 0x20, at or above 0x7f, or equal to '\\'. The test may report a
// byte that is fine (borrows across bytes), never miss one.
bool wordPlain(const std::uint8_t* p) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  const std::uint64_t below_space = (x - 0x20 * kOnes) & ~x;
  const std::uint64_t del_or_high = (x + kOnes) | x;  // 0x7f + 1 and 0x80-0xff set bit 7
  const std::uint64_t y = x ^ ('\\' * kOnes);
  const std::uint64_t backslash = (y - kOnes) & ~y;
  return ((below_space | del_or_high | backslash) & kHigh) == 0;
}

bool allPlain(const std::uint8_t* p, std::size_t n) {
  if (n >= 8) {
    std::size_t i = 0;
    bool plain = true;
    for (; i + 8 <= n && plain; i += 8) plain = wordPlain(p + i);
    if (plain && (n % 8 == 0 || wordPlain(p + n - 8))) return true;  // the tail as an overlapping word
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!isPlain(p[i])) return false;
  }
  return true;
}

}  // namespace

void setText(std::string& out, std::string_view value) {
  // A reused Sample mostly holds the same identity poll after poll: comparing
  // is cheaper than std::string's general replace path.
  if (value.empty()) {  // also a default string_view, whose data() is null (no memcmp/memcpy on it)
    out.clear();
    return;
  }
  if (out.size() == value.size() && std::memcmp(out.data(), value.data(), value.size()) == 0) return;
  out.assign(value.data(), value.size());
}

void assignText(std::string& out, const std::uint8_t* bytes, std::size_t length) {
  std::size_t begin = 0;
  std::size_t end = length;
  while (begin < end && isPadding(bytes[begin])) ++begin;
  // Fields are mostly padding at the end: drop it eight bytes at a time (a byte
  // is padding when it is 0x00 or 0x20, i.e. has no bit outside 0x20).
  while (end - begin >= 8) {
    std::uint64_t x;
    std::memcpy(&x, bytes + end - 8, 8);
    const std::uint64_t not_padding = x & 0xdfdfdfdfdfdfdfdfull;
    if (not_padding != 0) {
      // Keep up to the last non-padding byte (the word's most significant on little-endian).
      const int last = std::endian::native == std::endian::little ? 7 - std::countl_zero(not_padding) / 8
                                                                  : 7 - std::countr_zero(not_padding) / 8;
      end = end - 8 + static_cast<std::size_t>(last) + 1;
      break;
    }
    end -= 8;
  }
  while (end > begin && isPadding(bytes[end - 1])) --end;
  if (allPlain(bytes + begin, end - begin)) {
    setText(out, std::string_view(reinterpret_cast<const char*>(bytes + begin), end - begin));
    return;
  }
  out.clear();
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint8_t c = bytes[i];
    if (isPlain(c)) {
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
  const char oui[8] = {kHex[bytes[0] >> 4], kHex[bytes[0] & 0xf], ':', kHex[bytes[1] >> 4], kHex[bytes[1] & 0xf], ':',
                       kHex[bytes[2] >> 4], kHex[bytes[2] & 0xf]};
  setText(out, std::string_view(oui, sizeof oui));
}

void assignDateCode(std::string& out, const std::uint8_t* bytes) {
  bool digits = true;
  for (int i = 0; i < 6; ++i) digits = digits && bytes[i] >= '0' && bytes[i] <= '9';
  if (!digits) {
    assignText(out, bytes, 8);
    return;
  }
  const char date[10] = {'2',
                         '0',
                         static_cast<char>(bytes[0]),
                         static_cast<char>(bytes[1]),
                         '-',
                         static_cast<char>(bytes[2]),
                         static_cast<char>(bytes[3]),
                         '-',
                         static_cast<char>(bytes[4]),
                         static_cast<char>(bytes[5])};
  setText(out, std::string_view(date, sizeof date));
}

}  // namespace opticsd::eeprom
