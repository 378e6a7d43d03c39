// Each simulated degradation is flagged by its rule within two poll
// intervals of the moment the simulator's ground truth crosses that rule's
// level, and its module ranks first among the suspects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "daemon/rules/rules_engine.hpp"
#include "drivers/sim/sim_switch.hpp"
#include "tests/unit/rules/recording_sink.hpp"

namespace opticsd {
namespace {

using sim::Crossing;
using sim::ScenarioKind;
using sim::ScenarioSpec;
using sim::SimSwitch;
using sim::SimSwitchConfig;
using sim::TruthSignal;

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kInterval = 30'000;
constexpr std::int64_t kMinute = 60'000;

struct Case {
  const char* name;
  ScenarioKind kind;
  int lane_index;  // lane_failure only
  std::int64_t ramp_ms;
  const char* rule;    // the rule that must flag it
  TruthSignal signal;  // the ground truth behind that rule
  Crossing direction;
  // The rule's level in the truth's terms, given the truth at the start.
  double (*level)(const SimSwitch&, int port, int lane);
  bool per_lane_truth;
  const char* reason_word;  // must appear in the top suspect's reason
};

double truthAtStart(const SimSwitch& sw, int port, int lane, TruthSignal s) {
  return *sw.truthAt(port, lane, s, kEpoch);
}

const Case kCases[] = {
    {"dirty_connector", ScenarioKind::kDirtyConnector, -1, 30 * kMinute, "rx_power_low", TruthSignal::kRxPowerDbm,
     Crossing::kFalling, [](const SimSwitch&, int, int) { return -7.0; }, true, "uncorrectable"},
    {"laser_ageing", ScenarioKind::kLaserAgeing, -1, 30 * kMinute, "bias_drift", TruthSignal::kTxBiasMilliamperes,
     Crossing::kRising,
     [](const SimSwitch& sw, int port, int lane) {
       return 1.2 * truthAtStart(sw, port, lane, TruthSignal::kTxBiasMilliamperes);
     },
     true, "bias"},
    {"thermal_runaway", ScenarioKind::kThermalRunaway, -1, 20 * kMinute, "temperature_high",
     TruthSignal::kTemperatureCelsius, Crossing::kRising, [](const SimSwitch&, int, int) { return 70.0; }, false,
     "temperature"},
    {"post_fec_errors", ScenarioKind::kPostFecErrors, -1, 10 * kMinute, "post_fec_uncorrectable",
     TruthSignal::kUncorrectableBlocksTotal, Crossing::kRising,
     [](const SimSwitch& sw, int port, int lane) {
       return truthAtStart(sw, port, lane, TruthSignal::kUncorrectableBlocksTotal) + 1;
     },
     false, "post-FEC"},
    {"link_flapping", ScenarioKind::kLinkFlapping, -1, 5 * kMinute, "link_flapping", TruthSignal::kLinkDownEventsTotal,
     Crossing::kRising,
     [](const SimSwitch& sw, int port, int lane) {
       return truthAtStart(sw, port, lane, TruthSignal::kLinkDownEventsTotal) + 4;  // > 3 per hour
     },
     false, "flapping"},
    {"lane_failure", ScenarioKind::kLaneFailure, 2, 1 * kMinute, "lane_failure", TruthSignal::kRxPowerDbm,
     Crossing::kFalling, [](const SimSwitch& sw, int, int) { return sw.profile().los_assert_dbm; }, true,
     "lane failure"},
};

class ScenarioTest : public ::testing::TestWithParam<Case> {};

TEST_P(ScenarioTest, FlaggedWithinTwoPollsAndRankedFirst) {
  const Case& c = GetParam();
  const int port = 4;
  const std::int64_t onset = 20 * kMinute;
  SimSwitchConfig config;
  config.name = "leaf-1";
  config.seed = 7;
  config.ports = 16;
  config.module = "osfp-800g-2fr4";
  config.scenarios.push_back(ScenarioSpec{c.kind, port, c.lane_index, onset, c.ramp_ms});
  auto sw = SimSwitch::create(config, kEpoch);
  ASSERT_TRUE(sw) << sw.error().message;

  // When the truth crosses the rule's level (the earliest lane for lane signals).
  const std::int64_t end = kEpoch + onset + c.ramp_ms + 20 * kMinute;
  std::optional<std::int64_t> crossing;
  const int lanes = c.per_lane_truth ? sw->lanes() : 1;
  for (int lane = 1; lane <= lanes; ++lane) {
    if (c.lane_index >= 0 && lane != c.lane_index + 1) continue;
    const int truth_lane = c.per_lane_truth ? lane : 0;
    auto t = sw->firstCrossing(port, truth_lane, c.signal, c.level(*sw, port, truth_lane), c.direction, kEpoch, end);
    if (t && (!crossing || *t < *crossing)) crossing = t;
  }
  ASSERT_TRUE(crossing) << "the scenario never crosses the rule's level";
  ASSERT_GT(*crossing, kEpoch + onset - kMinute);

  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::vector<Sample> samples;
  for (std::int64_t t = kEpoch; t <= end; t += kInterval) {
    samples.clear();
    sw->sampleAll(t, samples);
    engine.evaluate("leaf-1", samples);
  }
  const Finding* raised = sink.firstRaise(sw->portName(port), c.rule);
  ASSERT_NE(raised, nullptr) << c.rule << " never raised";
  EXPECT_LE(raised->start_ms, *crossing + 2 * kInterval)
      << "raised " << (raised->start_ms - *crossing) / 1000 << " s after the truth crossed";
  // Read noise may flag a poll early, never much earlier.
  EXPECT_GE(raised->start_ms, *crossing - kInterval) << "raised long before the truth crossed: " << raised->detail;
  if (c.lane_index >= 0) {
    EXPECT_EQ(raised->lane, c.lane_index + 1);
  }

  // Nothing on the healthy ports.
  for (const auto& f : sink.records) EXPECT_EQ(f.port, sw->portName(port)) << f.rule << " " << f.detail;

  const auto suspects = engine.suspects();
  ASSERT_FALSE(suspects.empty());
  EXPECT_EQ(suspects.front().port, sw->portName(port));
  EXPECT_GT(suspects.front().score, 0.3);
  EXPECT_NE(suspects.front().reason.find(c.reason_word), std::string::npos) << suspects.front().reason;
}

INSTANTIATE_TEST_SUITE_P(Sim, ScenarioTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace opticsd
