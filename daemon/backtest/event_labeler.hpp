#pragma once
// Labels events from a module's consecutive stored rows (history_event.hpp).
// An episode counts once: the same kind on the same lane again within
// `episode_gap` of its last sighting extends it rather than adding an event,
// so a flapping link is one event an hour, not one per bounce.
//
// What no history records is not labelled: a finding an operator cleared by
// hand (opticsd has no such action), a reseat that kept the serial.
//
// Not thread-safe: one per replay.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/backtest/history_event.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/rules/rule_config.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

class EventLabeler {
 public:
  // `rules`: the running rules, whose pre_fec_ber `limit` is each port's FEC
  // limit. `recorded`: the findings the daemon recorded, for swaps.
  EventLabeler(const RuleSet& rules, const std::vector<Finding>& recorded, std::int64_t episode_gap_ms);

  // `s` is module `module`'s next stored row (prepared); events are appended.
  void observe(std::uint32_t module, const Sample& s, std::vector<HistoryEvent>& out);

 private:
  struct ModuleState {
    bool seen = false;
    std::optional<bool> link_up;
    std::optional<std::uint64_t> down_events;
    std::optional<std::uint64_t> uncorrectable;
    std::uint64_t los = 0;   // lane bits
    std::uint64_t dark = 0;  // lane bits
    bool ber_over = false;
    std::string serial;
    std::optional<double> fec_limit;
    std::map<std::pair<EventKind, int>, std::int64_t> last;  // last sighting per kind and lane
  };

  std::optional<double> fecLimit(const Sample& s) const;
  void emit(ModuleState& st, const Sample& s, EventKind kind, int lane, std::vector<HistoryEvent>& out);
  bool hadFinding(const std::string& target, const std::string& port, std::int64_t before_ms) const;

  const RuleSet& rules_;
  const RuleSpec* ber_rule_ = nullptr;
  std::map<std::pair<std::string, std::string>, std::vector<std::int64_t>> finding_starts_;
  std::int64_t episode_gap_ms_;
  std::vector<ModuleState> modules_;
};

}  // namespace opticsd
