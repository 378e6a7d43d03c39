#pragma once
// What the trend rule types share: their windows in the module's state, how
// much evidence a slope needs, and a slope leveled by a rule. ber_slope, drop
// and temperature_climb fill their windows; forecast reads them.

#include <cstdint>
#include <optional>

#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {

// A trend must explain a change over its window this many times the window's
// own scatter (robust sigma of the bucket means about the line), and the
// scatter is taken as at least the floor (read noise averaged into a bucket).
inline constexpr double kSignificance = 4.0;
inline constexpr double kBerScatterFloor = 0.05;  // decades
inline constexpr double kRxScatterFloor = 0.05;   // dB
inline constexpr double kTempScatterFloor = 0.2;  // degrees C

inline std::int64_t windowMs(const RuleParams& p) { return static_cast<std::int64_t>(p.window.count()); }

inline TrendWindow& trendOf(const RuleInput& in, int trend) { return in.st.trends[static_cast<std::size_t>(trend)]; }

// The lane's own window of a per-lane rule; null for lanes beyond the ones the
// module had when its profile was resolved.
inline TrendWindow* laneTrendOf(const RuleInput& in, const ResolvedRule& r, std::size_t idx) {
  if (r.lane_trend < 0) return nullptr;
  return in.st.lane_trends.window(static_cast<std::size_t>(r.lane_trend), idx);
}

// Levels a significant slope per hour (less the common mode of the module's neighbours).
inline Outcome slopeOutcome(const ResolvedRule& r, std::optional<double> slope, double common, const char* what,
                            const char* unit) {
  Outcome o;
  if (!slope) return o;
  o.value = *slope - common;
  o.setLevel(r.level(o.value));
  o.what = what;
  o.unit = unit;
  return o;
}

}  // namespace opticsd
