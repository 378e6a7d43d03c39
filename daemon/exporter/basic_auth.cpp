#include "daemon/exporter/basic_auth.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace opticsd {
namespace {

std::optional<std::string> decodeBase64(std::string_view in) {
  const auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (const char c : in) {
    const int v = value(c);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  return out;
}

bool sameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(i < a.size() ? a[i] : 0);
    const auto y = static_cast<unsigned char>(i < b.size() ? b[i] : 0);
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

}  // namespace

bool basicAuthMatches(std::string_view header, const std::string& user, const std::string& password) {
  constexpr std::string_view kScheme = "Basic ";
  if (header.size() <= kScheme.size() || header.substr(0, kScheme.size()) != kScheme) return false;
  const auto decoded = decodeBase64(header.substr(kScheme.size()));
  if (!decoded) return false;
  const auto colon = decoded->find(':');
  if (colon == std::string::npos) return false;
  // Evaluate both, so a wrong user name takes as long as a wrong password.
  const bool user_ok = sameSecret(std::string_view(*decoded).substr(0, colon), user);
  const bool password_ok = sameSecret(std::string_view(*decoded).substr(colon + 1), password);
  return user_ok && password_ok;
}

std::string basicAuthorization(const std::string& user, const std::string& password) {
  const std::string pair = user + ":" + password;
  std::string out(4 * ((pair.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(pair.data()), static_cast<int>(pair.size()));
  out.resize(static_cast<std::size_t>(n));
  return "Basic " + out;
}

}  // namespace opticsd
