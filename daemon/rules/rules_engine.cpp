#include "daemon/rules/rules_engine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "daemon/log/log.hpp"
#include "daemon/rules/bias_drift_rule.hpp"
#include "daemon/rules/flapping_rule.hpp"
#include "daemon/rules/rule_input.hpp"
#include "daemon/rules/rule_type.hpp"
#include "daemon/rules/suspect_score.hpp"

namespace opticsd {

struct RulesEngine::TargetState {
  std::vector<std::unique_ptr<ModuleRuleState>> modules;
  // Indices into `modules` in port order: a port is found by its state's own
  // name, not by a second copy of it in a hash map.
  std::vector<std::uint32_t> by_port;
  bool dirty = true;
  std::optional<double> common_temp_slope;  // median over the modules, from the previous poll
  std::uint64_t published_topology = 0;     // Topology::generation() the view was built with

  std::vector<std::uint32_t>::iterator lowerBound(std::string_view port) {
    return std::lower_bound(by_port.begin(), by_port.end(), port,
                            [&](std::uint32_t i, std::string_view p) { return modules[i]->port < p; });
  }
  std::optional<std::uint32_t> find(std::string_view port) {
    const auto it = lowerBound(port);
    if (it == by_port.end() || modules[*it]->port != port) return std::nullopt;
    return *it;
  }
};

struct RulesEngine::Impl final : LinkPeers {
  using PortKey = std::pair<std::string, std::string>;

  RuleSet rules;
  FindingSink* sink = nullptr;
  const Topology* topology = nullptr;
  std::vector<std::unique_ptr<RuleProfile>> profiles;
  std::map<std::string, int, std::less<>> profile_by_key;
  std::unordered_map<std::string, TargetState> targets;
  std::map<PortKey, std::vector<Finding>> restored;
  std::map<PortKey, BiasBaseline> baselines;       // from the sink, taken when the module is first seen
  std::uint64_t module_generation = 1;             // changes when a module state is created or removed
  std::vector<double> slope_scratch;               // the common mode's median, without an allocation per poll
  std::set<std::string, std::less<>> media_names;  // ModuleRuleState::media points here

  // `target` is the key of `targets`: the state keeps a pointer to it.
  ModuleRuleState& create(const std::string& target, const Sample& s, TargetState& ts);
  int resolve(const ModuleRuleState& st, const Sample& s);
  void adopt(ModuleRuleState& st);
  void evaluateModule(ModuleRuleState& st, const Sample& s, std::optional<double> common_temp_slope, bool& dirty);
  void evaluateLanes(const RuleInput& in, const ResolvedRule& r, bool& dirty);
  const ModuleRuleState* peerOf(ModuleRuleState& st) override;
  void remember(ModuleRuleState& st, const Sample& s, LaneMask los_mask);
  // Hysteresis: nothing to do for a clean poll of an idle slot, the common case.
  void step(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o, std::int64_t now,
            bool& dirty) {
    if (o.severity == Severity::kNone && st.slots.idle(slot)) return;
    update(st, r, slot, o, now, dirty);
  }
  void update(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o, std::int64_t now,
              bool& dirty);
  void updateSlot(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, Hysteresis& h, const Outcome& o,
                  std::int64_t now, bool& dirty);
  void raise(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o, std::int64_t now);
  void clear(ModuleRuleState& st, std::size_t active_index, std::int64_t now, const char* why);
  ModuleRuleState* findState(std::string_view target, std::string_view port);
  void publish(const std::string& target, TargetState& ts, RulesView& view);
};

namespace {

std::string detailOf(const ResolvedRule& r, const Outcome& o, const ModuleRuleState& st) {
  const auto detail = r.spec->type->detail;
  return detail ? detail(o, st) : describe(o);
}

// A live finding of a type that means the link bounces (flapping) is active
// (a shadow rule changes nothing the live rules do).
bool bouncingActive(const ModuleRuleState& st, const RuleProfile& prof) {
  for (const auto& a : st.active) {
    const ResolvedRule* r = prof.ruleOfSlot(a.slot);
    if (r && r->spec->type->means_bouncing && !r->spec->shadow) return true;
  }
  return false;
}

// Rules that read a lane's light, which a bouncing link takes away for a poll.
bool judgesLaneLight(const ResolvedRule& r) {
  switch (r.spec->type->lane_light) {
    case LaneLight::kYes:
      return true;
    case LaneLight::kWhenLaneMetric:
      return r.spec->lane_metric.has_value();
    case LaneLight::kNo:
      break;
  }
  return false;
}

// Fewer modules than this on a target: no common mode (one module's own trend could be it).
constexpr std::size_t kMinCommonModeModules = 4;

// The median temperature slope of a target's modules: what the room or a job
// does to all of them, which a module's own trend is judged beyond.
std::optional<double> commonTemperatureSlope(const std::vector<std::unique_ptr<ModuleRuleState>>& modules,
                                             std::vector<double>& slopes) {
  slopes.clear();
  for (const auto& m : modules) {
    if (m->temperature_slope) slopes.push_back(*m->temperature_slope);
  }
  if (slopes.size() < kMinCommonModeModules) return std::nullopt;
  const auto mid = slopes.begin() + static_cast<std::ptrdiff_t>(slopes.size() / 2);
  std::nth_element(slopes.begin(), mid, slopes.end());
  return *mid;
}

}  // namespace

ModuleRuleState& RulesEngine::Impl::create(const std::string& target, const Sample& s, TargetState& ts) {
  auto st = std::make_unique<ModuleRuleState>();
  st->target_name = &target;
  st->port = s.port;
  const PortKey key{target, s.port};
  if (auto r = restored.find(key); r != restored.end()) {
    st->pending = std::move(r->second);
    restored.erase(r);
  }
  // The baseline learned before a restart, if this is still the same module.
  if (auto b = baselines.find(key); b != baselines.end()) {
    if (b->second.serial == s.identity().serial) {
      const BiasBaseline& from = b->second;
      st->lanes.hold(std::min<std::size_t>(
          kMaxLanes, std::max({from.lanes_ma.size(), from.lanes_rx_dbm.size(), from.lanes_tx_dbm.size()})));
      for (std::size_t i = 0; i < std::min<std::size_t>(kMaxLanes, from.lanes_ma.size()); ++i) {
        st->lanes.at(i).bias_baseline_ma = static_cast<float>(from.lanes_ma[i]);
      }
      // Lanes without a stored power baseline keep none (NaN).
      for (std::size_t i = 0; i < std::min<std::size_t>(kMaxLanes, from.lanes_rx_dbm.size()); ++i) {
        if (from.lanes_rx_dbm[i]) st->lanes.at(i).rx_baseline_dbm = static_cast<float>(*from.lanes_rx_dbm[i]);
      }
      for (std::size_t i = 0; i < std::min<std::size_t>(kMaxLanes, from.lanes_tx_dbm.size()); ++i) {
        if (from.lanes_tx_dbm[i]) st->lanes.at(i).tx_baseline_dbm = static_cast<float>(*from.lanes_tx_dbm[i]);
      }
      st->baseline_n = kBaselineSamples;
    }
    baselines.erase(b);
  }
  ts.by_port.insert(ts.lowerBound(s.port), static_cast<std::uint32_t>(ts.modules.size()));
  ts.modules.push_back(std::move(st));
  ++module_generation;
  return *ts.modules.back();
}

int RulesEngine::Impl::resolve(const ModuleRuleState& st, const Sample& s) {
  const PortFacts facts{st.target(), st.port, s.identity().media, s.identity().form_factor, s.identity().modulation,
                        st.fec,      st.speed};
  std::string key = profileKey(rules, facts);
  if (auto it = profile_by_key.find(key); it != profile_by_key.end()) return it->second;
  profiles.push_back(buildProfile(rules, key));
  const int index = static_cast<int>(profiles.size() - 1);
  profile_by_key.emplace(std::move(key), index);
  return index;
}

// Takes over findings that were active before (a restart or a reload): the
// module's slot starts active, so a still-breaching module raises nothing
// new and a healed one clears after the usual clean polls.
void RulesEngine::Impl::adopt(ModuleRuleState& st) {
  const RuleProfile& prof = *profiles[static_cast<std::size_t>(st.profile)];
  for (auto& f : st.pending) {
    const ResolvedRule* rule = prof.find(f.rule);
    if (rule == nullptr || (rule->per_lane && (f.lane < 1 || f.lane > kMaxLanes)) || (!rule->per_lane && f.lane != 0)) {
      // The rule is gone (or off) for this module: close the finding.
      f.end_ms = st.last_ms;
      if (sink) sink->record(f);
      spdlog::info("finding cleared target={} port={} rule={} reason=rule_removed", logValue(f.target),
                   logValue(f.port), logValue(f.rule));
      continue;
    }
    const auto slot = static_cast<std::uint16_t>(rule->slot + (rule->per_lane ? f.lane - 1 : 0));
    const bool duplicate =
        std::any_of(st.active.begin(), st.active.end(), [&](const auto& a) { return a.slot == slot; });
    if (duplicate) continue;
    f.shadow = rule->spec->shadow;  // the mode in force now: a rule made live pages from here on
    Hysteresis h = st.slots.get(slot);
    h.active = f.severity;
    h.breach = static_cast<std::uint8_t>(rule->p.raise_after);
    st.slots.set(slot, h);
    st.active.push_back(ActiveFinding{slot, 0, std::move(f)});
  }
  st.pending.clear();
}

ModuleRuleState* RulesEngine::Impl::findState(std::string_view target, std::string_view port) {
  auto t = targets.find(std::string(target));
  if (t == targets.end()) return nullptr;
  const auto i = t->second.find(port);
  return i ? t->second.modules[*i].get() : nullptr;
}

// The far end's state, looked up again only when the topology or the set of
// modules changed (a lookup copies the endpoint's strings).
const ModuleRuleState* RulesEngine::Impl::peerOf(ModuleRuleState& st) {
  if (topology == nullptr || !topology->hasPeers()) return nullptr;
  const std::uint64_t key = (topology->generation() << 32) ^ module_generation;
  if (st.peer_key != key) {
    st.peer_key = key;
    st.peer = nullptr;
    if (const auto ep = topology->find(st.target(), st.port); ep && !ep->peer_target.empty()) {
      st.peer = findState(ep->peer_target, ep->peer_port);
    }
  }
  return st.peer;
}

void RulesEngine::Impl::evaluateLanes(const RuleInput& in, const ResolvedRule& r, bool& dirty) {
  ModuleRuleState& st = in.st;
  const RuleType& type = *r.spec->type;
  LaneScan scan;
  if (in.s.module_present) scan = type.scan_lanes(in.s, r);
  // A healthy module with no finding or pending breach anywhere: nothing per lane.
  if (scan.breaching == 0 && st.slots.allIdle()) return;
  LaneMask seen = 0;
  if (in.s.module_present) {
    for (const Lane& lane : in.s.lanes) {
      const std::size_t idx = laneIndex(lane);
      if (idx >= kMaxLanes || (seen & laneBit(idx)) != 0) continue;
      seen |= laneBit(idx);
      const auto slot = static_cast<std::uint16_t>(r.slot + idx);
      if ((scan.breaching & laneBit(idx)) == 0) {
        step(st, r, slot, Outcome{}, in.now, dirty);
        continue;
      }
      step(st, r, slot, type.evaluate_lane(r, scan, lane), in.now, dirty);
    }
  }
  // Lanes the module no longer reports only ever clear.
  for (std::size_t idx = 0; idx < kMaxLanes; ++idx) {
    const auto slot = static_cast<std::uint16_t>(r.slot + idx);
    if ((seen & laneBit(idx)) == 0 && !st.slots.idle(slot)) update(st, r, slot, Outcome{}, in.now, dirty);
  }
}

void RulesEngine::Impl::raise(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o,
                              std::int64_t now) {
  Finding f;
  f.target = st.target();
  f.port = st.port;
  f.lane = r.per_lane ? o.lane : 0;
  f.rule = r.spec->name;
  f.severity = o.severity;
  f.start_ms = now;
  if (o.has_value) f.value = o.value;
  f.detail = detailOf(r, o, st);
  f.shadow = r.spec->shadow;
  spdlog::warn("finding raised target={} port={} lane={} rule={} severity={} mode={} detail={}", logValue(f.target),
               logValue(f.port), f.lane, logValue(f.rule), toString(f.severity), f.shadow ? "shadow" : "live",
               logValue(f.detail));
  if (sink) sink->record(f);
  st.active.push_back(ActiveFinding{slot, 0, std::move(f)});
}

void RulesEngine::Impl::clear(ModuleRuleState& st, std::size_t i, std::int64_t now, const char* why) {
  Finding& f = st.active[i].finding;
  f.end_ms = now;
  spdlog::info("finding cleared target={} port={} lane={} rule={} severity={} duration_s={} reason={}",
               logValue(f.target), logValue(f.port), f.lane, logValue(f.rule), toString(f.severity),
               (now - f.start_ms) / 1000, why);
  if (sink) sink->record(f);
  st.active.erase(st.active.begin() + static_cast<std::ptrdiff_t>(i));
}

void RulesEngine::Impl::update(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, const Outcome& o,
                               std::int64_t now, bool& dirty) {
  Hysteresis h = st.slots.get(slot);
  const bool was_breaching = h.breach > 0;
  updateSlot(st, r, slot, h, o, now, dirty);
  st.slots.set(slot, h);
  if (sink && was_breaching != (o.severity != Severity::kNone)) sink->keepRows(st.target(), st.port);
}

// N consecutive breaching polls raise (raise_after), M consecutive clean
// ones clear (clear_after); a clean poll resets the breach count and a
// breaching one the clean count. A worse severity escalates in place.
void RulesEngine::Impl::updateSlot(ModuleRuleState& st, const ResolvedRule& r, std::uint16_t slot, Hysteresis& h,
                                   const Outcome& o, std::int64_t now, bool& dirty) {
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
        if (o.has_value) a.finding.value = o.value;
        a.finding.detail = detailOf(r, o, st);
        spdlog::warn("finding escalated target={} port={} lane={} rule={} severity={} detail={}", logValue(st.target()),
                     logValue(st.port), a.finding.lane, logValue(r.spec->name), toString(o.severity),
                     logValue(a.finding.detail));
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

// What the next poll compares against, and the bias baseline while it is learned.
void RulesEngine::Impl::remember(ModuleRuleState& st, const Sample& s, LaneMask los_mask) {
  st.last_ms = s.timestamp_ms;
  if (s.fec.uncorrectable_blocks_total) st.last_uncorrectable = s.fec.uncorrectable_blocks_total;
  if (s.link.down_events_total) st.last_down_events = s.link.down_events_total;
  if (s.link.up) st.last_up = s.link.up;
  st.last_los_mask = los_mask;
  // Held for every lane reported, sized once per module rather than grown lane by lane.
  std::size_t lanes = 0;
  for (const Lane& lane : s.lanes) lanes = std::max(lanes, std::min<std::size_t>(laneIndex(lane) + 1, kMaxLanes));
  st.lanes.hold(lanes);
  for (LaneMemory& m : st.lanes) m.last_tx_dbm = LaneMemory::kNone;
  for (const Lane& lane : s.lanes) {
    const std::size_t idx = laneIndex(lane);
    const auto& tx = lane.values[LaneMetric::kTxPowerDbm];
    if (idx < kMaxLanes && tx && !lane.status.tx_no_light.value_or(false)) {
      st.lanes.at(idx).last_tx_dbm = static_cast<float>(*tx);
    }
  }
  if (const auto& t = s.thresholds(LaneMetric::kTxPowerDbm); t && t->low_warning) {
    st.tx_low_warning = t->low_warning;
  }
  if (learnBiasBaseline(st, s) && sink) {
    BiasBaseline b{st.target(), st.port, st.serial, s.timestamp_ms, {}, {}, {}};
    const std::size_t stored_lanes = std::min<std::size_t>(kMaxLanes, s.lanes.size());
    const auto power = [](float v) { return std::isnan(v) ? std::nullopt : std::optional<double>(v); };
    for (std::size_t i = 0; i < stored_lanes; ++i) {
      const LaneMemory m = st.lanes[i];
      b.lanes_ma.push_back(m.bias_baseline_ma);
      b.lanes_rx_dbm.push_back(power(m.rx_baseline_dbm));
      b.lanes_tx_dbm.push_back(power(m.tx_baseline_dbm));
    }
    sink->recordBaseline(b);
  }
}

void RulesEngine::Impl::evaluateModule(ModuleRuleState& st, const Sample& s, std::optional<double> common_temp_slope,
                                       bool& dirty) {
  const std::int64_t now = s.timestamp_ms;
  if (now <= st.last_ms && st.last_ms != 0) return;  // a repeated or older Sample
  // Identity and port facts: re-resolve the profile only when they change.
  const bool fec = !s.fec.empty() || s.fec.bits_per_block.has_value();
  if (st.profile < 0 || st.serial != s.identity().serial || *st.media != s.identity().media ||
      st.modulation != s.identity().modulation || st.fec != fec || st.speed != s.link.speed_gbps) {
    const bool swapped = st.profile >= 0 && st.serial != s.identity().serial;
    st.serial = s.identity().serial;
    st.media = &*media_names.insert(s.identity().media).first;
    st.modulation = s.identity().modulation;
    st.fec = fec;
    st.speed = s.link.speed_gbps;
    const int next = resolve(st, s);
    if (next != st.profile || swapped) {
      // Active findings follow their rule into the new layout.
      for (auto& a : st.active) st.pending.push_back(std::move(a.finding));
      st.active.clear();
      st.profile = next;
      const RuleProfile& prof = *profiles[static_cast<std::size_t>(next)];
      st.slots.clear();
      std::vector<TrendWindow>(prof.trends).swap(st.trends);  // exactly sized, also when it shrinks
      std::size_t lanes = 0;
      for (const Lane& lane : s.lanes) lanes = std::max(lanes, std::min<std::size_t>(laneIndex(lane) + 1, kMaxLanes));
      st.lane_trends.reset(prof.lane_trends, lanes);
      if (swapped) {
        st.baseline_n = 0;  // a new module has its own baseline
        for (LaneMemory& m : st.lanes) m.bias_baseline_ma = 0;
      }
      dirty = true;
    }
  }
  if (!st.pending.empty()) adopt(st);
  const RuleProfile& prof = *profiles[static_cast<std::size_t>(st.profile)];

  Aggregates agg;
  agg.los_mask = losMask(s);
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
      }
    }
  }

  // A module in maintenance (firmware flashing, a CDB command, paused by
  // config) is left alone: no rule counts it, findings stay as they were.
  if (s.maintenance) return;
  // Why the link went down, for the findings' detail (this poll's first).
  if (const auto& r = s.link.down_reason ? s.link.down_reason : s.link.last_down_reason) st.last_down_reason = r;

  const RuleInput in{st, prof, s, agg, now, common_temp_slope, *this};
  // A poll caught mid-bounce of a link already found flapping says nothing
  // new about its lanes: their rules neither breach nor count clean, so they
  // do not raise and clear on every bounce.
  const bool bouncing = (agg.los_mask != 0 || s.link.up == false) && bouncingActive(st, prof);
  for (const ResolvedRule& r : prof.rules) {
    if (bouncing && judgesLaneLight(r)) continue;
    if (r.per_lane) {
      evaluateLanes(in, r, dirty);
    } else {
      step(st, r, r.slot, s.module_present ? r.spec->type->evaluate(in, r) : Outcome{}, now, dirty);
    }
  }
  remember(st, s, agg.los_mask);

  const double before = st.score;
  if (!st.active.empty() || agg.worst_ber) {
    scoreModule(st, prof, agg);
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
    if (topology) {
      if (auto ep = topology->find(target, m->port); ep && !ep->empty()) {
        row.endpoint = std::make_unique<const Endpoint>(std::move(*ep));
      }
    }
    if (prof && prof->ber_rule >= 0) {
      const RuleParams& p = prof->rules[static_cast<std::size_t>(prof->ber_rule)].p;
      row.ber_warning = p.warn_above;
      row.ber_critical = p.crit_above;
    }
    v->ports.push_back(std::move(row));
    for (const auto& a : m->active) {
      v->findings.push_back({a.finding.port, a.finding.lane, a.finding.rule, a.finding.severity, a.finding.shadow});
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
  if (sink) {
    for (auto& b : sink->takeStoredBaselines()) {
      Impl::PortKey key{b.target, b.port};
      impl_->baselines.insert_or_assign(std::move(key), std::move(b));
    }
  }
}

RulesEngine::~RulesEngine() = default;

void RulesEngine::evaluate(const std::string& target, const std::vector<Sample>& samples) {
  // The map's key is the name the module states point to: stable while the target is.
  const auto entry = impl_->targets.try_emplace(target).first;
  const std::string& name = entry->first;
  TargetState& ts = entry->second;
  bool dirty = ts.dirty;
  std::size_t next = 0;  // polls list ports in the same order: try the next state before hashing
  for (std::size_t i = 0; i < 2 && i < ts.modules.size(); ++i) prefetchState(*ts.modules[i]);
  for (const Sample& s : samples) {
    ModuleRuleState* st = nullptr;
    if (next < ts.modules.size() && ts.modules[next]->port == s.port) {
      st = ts.modules[next++].get();
    } else if (const auto i = ts.find(s.port)) {
      st = ts.modules[*i].get();
      next = *i + 1;
    } else {
      st = &impl_->create(name, s, ts);
      next = ts.modules.size();
      dirty = true;
    }
    // The next modules' states on their way while this one is judged.
    if (next < ts.modules.size()) prefetchStateBlocks(*ts.modules[next]);
    if (next + 1 < ts.modules.size()) prefetchState(*ts.modules[next + 1]);
    impl_->evaluateModule(*st, s, ts.common_temp_slope, dirty);
  }
  ts.common_temp_slope = commonTemperatureSlope(ts.modules, impl_->slope_scratch);
  // A reload or LLDP may have changed what sits behind the ports.
  if (dirty || ts.published_topology != topology_.generation()) {
    impl_->publish(target, ts, *view_);
    ts.published_topology = topology_.generation();
  }
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
  impl_->profiles.clear();
  impl_->profile_by_key.clear();
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
    if (ModuleRuleState* st = impl_->findState(f.target, f.port)) {
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
      ++impl_->module_generation;  // cached peers may point into the removed states
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

std::size_t RulesEngine::moduleStateBytes() { return sizeof(ModuleRuleState); }

std::size_t RulesEngine::trendWindows() const {
  std::size_t n = 0;
  for (const auto& [name, ts] : impl_->targets) {
    for (const auto& m : ts.modules) n += m->trends.capacity() + m->lane_trends.capacity();
  }
  return n;
}

}  // namespace opticsd
