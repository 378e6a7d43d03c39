#include "daemon/web/html_escape.hpp"

#include <cstdint>

namespace opticsd::web {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

void appendHexByte(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

// Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs,
// no surrogates, at most U+10FFFF), or 0.
std::size_t utf8Length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  if (cp >= 0x80 && cp < 0xA0) return 0;  // C1 controls
  return n;
}

template <class OnAscii>
void walk(std::string& out, std::string_view text, OnAscii on_ascii) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) {
        appendHexByte(out, c);
      } else {
        on_ascii(out, static_cast<char>(c));
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8Length(text, i);
    if (n == 0) {
      appendHexByte(out, c);
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
}

}  // namespace

void appendEscaped(std::string& out, std::string_view text) {
  walk(out, text, [](std::string& o, char c) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&#39;";
        break;
      default:
        o += c;
    }
  });
}

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  appendEscaped(out, text);
  return out;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  walk(out, text, [](std::string& o, char c) { o += c; });
  return out;
}

std::string urlComponent(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

}  // namespace opticsd::web
