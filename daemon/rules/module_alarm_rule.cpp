#include "daemon/rules/module_alarm_rule.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

// One metric against the module's flags and limits; replaces `o` when worse.
// Locals first: on a healthy module nothing is written.
void check(const std::optional<AlarmFlags>& flags, const std::optional<Thresholds>& t, const std::optional<double>& v,
           const char* what, int lane, Outcome& o) {
  Severity sev = Severity::kNone;
  Bound bound = Bound::kNone;
  double level = 0;
  const char* name = "";
  const char* note = "";
  if (flags) {
    if (flags->high_alarm || flags->low_alarm) {
      sev = Severity::kCritical;
      note = flags->high_alarm ? "the module's high-alarm flag is set" : "the module's low-alarm flag is set";
    } else if (flags->high_warning || flags->low_warning) {
      sev = Severity::kWarning;
      note = flags->high_warning ? "the module's high-warning flag is set" : "the module's low-warning flag is set";
    }
  }
  // 0 for every limit is "no thresholds" on many devices, not a limit of 0.
  if (v && t && !(t->high_alarm.value_or(0) == 0 && t->low_alarm.value_or(0) == 0)) {
    const auto crossed = [&](Severity s, Bound b, double l, const char* n) {
      sev = s;
      bound = b;
      level = l;
      name = n;
      note = "";
    };
    if (t->high_alarm && *v >= *t->high_alarm) {
      crossed(Severity::kCritical, Bound::kAbove, *t->high_alarm, "the module's high alarm");
    } else if (t->low_alarm && *v <= *t->low_alarm) {
      crossed(Severity::kCritical, Bound::kBelow, *t->low_alarm, "the module's low alarm");
    } else if (sev < Severity::kWarning && t->high_warning && *v >= *t->high_warning) {
      crossed(Severity::kWarning, Bound::kAbove, *t->high_warning, "the module's high warning");
    } else if (sev < Severity::kWarning && t->low_warning && *v <= *t->low_warning) {
      crossed(Severity::kWarning, Bound::kBelow, *t->low_warning, "the module's low warning");
    }
  }
  if (sev <= o.severity) return;
  o.severity = sev;
  o.bound = bound;
  o.limit = level;
  o.limit_name = name;
  o.note = note;
  o.has_value = v.has_value();
  o.value = v.value_or(0);
  o.what = what;
  o.lane = static_cast<std::uint8_t>(lane);
}

}  // namespace

namespace {

// The band a value must leave before its limits matter; a value inside it
// with no flag raised needs no closer look (the common, healthy case).
struct Band {
  double lo = -HUGE_VAL;
  double hi = HUGE_VAL;
  bool any = false;  // the metric has limits at all
};

Band bandOf(const std::optional<Thresholds>& t) {
  Band b;
  if (!t || (t->high_alarm.value_or(0) == 0 && t->low_alarm.value_or(0) == 0)) return b;
  if (t->low_alarm) b.lo = *t->low_alarm;
  if (t->low_warning && *t->low_warning > b.lo) b.lo = *t->low_warning;
  if (t->high_alarm) b.hi = *t->high_alarm;
  if (t->high_warning && *t->high_warning < b.hi) b.hi = *t->high_warning;
  b.any = true;
  return b;
}

bool outside(const std::optional<double>& v, const Band& band) {
  return v && band.any && (*v <= band.lo || *v >= band.hi);
}

bool raised(const std::optional<AlarmFlags>& flags) { return flags && flags->any(); }

}  // namespace

Outcome evaluateModuleAlarm(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  const Sample& s = in.s;
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
    const auto& flags = s.module_flags[m];
    const auto& v = s.module[static_cast<ModuleMetric>(m)];
    if (!raised(flags) && !outside(v, bandOf(s.shared_thresholds->module[m]))) continue;
    check(flags, s.shared_thresholds->module[m], v, kModuleMetricInfo[m].key.data(), 0, o);
  }
  // Each lane metric's band once, rather than per lane; only metrics with
  // limits need their values looked at, every metric its flags.
  // One bit per lane metric: a 32-bit mask shifted past its width once the
  // catalogue outgrew 32 lane metrics.
  static_assert(kLaneMetricCount <= 64, "the lane metric masks below are 64 bits");
  // Bands only of the metrics some lane holds (a lane reports a few of the
  // catalogue's): a metric no lane holds has no value to be outside one.
  std::uint64_t held = 0;
  for (const Lane& lane : s.lanes) held |= lane.values.slottedMask();
  std::array<Band, kLaneMetricCount> bands;
  std::uint64_t limited = 0;
  for (std::uint64_t rest = held; rest != 0; rest &= rest - 1) {
    const auto m = static_cast<std::size_t>(std::countr_zero(rest));
    bands[m] = bandOf(s.shared_thresholds->lane[m]);
    if (bands[m].any) limited |= std::uint64_t{1} << m;
  }
  for (const Lane& lane : s.lanes) {
    if (!usable(lane) || laneIndex(lane) >= kMaxLanes) continue;
    std::uint64_t look = 0;
    // A lane with no flag written (history keeps none) has none raised: its 49 look-ups skipped.
    if (!lane.flags.empty()) {
      for (std::size_t m = 0; m < kLaneMetricCount; ++m) look |= raised(lane.flags[m]) ? std::uint64_t{1} << m : 0;
    }
    for (std::uint64_t rest = limited & ~look; rest != 0; rest &= rest - 1) {
      const auto m = static_cast<std::size_t>(std::countr_zero(rest));
      if (outside(lane.values[static_cast<LaneMetric>(m)], bands[m])) look |= std::uint64_t{1} << m;
    }
    for (; look != 0; look &= look - 1) {
      const auto m = static_cast<std::size_t>(std::countr_zero(look));
      check(lane.flags[m], s.shared_thresholds->lane[m], lane.values[static_cast<LaneMetric>(m)],
            kLaneMetricInfo[m].key.data(), lane.number, o);
    }
  }
  // The rule's severity is a ceiling, except the default (warning) which caps nothing.
  if (r.p.severity != Severity::kWarning && o.severity > r.p.severity) o.severity = r.p.severity;
  return o;
}

extern const RuleType kModuleAlarmRule{
    .name = "module_alarm",
    .needs_levels = false,
    .evaluate = evaluateModuleAlarm,
    // The module's own alarm limits, set by who calibrated it: above the shipped levels.
    .closeness = [](const ResolvedRule&, bool critical) { return critical ? 0.65 : 0.4; },
};

}  // namespace opticsd
