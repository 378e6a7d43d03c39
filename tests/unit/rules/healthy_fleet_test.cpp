// A healthy simulated fleet of 1,000 modules of every kind, in the sim's
// realistic environment (room cycles, job warm-ups, Rx drift, BER wander, read
// noise), polled 1,000 times (30 s apart, about 8 hours), raises no finding
// and names no suspect. The 10,000-module run is the detection harness
// (tests/bench/detection, ctest -L detection).
#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "drivers/sim/noise.hpp"
#include "drivers/sim/sim_switch.hpp"
#include "tests/unit/rules/recording_sink.hpp"

namespace opticsd {
namespace {

TEST(HealthyFleet, ThousandModulesThousandCyclesInARealisticEnvironmentRaiseNothing) {
  constexpr std::int64_t kEpoch = 1'700'000'000'000;
  constexpr int kSwitchesPerProfile = 2;
  constexpr int kPorts = 125;  // 4 profiles x 2 switches x 125 ports = 1,000 modules
  std::vector<sim::SimSwitch> switches;
  for (auto name : sim::moduleProfileNames()) {
    for (int i = 0; i < kSwitchesPerProfile; ++i) {
      sim::SimSwitchConfig c;
      c.name = std::string(name) + "-" + std::to_string(i);
      c.seed = sim::hashString(c.name);
      c.ports = kPorts;
      c.module = std::string(name);
      auto sw = sim::SimSwitch::create(c, kEpoch);
      ASSERT_TRUE(sw) << sw.error().message;
      switches.push_back(std::move(*sw));
    }
  }
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::vector<Sample> samples;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    const std::int64_t now = kEpoch + cycle * 30'000LL;
    for (const auto& sw : switches) {
      samples.clear();
      sw.sampleAll(now, samples);
      engine.evaluate(sw.config().name, samples);
    }
    ASSERT_EQ(sink.raises(), 0u) << "cycle " << cycle << ": " << sink.records.front().target << " "
                                 << sink.records.front().port << " " << sink.records.front().rule << " "
                                 << sink.records.front().detail;
  }
  EXPECT_EQ(engine.modules(), 1'000u);
  EXPECT_TRUE(engine.activeFindings().empty());
  EXPECT_TRUE(engine.suspects().empty());
}

}  // namespace
}  // namespace opticsd
