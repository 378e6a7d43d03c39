#include "drivers/sim/scenario.hpp"

#include <array>

namespace opticsd::sim {
namespace {

constexpr std::int64_t kMinute = 60'000;

// Default ramps: ageing and dirt are slow, a dying lane is quick. Long enough
// to watch a trend in the demo, short enough to see it within the hour.
constexpr std::array<ScenarioInfo, 7> kScenarios{{
    {ScenarioKind::kLaserAgeing, "laser_ageing", 30 * kMinute},
    {ScenarioKind::kDirtyConnector, "dirty_connector", 30 * kMinute},
    {ScenarioKind::kLaneFailure, "lane_failure", 1 * kMinute},
    {ScenarioKind::kThermalRunaway, "thermal_runaway", 20 * kMinute},
    {ScenarioKind::kLinkFlapping, "link_flapping", 5 * kMinute},
    {ScenarioKind::kPostFecErrors, "post_fec_errors", 10 * kMinute},
    {ScenarioKind::kFecTailClimb, "fec_tail_climb", 30 * kMinute},
}};

constexpr std::array<std::string_view, kScenarios.size()> kNames{
    kScenarios[0].name, kScenarios[1].name, kScenarios[2].name, kScenarios[3].name,
    kScenarios[4].name, kScenarios[5].name, kScenarios[6].name,
};

}  // namespace

std::span<const ScenarioInfo> scenarioCatalogue() { return kScenarios; }
std::span<const std::string_view> scenarioNames() { return kNames; }

std::optional<ScenarioKind> parseScenarioKind(std::string_view name) {
  for (const auto& s : kScenarios) {
    if (s.name == name) return s.kind;
  }
  return std::nullopt;
}

std::string_view toString(ScenarioKind kind) { return kScenarios[static_cast<std::size_t>(kind)].name; }

std::int64_t defaultRampMs(ScenarioKind kind) { return kScenarios[static_cast<std::size_t>(kind)].default_ramp_ms; }

}  // namespace opticsd::sim
