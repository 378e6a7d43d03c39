#include "daemon/log/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "drivers/untrusted_text.hpp"

namespace opticsd {

bool configureLogging(std::string_view level) {
  auto parsed = spdlog::level::from_str(std::string(level));
  if (parsed == spdlog::level::off && level != "off") return false;
  static bool installed = false;
  if (!installed) {
    auto logger = spdlog::stderr_color_mt("opticsd", spdlog::color_mode::never);
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e level=%l %v");
    spdlog::set_default_logger(logger);
    installed = true;
  }
  spdlog::set_level(parsed);
  return true;
}

std::string logValue(std::string_view value) {
  bool plain = !value.empty();
  for (unsigned char c : value) plain = plain && c > ' ' && c != '"' && c != '=' && c < 0x7f;
  if (plain) return std::string(value);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  std::size_t i = 0;
  while (i < value.size()) {
    const auto c = static_cast<unsigned char>(value[i]);
    const std::size_t n = utf8SequenceLength(value, i);
    const char32_t code = n == 0 ? 0 : utf8CodePoint(value, i, n);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      i += 1;
    } else if (n == 0 || (n == 1 && isHiddenOrControl(code))) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      i += 1;
    } else if (isHiddenOrControl(code)) {  // e.g. U+202E would reorder the rest of the journal line
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
      i += n;
    } else {
      out.append(value.substr(i, n));
      i += n;
    }
  }
  return out + "\"";
}

std::optional<std::uint64_t> LogLimiter::allow(const std::string& key, std::chrono::steady_clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = entries_.try_emplace(key, Entry{now, 0});
  if (inserted) return 0;
  if (now - it->second.last >= window_) {
    const std::uint64_t suppressed = it->second.suppressed;
    it->second = Entry{now, 0};
    return suppressed;
  }
  ++it->second.suppressed;
  return std::nullopt;
}

void LogLimiter::reset(const std::string& key) {
  std::lock_guard lock(mutex_);
  entries_.erase(key);
}

}  // namespace opticsd
