#include "daemon/backtest/event_labeler.hpp"

#include <algorithm>
#include <bit>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {

std::string_view toString(EventKind kind) {
  switch (kind) {
    case EventKind::kLinkDown:
      return "link_down";
    case EventKind::kLossOfSignal:
      return "los";
    case EventKind::kLaneDark:
      return "lane_dark";
    case EventKind::kUncorrectable:
      return "post_fec_uncorrectable";
    case EventKind::kBerOverLimit:
      return "ber_over_fec_limit";
    case EventKind::kModuleSwapped:
      return "module_swapped";
  }
  return "unknown";
}

EventLabeler::EventLabeler(const RuleSet& rules, const std::vector<Finding>& recorded, std::int64_t episode_gap_ms)
    : rules_(rules), episode_gap_ms_(episode_gap_ms) {
  // The FEC limit is the `limit` of the pre-FEC BER threshold rule.
  for (const RuleSpec& r : rules.rules) {
    if (r.metric == "pre_fec_ber_ratio" && r.type && std::string_view(r.type->name) == "threshold") {
      ber_rule_ = &r;
      break;
    }
  }
  for (const Finding& f : recorded) finding_starts_[{f.target, f.port}].push_back(f.start_ms);
  for (auto& [key, starts] : finding_starts_) std::sort(starts.begin(), starts.end());
}

std::optional<double> EventLabeler::fecLimit(const Sample& s) const {
  if (ber_rule_ == nullptr) return std::nullopt;
  const PortFacts facts{
      s.target,       s.port,           s.identity().media, s.identity().form_factor, s.identity().modulation,
      !s.fec.empty(), s.link.speed_gbps};
  RuleParams p;
  p.apply(ber_rule_->base);
  for (const RuleOverride& o : ber_rule_->overrides) {
    if (matches(o.match, facts, rules_.port_groups)) p.apply(o.patch);
  }
  return p.limit;
}

bool EventLabeler::hadFinding(const std::string& target, const std::string& port, std::int64_t before_ms) const {
  const auto it = finding_starts_.find({target, port});
  return it != finding_starts_.end() && !it->second.empty() && it->second.front() <= before_ms;
}

void EventLabeler::emit(ModuleState& st, const Sample& s, EventKind kind, int lane, std::vector<HistoryEvent>& out) {
  auto& last = st.last[{kind, lane}];
  const bool same_episode = last != 0 && s.timestamp_ms - last <= episode_gap_ms_;
  last = s.timestamp_ms;
  if (same_episode) return;
  out.push_back({s.target, s.port, lane, kind, s.timestamp_ms});
}

void EventLabeler::observe(std::uint32_t module, const Sample& s, std::vector<HistoryEvent>& out) {
  if (module >= modules_.size()) modules_.resize(module + 1);
  ModuleState& st = modules_[module];
  const std::string& serial = s.identity().serial;
  if (st.seen && !st.serial.empty() && !serial.empty() && serial != st.serial &&
      hadFinding(s.target, s.port, s.timestamp_ms)) {
    emit(st, s, EventKind::kModuleSwapped, 0, out);
  }
  if (!st.seen || serial != st.serial) {
    st.serial = serial;
    st.fec_limit = fecLimit(s);
  }
  // Link: a fall of link_up, or the device's own count of downs rising.
  const bool went_down = (st.link_up == true && s.link.up == false) ||
                         (st.down_events && s.link.down_events_total && *s.link.down_events_total > *st.down_events);
  if (st.seen && went_down) emit(st, s, EventKind::kLinkDown, 0, out);
  if (s.link.up) st.link_up = s.link.up;
  if (s.link.down_events_total) st.down_events = s.link.down_events_total;

  const auto uncorrectable = s.fec.uncorrectable_blocks_total;
  if (st.uncorrectable && uncorrectable && *uncorrectable > *st.uncorrectable) {
    emit(st, s, EventKind::kUncorrectable, 0, out);
  }
  if (uncorrectable) st.uncorrectable = uncorrectable;

  std::uint64_t los = 0;
  std::uint64_t dark = 0;
  std::uint64_t lit = 0;
  std::optional<double> worst_ber = s.module[ModuleMetric::kPreFecBerRatio];
  if (s.module_present) {
    for (const Lane& lane : s.lanes) {
      if (lane.number < 1 || lane.number > 64) continue;
      const std::uint64_t bit = std::uint64_t{1} << (lane.number - 1);
      if (lane.status.rx_los.value_or(false)) los |= bit;
      const bool is_dark = lane.status.rx_no_light.value_or(false) || lane.status.tx_no_light.value_or(false);
      if (is_dark) dark |= bit;
      if (!is_dark && (lane.values[LaneMetric::kRxPowerDbm] || lane.values[LaneMetric::kTxPowerDbm])) lit |= bit;
      if (const auto& b = lane.values[LaneMetric::kPreFecBerRatio]; b && (!worst_ber || *b > *worst_ber)) worst_ber = b;
    }
  }
  // Only the lanes that newly lost signal or went dark, lowest first (almost every row: none).
  const std::uint64_t new_los = los & ~st.los;
  const std::uint64_t new_dark = lit != 0 ? dark & ~st.dark : 0;
  for (std::uint64_t rest = st.seen ? new_los | new_dark : 0; rest != 0; rest &= rest - 1) {
    const int n = std::countr_zero(rest) + 1;
    const std::uint64_t bit = std::uint64_t{1} << (n - 1);
    if (new_los & bit) emit(st, s, EventKind::kLossOfSignal, n, out);
    if (new_dark & bit) emit(st, s, EventKind::kLaneDark, n, out);
  }
  st.los = los;
  st.dark = dark;
  const bool ber_over = worst_ber && st.fec_limit && *worst_ber > *st.fec_limit;
  if (ber_over && !st.ber_over) emit(st, s, EventKind::kBerOverLimit, 0, out);
  st.ber_over = ber_over;
  st.seen = true;
}

}  // namespace opticsd
