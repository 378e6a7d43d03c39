#include "daemon/rules/rules_engine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

#include <spdlog/spdlog.h>

#include "daemon/log/log.hpp"
#include "daemon/rules/link_analysis.hpp"
#include "daemon/rules/trend_window.hpp"

namespace opticsd {
namespace {

constexpr int kMaxLanes = 16;
constexpr int kBaselineSamples = 5;  // polls averaged into a module's own bias baseline
constexpr double kBerHorizonDecades = 3.0;  // BER this far below the FEC limit scores 0
// Slopes smaller than these are noise, not a trend worth forecasting (the
// sim's and real modules' read noise gives up to ~0.4 decade/h on a half-full
// window of a healthy PAM4 link).
constexpr double kMinBerSlope = 1.0;    // decades per hour
constexpr double kMinRxSlope = 0.5;     // dB per hour
constexpr double kMinTempSlope = 2.0;   // degrees C per hour

struct Hysteresis {
  std::uint8_t breach = 0;
  std::uint8_t clean = 0;
  Severity active = Severity::kNone;
};

// One rule's verdict on one poll, without strings (formatted only on raise).
struct Outcome {
  Severity severity = Severity::kNone;
  double value = 0;
  double limit = 0;
  int lane = 0;
  const char* what = "";  // the metric or signal behind the value
  const char* unit = "";
  LinkVerdict verdict = LinkVerdict::kHealthy;
};

struct ResolvedRule {
  const RuleSpec* spec = nullptr;
  RuleParams p;
  std::uint16_t slot = 0;
  std::int8_t trend = -1;
  bool per_lane = false;
};

bool usable(const Lane& lane) { return !lane.status.data_path_state || *lane.status.data_path_state == 4; }

bool dark(const Lane& lane) {
  return lane.status.rx_los.value_or(false) || lane.status.rx_no_light.value_or(false) ||
         lane.status.tx_no_light.value_or(false);
}

bool lit(const Lane& lane) {
  return !lane.status.rx_los.value_or(false) && !lane.status.rx_no_light.value_or(false) &&
         lane.values[LaneMetric::kRxPowerDbm].has_value();
}

std::string formatNumber(double v) {
  char buf[32];
  if (v != 0 && (std::fabs(v) < 1e-3 || std::fabs(v) >= 1e6)) {
    std::snprintf(buf, sizeof(buf), "%.2e", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.3g", v);
  }
  return buf;
}

double severityLimit(const RuleParams& p, Severity s, bool above) {
  if (above) return (s == Severity::kCritical ? p.crit_above : p.warn_above).value_or(p.crit_above.value_or(0));
  return (s == Severity::kCritical ? p.crit_below : p.warn_below).value_or(p.crit_below.value_or(0));
}

}  // namespace

struct RulesEngine::RuleProfile {
  std::vector<ResolvedRule> rules;
  std::uint16_t slots = 0;
  std::uint8_t trends = 0;
  int ber_rule = -1;  // the pre-FEC BER threshold: exported levels and the FEC limit
  int ber_trend = -1, rx_trend = -1, temp_trend = -1;
  std::int64_t ber_window = 0, rx_window = 0, temp_window = 0;
  std::optional<double> rx_alarm, temp_alarm;
  double fec_limit = 2.4e-4;
};

namespace {
struct ActiveFinding {
  std::uint16_t slot = 0;
  std::uint32_t polls = 0;
  Finding finding;
};

// Per-poll aggregates every rule shares, computed once per module.
struct Aggregates {
  std::optional<double> worst_ber;
  std::optional<double> min_rx;
  int min_rx_lane = 0;
  std::optional<double> temperature;
};
}  // namespace

struct RulesEngine::ModuleState {
  std::string target;
  std::string port;
  std::string serial;
  std::string media;
  Modulation modulation = Modulation::kUnknown;
  bool fec = false;
  std::optional<double> speed;
  int profile = -1;
  std::int64_t last_ms = 0;
  std::optional<std::uint64_t> last_uncorrectable;
  std::optional<std::uint64_t> last_down_events;
  std::optional<bool> last_up;
  std::uint16_t last_los_mask = 0;
  std::uint8_t lanes = 0;
  std::uint8_t baseline_n = 0;
  std::array<float, kMaxLanes> baseline{};
  std::array<float, kMaxLanes> last_tx{};  // NaN: unknown or dark
  std::optional<double> tx_low_warning;    // the module's own, for the far end's link analysis
  std::vector<TrendWindow> trends;
  std::vector<Hysteresis> slots;
  std::vector<ActiveFinding> active;
  std::vector<Finding> pending;  // restored or carried over a reload, adopted at the next poll
  double score = 0;
  std::string reason;
};

struct RulesEngine::TargetState {
  std::unordered_map<std::string, std::uint32_t> index;
  std::vector<std::unique_ptr<ModuleState>> modules;
  bool dirty = true;
};

struct RulesEngine::Impl {
  RuleSet rules;
  FindingSink* sink = nullptr;
  const Topology* topology = nullptr;
  std::vector<std::unique_ptr<RuleProfile>> profiles;
  std::map<std::string, int, std::less<>> profile_by_key;
  std::unordered_map<std::string, TargetState> targets;
  std::map<std::pair<std::string, std::string>, std::vector<Finding>> restored;

  void clearProfiles() {
    profiles.clear();
    profile_by_key.clear();
  }
  int resolve(const ModuleState& st, const Sample& s);
  void adopt(ModuleState& st);
  void evaluateModule(ModuleState& st, const Sample& s, bool& dirty);
  Outcome evaluateRule(ModuleState& st, const RuleProfile& prof, const ResolvedRule& r, const Sample& s,
                       const Aggregates& agg, std::int64_t now, int lane_index);
  void update(ModuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o, std::int64_t now,
              bool& dirty);
  void raise(ModuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o, std::int64_t now);
  void clear(ModuleState& st, std::size_t active_index, std::int64_t now, const char* why);
  void score(ModuleState& st, const RuleProfile& prof, const Aggregates& agg);
  ModuleState* findState(std::string_view target, std::string_view port);
  void publish(const std::string& target, TargetState& ts, RulesView& view);
};

namespace {

std::string detailOf(const ResolvedRule& r, const Outcome& o) {
  std::string d = std::string(o.what) + "=" + formatNumber(o.value) + o.unit;
  if (o.limit != 0 || r.spec->kind == RuleKind::kFecUncorrectable) {
    d += (r.spec->kind == RuleKind::kForecast || (o.value < o.limit && r.spec->kind == RuleKind::kThreshold))
             ? " below "
             : " above ";
    d += formatNumber(o.limit) + o.unit;
  }
  if (o.lane > 0) d += " (lane " + std::to_string(o.lane) + ")";
  if (r.spec->kind == RuleKind::kLinkLoss || o.verdict != LinkVerdict::kHealthy) {
    d += ": " + std::string(toString(o.verdict));
  }
  return d;
}

}  // namespace

int RulesEngine::Impl::resolve(const ModuleState& st, const Sample& s) {
  PortFacts facts{st.target, st.port, s.identity.media, s.identity.form_factor, s.identity.modulation, st.fec, st.speed};
  // The key is which overrides match: ports that agree share one profile.
  std::string key;
  for (const auto& spec : rules.rules) {
    for (const auto& ov : spec.overrides) key.push_back(matches(ov.match, facts, rules.port_groups) ? '1' : '0');
    key.push_back('|');
  }
  if (auto it = profile_by_key.find(key); it != profile_by_key.end()) return it->second;

  auto prof = std::make_unique<RuleProfile>();
  std::size_t o = 0;
  for (const auto& spec : rules.rules) {
    ResolvedRule r;
    r.spec = &spec;
    r.p.apply(spec.base);
    for (const auto& ov : spec.overrides) {
      if (key[o++] == '1') r.p.apply(ov.patch);
    }
    ++o;  // the separator
    if (!r.p.enabled) continue;
    r.per_lane = spec.kind == RuleKind::kLaneImbalance || spec.kind == RuleKind::kLaneDark;
    r.slot = prof->slots;
    prof->slots = static_cast<std::uint16_t>(prof->slots + (r.per_lane ? kMaxLanes : 1));
    const auto window = static_cast<std::int64_t>(r.p.window.count());
    switch (spec.kind) {
      case RuleKind::kBerSlope:
        r.trend = static_cast<std::int8_t>(prof->trends++);
        if (prof->ber_trend < 0) prof->ber_trend = r.trend, prof->ber_window = window;
        break;
      case RuleKind::kDrop:
        r.trend = static_cast<std::int8_t>(prof->trends++);
        if (spec.lane_metric == LaneMetric::kRxPowerDbm && prof->rx_trend < 0) prof->rx_trend = r.trend, prof->rx_window = window;
        break;
      case RuleKind::kTemperatureClimb:
        r.trend = static_cast<std::int8_t>(prof->trends++);
        if (prof->temp_trend < 0) prof->temp_trend = r.trend, prof->temp_window = window;
        break;
      case RuleKind::kFlapping: r.trend = static_cast<std::int8_t>(prof->trends++); break;
      case RuleKind::kThreshold:
        if (spec.metric == "pre_fec_ber_ratio" && prof->ber_rule < 0) {
          prof->ber_rule = static_cast<int>(prof->rules.size());
          if (r.p.limit) prof->fec_limit = *r.p.limit;
        }
        if (spec.lane_metric == LaneMetric::kRxPowerDbm && !prof->rx_alarm) prof->rx_alarm = r.p.crit_below;
        if (spec.module_metric == ModuleMetric::kTemperatureCelsius && !prof->temp_alarm) prof->temp_alarm = r.p.crit_above;
        break;
      default: break;
    }
    prof->rules.push_back(r);
  }
  profiles.push_back(std::move(prof));
  const int index = static_cast<int>(profiles.size() - 1);
  profile_by_key.emplace(std::move(key), index);
  return index;
}

// Takes over findings that were active before (a restart or a reload): the
// module's slot starts active, so a still-breaching module raises nothing
// new and a healed one clears after the usual clean polls.
void RulesEngine::Impl::adopt(ModuleState& st) {
  if (st.pending.empty()) return;
  const RuleProfile& prof = *profiles[static_cast<std::size_t>(st.profile)];
  for (auto& f : st.pending) {
    const ResolvedRule* rule = nullptr;
    for (const auto& r : prof.rules) {
      if (r.spec->name == f.rule) rule = &r;
    }
    if (rule == nullptr || (rule->per_lane && (f.lane < 1 || f.lane > kMaxLanes)) || (!rule->per_lane && f.lane != 0)) {
      // The rule is gone (or off) for this module: close the finding.
      f.end_ms = st.last_ms;
      if (sink) sink->record(f);
      spdlog::info("finding cleared target={} port={} rule={} reason=rule_removed", logValue(f.target),
                   logValue(f.port), logValue(f.rule));
      continue;
    }
    const auto slot = static_cast<std::uint16_t>(rule->slot + (rule->per_lane ? f.lane - 1 : 0));
    bool duplicate = false;
    for (const auto& a : st.active) duplicate = duplicate || a.slot == slot;
    if (duplicate) continue;
    st.slots[slot].active = f.severity;
    st.slots[slot].breach = static_cast<std::uint8_t>(rule->p.raise_after);
    st.active.push_back(ActiveFinding{slot, 0, std::move(f)});
  }
  st.pending.clear();
}

RulesEngine::ModuleState* RulesEngine::Impl::findState(std::string_view target, std::string_view port) {
  auto t = targets.find(std::string(target));
  if (t == targets.end()) return nullptr;
  auto p = t->second.index.find(std::string(port));
  if (p == t->second.index.end()) return nullptr;
  return t->second.modules[p->second].get();
}

Outcome RulesEngine::Impl::evaluateRule(ModuleState& st, const RuleProfile& prof, const ResolvedRule& r,
                                        const Sample& s, const Aggregates& agg, std::int64_t now, int li) {
  Outcome o;
  const RuleParams& p = r.p;
  const auto window = static_cast<std::int64_t>(p.window.count());
  switch (r.spec->kind) {
    case RuleKind::kThreshold: {
      o.what = r.spec->metric.c_str();
      const auto consider = [&](double v, int lane) {
        const Severity sev = p.classify(v);
        if (sev > o.severity || (o.severity == Severity::kNone && lane == 0 && o.lane == 0 && o.value == 0)) {
          o.severity = sev;
          o.value = v;
          o.lane = lane;
          o.limit = severityLimit(p, sev, p.classify(v) != Severity::kNone && ((p.warn_above && v > *p.warn_above) ||
                                                                                (p.crit_above && v > *p.crit_above)));
        }
      };
      if (r.spec->module_metric) {
        if (const auto& v = s.module[*r.spec->module_metric]) consider(*v, 0);
      }
      if (r.spec->lane_metric) {
        for (const Lane& lane : s.lanes) {
          if (!usable(lane)) continue;
          if (const auto& v = lane.values[*r.spec->lane_metric]) consider(*v, lane.number);
        }
      }
      break;
    }
    case RuleKind::kFecUncorrectable: {
      const auto& cur = s.fec.uncorrectable_blocks_total;
      if (cur && st.last_uncorrectable && *cur >= *st.last_uncorrectable) {
        o.value = static_cast<double>(*cur - *st.last_uncorrectable);
        o.severity = p.classify(o.value);
        o.limit = p.crit_above.value_or(p.warn_above.value_or(0));
        o.what = "uncorrectable_codewords";
      }
      break;
    }
    case RuleKind::kModuleAlarm: {
      const auto check = [&](const std::optional<AlarmFlags>& flags, const std::optional<Thresholds>& t,
                             const std::optional<double>& v, const char* what, int lane) {
        Severity sev = Severity::kNone;
        double limit = 0;
        if (flags) {
          if (flags->high_alarm || flags->low_alarm) {
            sev = Severity::kCritical;
          } else if (flags->high_warning || flags->low_warning) {
            sev = Severity::kWarning;
          }
        }
        // 0 for every limit is "no thresholds" on many devices, not a limit of 0.
        if (v && t && !(t->high_alarm.value_or(0) == 0 && t->low_alarm.value_or(0) == 0)) {
          if ((t->high_alarm && *v >= *t->high_alarm) || (t->low_alarm && *v <= *t->low_alarm)) {
            sev = Severity::kCritical;
            limit = t->high_alarm && *v >= *t->high_alarm ? *t->high_alarm : t->low_alarm.value_or(0);
          } else if (sev < Severity::kWarning &&
                     ((t->high_warning && *v >= *t->high_warning) || (t->low_warning && *v <= *t->low_warning))) {
            sev = Severity::kWarning;
            limit = t->high_warning && *v >= *t->high_warning ? *t->high_warning : t->low_warning.value_or(0);
          }
        }
        if (sev > o.severity) {
          o.severity = std::min(sev, p.severity == Severity::kWarning ? Severity::kCritical : p.severity);
          o.value = v.value_or(0);
          o.limit = limit;
          o.what = what;
          o.lane = lane;
        }
      };
      for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
        const auto metric = static_cast<ModuleMetric>(m);
        check(s.module_flags[m], s.module_thresholds[m], s.module[metric], kModuleMetricInfo[m].key.data(), 0);
      }
      for (const Lane& lane : s.lanes) {
        if (!usable(lane)) continue;
        for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
          const auto metric = static_cast<LaneMetric>(m);
          if (!lane.flags[m] && !s.lane_thresholds[m]) continue;
          check(lane.flags[m], s.lane_thresholds[m], lane.values[metric], kLaneMetricInfo[m].key.data(), lane.number);
        }
      }
      break;
    }
    case RuleKind::kBerSlope: {
      if (!agg.worst_ber || *agg.worst_ber <= 0 || *agg.worst_ber < p.min_value.value_or(0)) break;
      TrendWindow& w = st.trends[static_cast<std::size_t>(r.trend)];
      w.add(now, std::log10(*agg.worst_ber), window);
      if (auto slope = w.slopePerHour(window)) {
        o.severity = p.classify(*slope);
        o.value = *slope;
        o.limit = severityLimit(p, o.severity, true);
        o.what = "pre_fec_ber_log10_slope";
        o.unit = "/h";
      }
      break;
    }
    case RuleKind::kBiasDrift: {
      if (st.baseline_n < kBaselineSamples) break;
      for (const Lane& lane : s.lanes) {
        const auto idx = static_cast<std::size_t>(lane.number - 1);
        const auto& v = lane.values[LaneMetric::kTxBiasMilliamperes];
        if (!usable(lane) || !v || idx >= kMaxLanes || st.baseline[idx] <= 0) continue;
        const double drift = (*v / st.baseline[idx] - 1.0) * 100.0;
        const Severity sev = p.classify(drift);
        if (sev > o.severity || (sev == o.severity && drift > o.value)) {
          o.severity = sev;
          o.value = drift;
          o.lane = lane.number;
        }
      }
      o.limit = severityLimit(p, o.severity, true);
      o.what = "tx_bias_drift";
      o.unit = "%";
      break;
    }
    case RuleKind::kDrop: {
      std::optional<double> low;
      int low_lane = 0;
      for (const Lane& lane : s.lanes) {
        const auto& v = lane.values[*r.spec->lane_metric];
        if (usable(lane) && v && (!low || *v < *low)) low = *v, low_lane = lane.number;
      }
      if (!low) break;
      TrendWindow& w = st.trends[static_cast<std::size_t>(r.trend)];
      w.add(now, *low, window);
      const double drop = w.maxMean().value_or(*low) - *low;
      o.severity = p.classify(drop);
      o.value = drop;
      o.lane = low_lane;
      o.limit = severityLimit(p, o.severity, true);
      o.what = r.spec->lane_metric == LaneMetric::kRxPowerDbm ? "rx_power_drop" : "tx_power_drop";
      o.unit = " dB";
      break;
    }
    case RuleKind::kTemperatureClimb: {
      if (!agg.temperature) break;
      TrendWindow& w = st.trends[static_cast<std::size_t>(r.trend)];
      w.add(now, *agg.temperature, window);
      if (auto slope = w.slopePerHour(window)) {
        o.severity = p.classify(*slope);
        o.value = *slope;
        o.limit = severityLimit(p, o.severity, true);
        o.what = "temperature_slope";
        o.unit = " C/h";
      }
      break;
    }
    case RuleKind::kForecast: {
      // Hours until each trending value reaches its alarm limit; the soonest wins.
      std::optional<double> best;
      const char* what = "";
      // A forecast needs the whole window: a half-full one extrapolates noise.
      const auto full = [&](int trend) {
        return trend >= 0 && st.trends[static_cast<std::size_t>(trend)].filledBuckets() == TrendWindow::kBuckets;
      };
      const auto consider = [&](double hours, const char* name) {
        if (hours > 0 && (!best || hours < *best)) best = hours, what = name;
      };
      if (full(prof.ber_trend) && agg.worst_ber && *agg.worst_ber > 0 && *agg.worst_ber < prof.fec_limit) {
        if (auto slope = st.trends[static_cast<std::size_t>(prof.ber_trend)].slopePerHour(prof.ber_window);
            slope && *slope >= kMinBerSlope) {
          consider((std::log10(prof.fec_limit) - std::log10(*agg.worst_ber)) / *slope, "pre_fec_ber_hours_to_fec_limit");
        }
      }
      if (full(prof.rx_trend) && agg.min_rx) {
        std::optional<double> limit = prof.rx_alarm;
        if (const auto& t = s.lane_thresholds[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)];
            t && t->low_alarm && *t->low_alarm != 0) {
          limit = t->low_alarm;
        }
        auto slope = st.trends[static_cast<std::size_t>(prof.rx_trend)].slopePerHour(prof.rx_window);
        if (limit && slope && *slope <= -kMinRxSlope && *agg.min_rx > *limit) {
          consider((*agg.min_rx - *limit) / -*slope, "rx_power_hours_to_alarm");
        }
      }
      if (full(prof.temp_trend) && agg.temperature) {
        std::optional<double> limit = prof.temp_alarm;
        if (const auto& t = s.module_thresholds[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)];
            t && t->high_alarm && *t->high_alarm != 0) {
          limit = t->high_alarm;
        }
        auto slope = st.trends[static_cast<std::size_t>(prof.temp_trend)].slopePerHour(prof.temp_window);
        if (limit && slope && *slope >= kMinTempSlope && *agg.temperature < *limit) {
          consider((*limit - *agg.temperature) / *slope, "temperature_hours_to_alarm");
        }
      }
      if (best) {
        o.severity = p.classify(*best);
        o.value = *best;
        o.limit = severityLimit(p, o.severity, false);
        o.what = what;
        o.unit = " h";
      }
      break;
    }
    case RuleKind::kLaneImbalance: {
      std::array<double, kMaxLanes> values{};
      std::size_t n = 0;
      double own = 0;
      bool have_own = false;
      for (const Lane& lane : s.lanes) {
        const auto& v = lane.values[*r.spec->lane_metric];
        if (!usable(lane) || !v || n >= kMaxLanes) continue;
        values[n++] = *v;
        if (lane.number == li + 1) own = *v, have_own = true;
      }
      if (n < 2 || !have_own) break;
      std::sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
      const double median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
      o.value = median - own;
      o.severity = p.classify(o.value);
      o.limit = severityLimit(p, o.severity, true);
      o.lane = li + 1;
      o.what = r.spec->lane_metric == LaneMetric::kRxPowerDbm ? "rx_db_below_median" : "tx_db_below_median";
      o.unit = " dB";
      break;
    }
    case RuleKind::kLaneDark: {
      const Lane* own = nullptr;
      int others_lit = 0;
      for (const Lane& lane : s.lanes) {
        if (lane.number == li + 1) {
          own = &lane;
        } else if (lit(lane)) {
          ++others_lit;
        }
      }
      if (own == nullptr || !usable(*own) || others_lit == 0 || !dark(*own)) break;
      o.severity = p.severity;
      o.value = own->values[LaneMetric::kRxPowerDbm].value_or(kNoLightFloorDbm);
      o.lane = li + 1;
      o.what = own->status.rx_los.value_or(false) ? "rx_los_rx_power_dbm" : "no_light_rx_power_dbm";
      o.unit = " dBm";
      break;
    }
    case RuleKind::kFlapping: {
      double events = 0;
      if (s.link.down_events_total && st.last_down_events && *s.link.down_events_total >= *st.last_down_events) {
        events = static_cast<double>(*s.link.down_events_total - *st.last_down_events);
      } else if (!s.link.down_events_total && s.link.up && st.last_up && *st.last_up && !*s.link.up) {
        events = 1;  // no counter: count up->down transitions we saw
      }
      std::uint16_t los = 0;
      for (const Lane& lane : s.lanes) {
        if (lane.number <= 16 && (lane.status.rx_los.value_or(false) || lane.status.rx_lol.value_or(false))) {
          los = static_cast<std::uint16_t>(los | (1u << (lane.number - 1)));
        }
      }
      const double los_rises = std::popcount(static_cast<unsigned>(los & ~st.last_los_mask));
      events = std::max(events, los_rises);
      TrendWindow& w = st.trends[static_cast<std::size_t>(r.trend)];
      w.add(now, events, window);
      o.value = w.sum() * 3'600'000.0 / static_cast<double>(window);
      o.severity = p.classify(o.value);
      o.limit = severityLimit(p, o.severity, true);
      o.what = "link_down_events_per_hour";
      break;
    }
    case RuleKind::kLinkLoss: {
      if (topology == nullptr || !topology->hasPeers()) break;
      const auto ep = topology->find(st.target, st.port);
      if (!ep || ep->peer_target.empty()) break;
      ModuleState* peer = findState(ep->peer_target, ep->peer_port);
      if (peer == nullptr) break;
      std::optional<double> worst;
      LinkEnds worst_ends;
      for (const Lane& lane : s.lanes) {
        const auto idx = static_cast<std::size_t>(lane.number - 1);
        const auto& rx = lane.values[LaneMetric::kRxPowerDbm];
        if (idx >= kMaxLanes || !rx || std::isnan(peer->last_tx[idx]) || !lit(lane)) continue;
        const double loss = peer->last_tx[idx] - *rx;
        if (!worst || loss > *worst) {
          worst = loss;
          worst_ends = LinkEnds{peer->last_tx[idx], *rx, peer->tx_low_warning};
          o.lane = lane.number;
        }
      }
      if (!worst) break;
      o.value = *worst;
      o.severity = p.classify(*worst);
      o.limit = severityLimit(p, o.severity, true);
      o.verdict = classifyLink(worst_ends, p.warn_above.value_or(p.crit_above.value_or(6.0)));
      o.what = "path_loss";
      o.unit = " dB";
      if (o.verdict == LinkVerdict::kFarEndTxLow) o.severity = std::max(o.severity, Severity::kWarning);
      break;
    }
  }
  return o;
}

void RulesEngine::Impl::raise(ModuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o,
                              std::int64_t now) {
  Finding f;
  f.target = st.target;
  f.port = st.port;
  f.lane = r.per_lane ? o.lane : 0;
  f.rule = r.spec->name;
  f.severity = o.severity;
  f.start_ms = now;
  f.value = o.value;
  f.detail = detailOf(r, o);
  spdlog::warn("finding raised target={} port={} lane={} rule={} severity={} detail={}", logValue(f.target),
               logValue(f.port), f.lane, logValue(f.rule), toString(f.severity), logValue(f.detail));
  if (sink) sink->record(f);
  st.active.push_back(ActiveFinding{slot, 0, std::move(f)});
}

void RulesEngine::Impl::clear(ModuleState& st, std::size_t i, std::int64_t now, const char* why) {
  Finding& f = st.active[i].finding;
  f.end_ms = now;
  spdlog::info("finding cleared target={} port={} lane={} rule={} severity={} duration_s={} reason={}",
               logValue(f.target), logValue(f.port), f.lane, logValue(f.rule), toString(f.severity),
               (now - f.start_ms) / 1000, why);
  if (sink) sink->record(f);
  st.active.erase(st.active.begin() + static_cast<std::ptrdiff_t>(i));
}

void RulesEngine::Impl::update(ModuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o,
                               std::int64_t now, bool& dirty) {
  Hysteresis& h = st.slots[slot];
  if (o.severity != Severity::kNone) {
    h.clean = 0;
    if (h.breach < 255) ++h.breach;
    if (h.breach < r.p.raise_after) return;
    if (h.active == Severity::kNone) {
      h.active = o.severity;
      raise(st, r, slot, o, now);
      dirty = true;
    } else if (o.severity > h.active) {
      h.active = o.severity;
      for (auto& a : st.active) {
        if (a.slot != slot) continue;
        a.finding.severity = o.severity;
        a.finding.value = o.value;
        a.finding.detail = detailOf(r, o);
        spdlog::warn("finding escalated target={} port={} lane={} rule={} severity={} detail={}",
                     logValue(st.target), logValue(st.port), a.finding.lane, logValue(r.spec->name),
                     toString(o.severity), logValue(a.finding.detail));
        if (sink) sink->record(a.finding);
      }
      dirty = true;
    }
    return;
  }
  h.breach = 0;
  if (h.active == Severity::kNone) return;
  if (h.clean < 255) ++h.clean;
  if (h.clean < r.p.clear_after) return;
  h.active = Severity::kNone;
  h.clean = 0;
  for (std::size_t i = 0; i < st.active.size(); ++i) {
    if (st.active[i].slot == slot) {
      clear(st, i, now, "clean");
      break;
    }
  }
  dirty = true;
}

void RulesEngine::Impl::score(ModuleState& st, const RuleProfile& prof, const Aggregates& agg) {
  // Closeness to costing packets, times how sure we are, per piece of evidence.
  double best = 0;
  double others = 0;
  std::string reason;
  const auto offer = [&](double closeness, double certainty, const std::string& why) {
    const double s = std::clamp(closeness * certainty, 0.0, 1.0);
    if (s > best) {
      others += best;
      best = s;
      reason = why;
    } else {
      others += s;
    }
  };
  if (agg.worst_ber && *agg.worst_ber > 0) {
    const double decades = std::log10(prof.fec_limit) - std::log10(*agg.worst_ber);
    const double closeness = std::clamp(1.0 - decades / kBerHorizonDecades, 0.0, 1.0);
    if (closeness > 0) {
      offer(0.9 * closeness, 0.9,
            "pre-FEC BER " + formatNumber(*agg.worst_ber) + " is " + formatNumber(std::max(0.0, decades)) +
                " decades below the FEC limit " + formatNumber(prof.fec_limit));
    }
  }
  for (auto& a : st.active) {
    ++a.polls;
    const Finding& f = a.finding;
    const ResolvedRule* rule = nullptr;
    for (const auto& r : prof.rules) {
      if (a.slot >= r.slot && a.slot < r.slot + (r.per_lane ? kMaxLanes : 1)) rule = &r;
    }
    const RuleKind kind = rule ? rule->spec->kind : RuleKind::kThreshold;
    const bool crit = f.severity == Severity::kCritical;
    const double certainty = 0.6 + 0.4 * std::min(1.0, a.polls / 5.0);
    double closeness = crit ? 0.6 : 0.35;
    std::string why = f.rule + ": " + f.detail;
    switch (kind) {
      case RuleKind::kFecUncorrectable:
        closeness = 1.0;
        why = "post-FEC uncorrectable codewords: frames are being lost (" + f.detail + ")";
        break;
      case RuleKind::kLaneDark:
        closeness = 0.95;
        why = "lane failure: lane " + std::to_string(f.lane) + " has no light while the others do (" + f.detail + ")";
        break;
      case RuleKind::kFlapping:
        closeness = crit ? 0.9 : 0.7;
        why = "link flapping: " + f.detail;
        break;
      case RuleKind::kForecast: closeness = crit ? 0.75 : 0.5; why = "forecast: " + f.detail; break;
      case RuleKind::kLinkLoss: closeness = crit ? 0.7 : 0.5; break;
      case RuleKind::kThreshold:
        if (rule && rule->spec->metric == "pre_fec_ber_ratio") closeness = crit ? 0.8 : 0.5;
        break;
      default: break;
    }
    offer(closeness, certainty, why);
  }
  const double total = best > 0 ? std::min(1.0, best + 0.05 * others) : 0.0;
  st.score = total;
  st.reason = std::move(reason);
}

void RulesEngine::Impl::evaluateModule(ModuleState& st, const Sample& s, bool& dirty) {
  const std::int64_t now = s.timestamp_ms;
  if (now <= st.last_ms && st.last_ms != 0) return;  // a repeated or older Sample
  // Identity and port facts: re-resolve the profile only when they change.
  const bool fec = !s.fec.empty() || s.fec.bits_per_block.has_value();
  if (st.profile < 0 || st.serial != s.identity.serial || st.media != s.identity.media ||
      st.modulation != s.identity.modulation || st.fec != fec || st.speed != s.link.speed_gbps) {
    const bool swapped = st.profile >= 0 && st.serial != s.identity.serial;
    st.serial = s.identity.serial;
    st.media = s.identity.media;
    st.modulation = s.identity.modulation;
    st.fec = fec;
    st.speed = s.link.speed_gbps;
    const int next = resolve(st, s);
    if (next != st.profile || swapped) {
      // Active findings follow their rule into the new layout.
      for (auto& a : st.active) st.pending.push_back(std::move(a.finding));
      st.active.clear();
      st.profile = next;
      const RuleProfile& prof = *profiles[static_cast<std::size_t>(next)];
      st.slots.assign(prof.slots, Hysteresis{});
      st.trends.assign(prof.trends, TrendWindow{});
      if (swapped) st.baseline_n = 0;  // a new module has its own baseline
      dirty = true;
    }
  }
  if (!st.pending.empty()) adopt(st);
  const RuleProfile& prof = *profiles[static_cast<std::size_t>(st.profile)];

  Aggregates agg;
  if (s.module_present) {
    agg.worst_ber = s.module[ModuleMetric::kPreFecBerRatio];
    agg.temperature = s.module[ModuleMetric::kTemperatureCelsius];
    for (const Lane& lane : s.lanes) {
      if (!usable(lane)) continue;
      if (const auto& b = lane.values[LaneMetric::kPreFecBerRatio]; b && (!agg.worst_ber || *b > *agg.worst_ber)) {
        agg.worst_ber = b;
      }
      if (const auto& rx = lane.values[LaneMetric::kRxPowerDbm]; rx && (!agg.min_rx || *rx < *agg.min_rx)) {
        agg.min_rx = rx;
        agg.min_rx_lane = lane.number;
      }
    }
  }

  for (const ResolvedRule& r : prof.rules) {
    if (r.per_lane) {
      const int lanes = std::min<int>(kMaxLanes, static_cast<int>(s.lanes.size()));
      for (int li = 0; li < kMaxLanes; ++li) {
        const auto slot = static_cast<std::uint16_t>(r.slot + li);
        // Lanes beyond the module's count only ever clear.
        if (li >= lanes || !s.module_present) {
          if (st.slots[slot].active != Severity::kNone) update(st, r, slot, Outcome{}, now, dirty);
          continue;
        }
        update(st, r, slot, evaluateRule(st, prof, r, s, agg, now, li), now, dirty);
      }
      continue;
    }
    const Outcome o = s.module_present ? evaluateRule(st, prof, r, s, agg, now, 0) : Outcome{};
    update(st, r, r.slot, o, now, dirty);
  }

  // What the next poll compares against.
  st.last_ms = now;
  if (s.fec.uncorrectable_blocks_total) st.last_uncorrectable = s.fec.uncorrectable_blocks_total;
  if (s.link.down_events_total) st.last_down_events = s.link.down_events_total;
  if (s.link.up) st.last_up = s.link.up;
  std::uint16_t los = 0;
  st.lanes = static_cast<std::uint8_t>(std::min<std::size_t>(kMaxLanes, s.lanes.size()));
  st.last_tx.fill(std::nanf(""));
  for (const Lane& lane : s.lanes) {
    const auto idx = static_cast<std::size_t>(lane.number - 1);
    if (idx >= kMaxLanes) continue;
    if (lane.status.rx_los.value_or(false) || lane.status.rx_lol.value_or(false)) {
      los = static_cast<std::uint16_t>(los | (1u << idx));
    }
    if (const auto& tx = lane.values[LaneMetric::kTxPowerDbm]; tx && !lane.status.tx_no_light.value_or(false)) {
      st.last_tx[idx] = static_cast<float>(*tx);
    }
    if (st.baseline_n < kBaselineSamples) {
      const auto& bias = lane.values[LaneMetric::kTxBiasMilliamperes];
      if (bias) st.baseline[idx] = (st.baseline[idx] * st.baseline_n + static_cast<float>(*bias)) / (st.baseline_n + 1);
    }
  }
  if (st.baseline_n < kBaselineSamples && s.module_present && !s.lanes.empty()) ++st.baseline_n;
  st.last_los_mask = los;
  if (const auto& t = s.lane_thresholds[static_cast<std::size_t>(LaneMetric::kTxPowerDbm)]; t && t->low_warning) {
    st.tx_low_warning = t->low_warning;
  }

  const double before = st.score;
  if (!st.active.empty() || agg.worst_ber) {
    score(st, prof, agg);
  } else {
    st.score = 0;
  }
  if (std::fabs(st.score - before) > 0.005 || (st.score == 0) != (before == 0)) dirty = true;
}

void RulesEngine::Impl::publish(const std::string& target, TargetState& ts, RulesView& view) {
  auto v = std::make_shared<TargetRulesView>();
  std::vector<Suspect> suspects;
  v->ports.reserve(ts.modules.size());
  for (const auto& m : ts.modules) {
    const RuleProfile* prof = m->profile >= 0 ? profiles[static_cast<std::size_t>(m->profile)].get() : nullptr;
    TargetRulesView::PortRow row;
    row.port = m->port;
    row.score = m->score;
    if (prof && prof->ber_rule >= 0) {
      const RuleParams& p = prof->rules[static_cast<std::size_t>(prof->ber_rule)].p;
      row.ber_warning = p.warn_above;
      row.ber_critical = p.crit_above;
    }
    v->ports.push_back(std::move(row));
    for (const auto& a : m->active) {
      v->findings.push_back({a.finding.port, a.finding.lane, a.finding.rule, a.finding.severity});
    }
    if (m->score > 0) {
      Suspect s;
      s.target = target;
      s.port = m->port;
      s.score = m->score;
      s.reason = m->reason;
      if (topology) s.endpoint = topology->find(target, m->port).value_or(Endpoint{});
      s.updated_ms = m->last_ms;
      suspects.push_back(std::move(s));
    }
  }
  view.replaceTarget(target, std::move(v));
  if (sink) sink->replaceSuspects(target, std::move(suspects));
}

RulesEngine::RulesEngine(RuleSet rules, Topology topology, FindingSink* sink)
    : impl_(std::make_unique<Impl>()), topology_(std::move(topology)), view_(std::make_shared<RulesView>()) {
  impl_->rules = std::move(rules);
  impl_->sink = sink;
  impl_->topology = &topology_;
}

RulesEngine::~RulesEngine() = default;

void RulesEngine::evaluate(const std::string& target, const std::vector<Sample>& samples) {
  TargetState& ts = impl_->targets[target];
  bool dirty = ts.dirty;
  for (const Sample& s : samples) {
    auto it = ts.index.find(s.port);
    if (it == ts.index.end()) {
      auto st = std::make_unique<ModuleState>();
      st->target = target;
      st->port = s.port;
      st->last_tx.fill(std::nanf(""));
      if (auto r = impl_->restored.find({target, s.port}); r != impl_->restored.end()) {
        st->pending = std::move(r->second);
        impl_->restored.erase(r);
      }
      it = ts.index.emplace(s.port, static_cast<std::uint32_t>(ts.modules.size())).first;
      ts.modules.push_back(std::move(st));
      dirty = true;
    }
    impl_->evaluateModule(*ts.modules[it->second], s, dirty);
  }
  if (dirty) impl_->publish(target, ts, *view_);
  ts.dirty = false;
}

void RulesEngine::setNeighbors(const std::string& target, const std::vector<LinkNeighbor>& neighbors) {
  const auto before = topology_.generation();
  topology_.setNeighbors(target, neighbors);
  if (topology_.generation() != before) {
    for (auto& [name, ts] : impl_->targets) ts.dirty = true;  // suspects name what is behind the port
  }
}

void RulesEngine::reconfigure(RuleSet rules, Topology topology) {
  impl_->rules = std::move(rules);
  impl_->clearProfiles();
  for (auto& [name, ts] : impl_->targets) {
    ts.dirty = true;
    for (auto& m : ts.modules) {
      for (auto& a : m->active) m->pending.push_back(std::move(a.finding));
      m->active.clear();
      m->profile = -1;  // re-resolved at the next poll; pending findings adopted then
    }
  }
  // Keep LLDP knowledge: drivers re-send it only when it changes.
  topology_.replaceConfigured(std::move(topology));
}

void RulesEngine::restore(std::vector<Finding> active) {
  for (auto& f : active) {
    if (!f.active()) continue;
    if (ModuleState* st = impl_->findState(f.target, f.port)) {
      st->pending.push_back(std::move(f));
    } else {
      impl_->restored[{f.target, f.port}].push_back(std::move(f));
    }
  }
}

void RulesEngine::retainTargets(const std::vector<std::string>& targets) {
  for (auto it = impl_->targets.begin(); it != impl_->targets.end();) {
    if (std::find(targets.begin(), targets.end(), it->first) == targets.end()) {
      view_->removeTarget(it->first);
      if (impl_->sink) impl_->sink->replaceSuspects(it->first, {});
      it = impl_->targets.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<Finding> RulesEngine::activeFindings() const {
  std::vector<Finding> out;
  for (const auto& [name, ts] : impl_->targets) {
    for (const auto& m : ts.modules) {
      for (const auto& a : m->active) out.push_back(a.finding);
      for (const auto& f : m->pending) out.push_back(f);
    }
  }
  std::sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.target, a.port, a.lane, a.rule) < std::tie(b.target, b.port, b.lane, b.rule);
  });
  return out;
}

std::vector<Suspect> RulesEngine::suspects() const {
  std::vector<Suspect> out;
  for (const auto& [name, ts] : impl_->targets) {
    for (const auto& m : ts.modules) {
      if (m->score <= 0) continue;
      Suspect s;
      s.target = name;
      s.port = m->port;
      s.score = m->score;
      s.reason = m->reason;
      s.endpoint = topology_.find(name, m->port).value_or(Endpoint{});
      s.updated_ms = m->last_ms;
      out.push_back(std::move(s));
    }
  }
  std::sort(out.begin(), out.end(), [](const Suspect& a, const Suspect& b) {
    if (a.score != b.score) return a.score > b.score;
    return std::tie(a.target, a.port) < std::tie(b.target, b.port);
  });
  return out;
}

std::size_t RulesEngine::modules() const {
  std::size_t n = 0;
  for (const auto& [name, ts] : impl_->targets) n += ts.modules.size();
  return n;
}

std::size_t RulesEngine::moduleStateBytes() { return sizeof(ModuleState); }

}  // namespace opticsd
