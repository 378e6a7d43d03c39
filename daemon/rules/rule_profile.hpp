#pragma once
// A rule set resolved for one kind of port: each rule's parameters with every
// matching override applied, its hysteresis slots and trend windows laid out.
// Ports whose overrides match alike share one profile. Built once per
// identity change, then read-only.

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rules/rule_config.hpp"

namespace opticsd {

struct ResolvedRule {
  const RuleSpec* spec = nullptr;
  RuleParams p;
  std::uint16_t slot = 0;       // first hysteresis slot; per-lane rules own kMaxLanes of them
  std::int8_t trend = -1;       // trend window index, for trend rules
  std::int8_t lane_trend = -1;  // block of per-lane windows, for rules judging each lane against its own past
  bool per_lane = false;
  const char* unit = "";  // of the rule's metric, for its findings' text
  // Values in [inside_lo, inside_hi] cross no level: the per-poll fast path.
  double inside_lo = 0;
  double inside_hi = 0;

  bool ownsSlot(std::uint16_t s) const;
  bool inside(double v) const { return v >= inside_lo && v <= inside_hi; }
  // p.level(v), without looking at the levels when `v` is inside them.
  Level level(double v) const { return inside(v) ? Level{} : p.level(v); }
};

struct RuleProfile {
  std::vector<ResolvedRule> rules;
  std::uint16_t slots = 0;
  std::uint8_t trends = 0;
  std::uint8_t lane_trends = 0;  // per-lane window blocks (one window per lane each)
  int ber_rule = -1;             // the pre-FEC BER threshold: exported levels and the FEC limit
  int ber_trend = -1, rx_trend = -1, temp_trend = -1;
  std::int64_t ber_window = 0, rx_window = 0, temp_window = 0;
  std::optional<double> rx_alarm, temp_alarm;
  double fec_limit = 2.4e-4;

  const ResolvedRule* find(std::string_view name) const;
  const ResolvedRule* ruleOfSlot(std::uint16_t slot) const;
};

// Which overrides of `rules` match at `facts`: ports with equal keys share a profile.
std::string profileKey(const RuleSet& rules, const PortFacts& facts);
std::unique_ptr<RuleProfile> buildProfile(const RuleSet& rules, const std::string& key);

}  // namespace opticsd
