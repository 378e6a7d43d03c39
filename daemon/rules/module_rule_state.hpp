#pragma once
// What the rules engine keeps per module between polls: the profile it
// resolved to, the counters and flags the next poll compares against, the
// module's own Tx bias baseline, its trend windows, hysteresis per rule slot
// and its active findings. Owned by the engine; rules read and update it on
// the polling thread only.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rules/finding.hpp"
#include "daemon/rules/hysteresis_slots.hpp"
#include "daemon/rules/lane_memory.hpp"
#include "daemon/rules/lane_trend_windows.hpp"
#include "daemon/rules/trend_window.hpp"
#include "drivers/lane_limit.hpp"
#include "drivers/prefetch.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// Every lane the Sample model carries gets rules and baselines.
inline constexpr int kMaxLanes = kMaxSampleLanes;
// One bit per lane (bit n-1 = lane n) of a module.
using LaneMask = std::uint64_t;
static_assert(kMaxLanes <= 64, "a LaneMask holds one bit per lane");
inline constexpr LaneMask laneBit(std::size_t index) { return LaneMask{1} << index; }
inline constexpr int kBaselineSamples = 5;  // polls averaged into a module's own bias baseline

struct ActiveFinding {
  std::uint16_t slot = 0;
  std::uint32_t polls = 0;
  Finding finding;
};

struct ModuleRuleState {
  const std::string& target() const { return *target_name; }
  // Members ordered by size, so that no padding sits between them.
  std::string port;
  // The identity the profile was resolved for: a change re-resolves it
  // (with modulation and fec below).
  std::string serial;
  std::optional<double> speed;

  std::int64_t last_ms = 0;
  std::optional<std::uint64_t> last_uncorrectable;
  std::optional<std::uint64_t> last_down_events;
  std::optional<double> tx_low_warning;     // the module's own, for the far end's link analysis
  std::optional<double> temperature_slope;  // C/h, for the target's common mode

  // The far end of the link, looked up again when the topology or the set of modules changes.
  const ModuleRuleState* peer = nullptr;
  // The target's name as the engine keys it (held there once, for all its
  // modules); set at creation, valid while the state lives.
  const std::string* target_name = nullptr;
  // The engine's one copy of the media name (few differ in a fleet); set
  // whenever the profile is resolved.
  const std::string* media = nullptr;
  std::uint64_t peer_key = 0;

  LaneMemories lanes;  // baselines and last Tx per lane, index 0 = lane 1
  std::vector<TrendWindow> trends;
  // Per-lane windows, a block per rule, one window for each of the lanes the
  // module had when its profile was resolved, so each lane is judged against
  // its own past; a block is made when a lane first reports its signal.
  LaneTrendWindows lane_trends;
  HysteresisSlots slots;  // the profile's slots, held only while counting or active
  std::vector<ActiveFinding> active;
  std::vector<Finding> pending;  // restored or carried over a reload, adopted at the next poll
  double score = 0;
  std::string reason;

  int profile = -1;  // index into the engine's profiles; -1 until resolved
  std::optional<bool> last_up;
  std::optional<LinkDownReason> last_down_reason;  // why the link last went down, where the device says
  LaneMask last_los_mask = 0;
  Modulation modulation = Modulation::kUnknown;
  bool fec = false;
  std::uint8_t baseline_n = 0;  // polls in the lanes' baselines; kBaselineSamples: learned (or restored)
};

// A module's state asked for ahead of its evaluation (drivers/prefetch.hpp):
// the object itself, then, once it is in, the blocks it points to (windows,
// lanes), which is why the two are asked for one module apart.
inline void prefetchState(const ModuleRuleState& st) { prefetchBytes(&st, sizeof st); }
inline void prefetchStateBlocks(const ModuleRuleState& st) {
  prefetchBytes(st.trends.data(), st.trends.size() * sizeof(TrendWindow));
  prefetchBytes(st.lane_trends.data(), st.lane_trends.held() * sizeof(TrendWindow));
  prefetchBytes(st.lanes.data(), st.lanes.held() * sizeof(LaneMemory));
}

// A lane whose data path is up (or that does not say).
inline bool usable(const Lane& lane) { return !lane.status.data_path_state || *lane.status.data_path_state == 4; }

inline bool dark(const Lane& lane) {
  return lane.status.rx_los.value_or(false) || lane.status.rx_no_light.value_or(false) ||
         lane.status.tx_no_light.value_or(false);
}

inline bool lit(const Lane& lane) {
  return !lane.status.rx_los.value_or(false) && !lane.status.rx_no_light.value_or(false) &&
         lane.values[LaneMetric::kRxPowerDbm].has_value();
}

// 0-based index of a lane in per-lane arrays; kMaxLanes when out of range.
inline std::size_t laneIndex(const Lane& lane) {
  return lane.number >= 1 && lane.number <= kMaxLanes ? static_cast<std::size_t>(lane.number - 1) : kMaxLanes;
}

}  // namespace opticsd
