#include "daemon/exporter/accept_encoding.hpp"

#include <cstdlib>
#include <string>

namespace opticsd {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// "q=0", "q=0.0", "q=0.000": refused. Anything else (or no q) is accepted.
bool qualityIsZero(std::string_view params) {
  while (!params.empty()) {
    const auto semi = params.find(';');
    const std::string_view param = trimmed(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
    const std::string value(trimmed(param.substr(2)));
    return value.empty() || std::strtod(value.c_str(), nullptr) <= 0.0;
  }
  return false;
}

}  // namespace

bool acceptsGzip(std::string_view header) {
  bool wildcard = false;
  while (!header.empty()) {
    const auto comma = header.find(',');
    const std::string_view item = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    const auto semi = item.find(';');
    const std::string_view coding = trimmed(item.substr(0, semi));
    const bool zero = semi != std::string_view::npos && qualityIsZero(item.substr(semi + 1));
    if (equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip")) return !zero;
    if (coding == "*") wildcard = !zero;
  }
  return wildcard;
}

}  // namespace opticsd
