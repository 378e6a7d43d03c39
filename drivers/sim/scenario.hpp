#pragma once
// Named degradation scenarios and how far one has progressed at an instant.
// A scenario starts `onset` after the sim epoch and reaches full effect after
// `ramp`; before its onset it changes nothing.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace opticsd::sim {

enum class ScenarioKind : std::uint8_t {
  kLaserAgeing,     // bias rises, Tx power falls (the far end's Rx follows)
  kDirtyConnector,  // Rx falls on every lane, pre-FEC BER rises steeply
  kLaneFailure,     // one lane's Tx and Rx collapse to no light, LOS, link down
  kThermalRunaway,  // case temperature climbs, bias follows, Tx sags
  kLinkFlapping,    // link-down events at several per poll interval
  kPostFecErrors,   // burst errors: pre-FEC BER up, uncorrectable codewords counted
  kFecTailClimb,    // error bursts grow: the FEC tail climbs bin by bin, BER moves only late
};

struct ScenarioInfo {
  ScenarioKind kind;
  std::string_view name;
  std::int64_t default_ramp_ms;
};

// Every scenario, in declaration order: the valid values of `scenario:`.
std::span<const ScenarioInfo> scenarioCatalogue();
std::span<const std::string_view> scenarioNames();
std::optional<ScenarioKind> parseScenarioKind(std::string_view name);
std::string_view toString(ScenarioKind kind);
std::int64_t defaultRampMs(ScenarioKind kind);

struct ScenarioSpec {
  ScenarioKind kind = ScenarioKind::kLaserAgeing;
  int port_index = 0;         // 0-based
  int lane_index = -1;        // 0-based, lane_failure only
  std::int64_t onset_ms = 0;  // after the sim epoch
  std::int64_t ramp_ms = 0;   // 0: full effect at onset

  // 0 before onset, rising linearly to 1 at onset + ramp, 1 afterwards.
  // `since_epoch_ms` is time since the sim epoch.
  double progress(std::int64_t since_epoch_ms) const {
    if (since_epoch_ms < onset_ms) return 0.0;
    if (ramp_ms <= 0 || since_epoch_ms >= onset_ms + ramp_ms) return 1.0;
    return static_cast<double>(since_epoch_ms - onset_ms) / static_cast<double>(ramp_ms);
  }
  std::int64_t fullEffectMs() const { return onset_ms + (ramp_ms > 0 ? ramp_ms : 0); }
};

}  // namespace opticsd::sim
