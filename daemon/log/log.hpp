#pragma once
// Logging: key=value lines on stderr (journald adds the timestamp under
// systemd), plus a limiter so a target that fails every poll logs once per
// window with a count of what it suppressed, not one line per poll.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace opticsd {

// Sets the global logger's level ("trace" ... "off"); false for an unknown level.
bool configureLogging(std::string_view level);

// Quotes a value for key=value logs when it holds spaces, quotes or controls;
// invalid UTF-8 becomes \xhh and invisible or direction-changing characters
// (U+202E, U+200B, ...) become \uXXXX, so a device's string cannot disguise a line.
std::string logValue(std::string_view value);

// Decides whether a repeated event (keyed by e.g. target + error text) may be
// logged now. Thread-safe.
class LogLimiter {
 public:
  explicit LogLimiter(std::chrono::seconds window = std::chrono::seconds(300)) : window_(window) {}
  // nullopt: stay quiet. Otherwise log, mentioning the returned count of
  // occurrences suppressed since the last line for this key.
  std::optional<std::uint64_t> allow(const std::string& key,
                                     std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
  // The condition behind `key` cleared: the next occurrence logs at once.
  void reset(const std::string& key);

 private:
  struct Entry {
    std::chrono::steady_clock::time_point last;
    std::uint64_t suppressed = 0;
  };
  std::chrono::seconds window_;
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace opticsd
