#include "daemon/log/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

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
  std::string out = "\"";
  for (unsigned char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < ' ' || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
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
