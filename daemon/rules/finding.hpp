#pragma once
// A Finding: one rule breached on one module (or one lane of it), from the
// poll that raised it to the poll that cleared it, with the values that
// triggered it. Plain value type.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

enum class Severity : std::uint8_t { kNone, kInfo, kWarning, kCritical };
std::string_view toString(Severity severity);
Result<Severity> parseSeverity(std::string_view text);

struct Finding {
  std::string target;
  std::string port;
  int lane = 0;  // 1-based; 0: the finding is about the module or port
  std::string rule;
  Severity severity = Severity::kWarning;
  std::int64_t start_ms = 0;
  std::optional<std::int64_t> end_ms;  // unset while active
  std::optional<double> value;         // the triggering value in the rule's unit
  std::string detail;                  // "rx_power_dbm=-10.4 below -10 (lane 3)"
  bool shadow = false;                 // raised by a rule in `mode: shadow` (rule_config.hpp)

  bool active() const { return !end_ms.has_value(); }
};

}  // namespace opticsd
