#include "daemon/rules/rule_outcome.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace opticsd {
namespace {

std::string format(double v, int digits) {
  char buf[40];
  if (v != 0 && (std::fabs(v) < 1e-3 || std::fabs(v) >= 1e6)) {
    std::snprintf(buf, sizeof(buf), "%.*e", digits - 1, v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
  }
  return buf;
}

}  // namespace

std::string formatNumber(double v) { return format(v, 3); }

std::string formatNumber(double v, double other) {
  const std::string them = formatLimit(other);
  for (int digits = 3; digits < 10; ++digits) {
    std::string a = format(v, digits);
    if (v == other || a != them) return a;
  }
  return format(v, 10);
}

std::string formatLimit(double v) {
  // Limits come from the config or the module: print them as given (3.135, not 3.13).
  for (int digits = 3; digits < 7; ++digits) {
    std::string a = format(v, digits);
    if (std::strtod(a.c_str(), nullptr) == v) return a;
  }
  return format(v, 7);
}

const char* unitOf(std::string_view key) {
  if (key.ends_with("_dbm")) return " dBm";
  if (key.ends_with("_celsius")) return " C";
  if (key.ends_with("_volts")) return " V";
  if (key.ends_with("_milliamperes")) return " mA";
  if (key.ends_with("_decibels")) return " dB";
  return "";
}

std::string describe(const Outcome& o) {
  const char* unit = o.unit != nullptr ? o.unit : unitOf(o.what);
  std::string d = o.what;
  if (o.has_value) d += "=" + formatNumber(o.value, o.limit) + unit;
  if (o.bound != Bound::kNone) {
    // A module alarms at its limit, not only beyond it.
    d += o.value == o.limit ? " at " : (o.bound == Bound::kAbove ? " above " : " below ");
    if (*o.limit_name != '\0') d += std::string(o.limit_name) + " ";
    d += formatLimit(o.limit) + unit;
  }
  if (o.lane > 0) d += " (lane " + std::to_string(o.lane) + ")";
  if (*o.note != '\0') d += std::string(": ") + o.note;
  return d;
}

}  // namespace opticsd
