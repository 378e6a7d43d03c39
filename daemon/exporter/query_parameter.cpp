#include "daemon/exporter/query_parameter.hpp"

namespace opticsd {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<std::string> percentDecoded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] != '%') {
      out += text[i];
    } else {
      const int high = i + 2 < text.size() ? hexDigit(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
      if (high < 0 || low < 0) return fail("broken percent escape at offset " + std::to_string(i));
      out += static_cast<char>(high * 16 + low);
      i += 2;
    }
  }
  return out;
}

}  // namespace

Result<std::optional<std::string>> queryParameter(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const auto eq = pair.find('=');
    auto key = percentDecoded(pair.substr(0, eq));
    if (!key) return fail(key.error().message);
    if (*key != name) continue;
    auto value = percentDecoded(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!value) return fail(value.error().message);
    return std::optional<std::string>(std::move(*value));
  }
  return std::optional<std::string>();
}

}  // namespace opticsd
