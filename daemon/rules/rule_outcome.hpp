#pragma once
// One rule's verdict on one module (or one lane of it) for one poll, kept as
// numbers and static strings: a healthy poll builds no text. The finding's
// detail is written from it only when a finding is raised or escalated.

#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/rules/finding.hpp"
#include "daemon/rules/link_analysis.hpp"
#include "daemon/rules/rule_config.hpp"

namespace opticsd {

struct ModuleRuleState;

struct Outcome {
  Severity severity = Severity::kNone;
  Bound bound = Bound::kNone;  // which side of `limit` the value is on; kNone: no limit to name
  bool has_value = true;       // false: a latched flag without a reading
  std::uint8_t lane = 0;       // 1-based; 0: the module
  LinkVerdict verdict = LinkVerdict::kHealthy;
  double value = 0;
  double limit = 0;
  const char* what = "";                  // the metric or signal behind the value
  const char* unit = nullptr;             // nullptr: from the metric key's suffix ("_dbm" -> " dBm")
  const char* limit_name = "";            // names a limit that is not the rule's own level: "the module's low alarm"
  const char* note = "";                  // appended after ": "
  const ModuleRuleState* peer = nullptr;  // link_loss: the far end (valid during the poll only)

  void setLevel(const Level& l) {
    severity = l.severity;
    bound = l.bound;
    limit = l.limit;
  }
};

// "rx_power_dbm=-11.2 dBm below -10 dBm (lane 3)", "temperature_celsius=72 C above 70 C".
std::string describe(const Outcome& o);

// A reading: 3 significant digits, more where it would print like `other`
// (the limit it is compared with) while being different.
std::string formatNumber(double v);
std::string formatNumber(double v, double other);
// A limit: as few digits as give its exact value back (3 to 7): 3.135, -10, 2.40e-04.
std::string formatLimit(double v);

// " dBm", " C", " V", " mA", " dB" or "" from a catalogue key's unit suffix.
const char* unitOf(std::string_view metric_key);

}  // namespace opticsd
