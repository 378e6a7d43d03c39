#include "drivers/snmp/netsnmp_log.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

// clang-format off
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
// clang-format on

namespace opticsd::snmp {
namespace {

std::mutex& secretMutex() {
  static std::mutex m;
  return m;
}
std::multiset<std::string>& liveSecrets() {
  static std::multiset<std::string> s;
  return s;
}

// net-snmp's errors are failures the driver also returns as the poll's
// per-target error (which the scheduler logs): a warning, not an error, and
// at most once a minute per distinct message. Its chatter is debug output.
spdlog::level::level_enum levelOf(int priority) {
  if (priority <= LOG_CRIT) return spdlog::level::err;
  if (priority <= LOG_WARNING) return spdlog::level::warn;
  if (priority <= LOG_INFO) return spdlog::level::debug;
  return spdlog::level::trace;
}

constexpr auto kRepeatWindow = std::chrono::minutes(1);

// nullopt: drop; else how many identical lines were dropped since the last one.
std::optional<std::uint64_t> allowLine(const std::string& line) {
  struct Seen {
    std::chrono::steady_clock::time_point last;
    std::uint64_t suppressed = 0;
  };
  static std::mutex m;
  static std::map<std::string, Seen> seen;
  std::lock_guard lock(m);
  const auto now = std::chrono::steady_clock::now();
  if (seen.size() > 1024) seen.clear();  // bounded: a flood of distinct lines only loses the rate limit
  auto [it, inserted] = seen.try_emplace(line, Seen{now, 0});
  if (inserted) return 0;
  if (now - it->second.last < kRepeatWindow) {
    ++it->second.suppressed;
    return std::nullopt;
  }
  const std::uint64_t suppressed = it->second.suppressed;
  it->second = Seen{now, 0};
  return suppressed;
}

// key="value" quoting for the daemon's logfmt lines.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
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

void emit(int priority, std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return;
  text = redactSecrets(std::move(text));
  if (text.size() > 1024) text = text.substr(0, 1024) + "...";
  const auto level = levelOf(priority);
  if (!spdlog::should_log(level)) return;
  auto suppressed = allowLine(text);
  if (!suppressed) return;
  if (*suppressed > 0) {
    spdlog::log(level, "driver=snmp source=net-snmp message={} repeated={}", quoted(text), *suppressed);
  } else {
    spdlog::log(level, "driver=snmp source=net-snmp message={}", quoted(text));
  }
}

// net-snmp may build one line from several snmp_log() calls: collect up to
// the newline (per thread, as net-snmp calls are).
int onNetSnmpLog(int, int, void* serverarg, void*) {
  const auto* message = static_cast<const snmp_log_message*>(serverarg);
  if (!message || !message->msg) return 0;
  thread_local std::string partial;
  partial += message->msg;
  if (partial.size() > 65536) partial.resize(65536);
  if (partial.empty() || partial.back() != '\n') return 0;
  emit(message->priority, std::move(partial));
  partial.clear();
  return 0;
}

}  // namespace

void routeNetSnmpLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    snmp_disable_log();  // any handler registered so far (stderr, syslog) stays off
    snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING, &onNetSnmpLog, nullptr);
    // With a handler registered net-snmp no longer falls back to stderr.
    netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK, LOG_DEBUG);
  });
}

SecretGuard::SecretGuard(std::vector<std::string> secrets) {
  std::lock_guard lock(secretMutex());
  for (auto& s : secrets) {
    if (s.empty()) continue;
    liveSecrets().insert(s);
    secrets_.push_back(std::move(s));
  }
}

SecretGuard::~SecretGuard() {
  std::lock_guard lock(secretMutex());
  for (const auto& s : secrets_) {
    if (auto it = liveSecrets().find(s); it != liveSecrets().end()) liveSecrets().erase(it);
  }
}

std::string redactSecrets(std::string text) {
  std::lock_guard lock(secretMutex());
  for (const auto& secret : liveSecrets()) {
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 10)) {
      text.replace(at, secret.size(), "<redacted>");
    }
  }
  return text;
}

}  // namespace opticsd::snmp
