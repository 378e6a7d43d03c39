// A simulated module's lanes fit the sparse lane storage's inline room (no
// heap a lane) and hold no slot without a value: the layout's saving at fleet
// scale rests on both (drivers/sparse_metric_array.hpp).

#include <gtest/gtest.h>

#include <string>

#include "drivers/plausibility.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;

std::size_t presentValues(const Lane& lane) {
  std::size_t n = 0;
  for (std::size_t m = 0; m < kLaneMetricCount; ++m) n += lane.values[static_cast<LaneMetric>(m)].has_value();
  return n;
}

std::size_t presentFlags(const Lane& lane) {
  std::size_t n = 0;
  for (const auto& f : lane.flags) n += f.has_value();
  return n;
}

TEST(SimLaneStorage, EveryProfileFitsInlineWithNoEmptySlot) {
  for (const ModuleProfile& profile : moduleProfiles()) {
    SCOPED_TRACE(std::string(profile.name));
    SimSwitchConfig c;
    c.name = "leaf1";
    c.module = std::string(profile.name);
    c.ports = 4;
    auto sw = SimSwitch::create(std::move(c), kEpoch);
    ASSERT_TRUE(sw) << sw.error().message;
    for (int p = 0; p < 4; ++p) {
      Sample s = sw->sampleAt(p, kEpoch + p * 61'000);
      dropImplausibleValues(s);  // the pipeline's first pass reads every lane metric
      ASSERT_FALSE(s.lanes.empty());
      for (const Lane& l : s.lanes) {
        EXPECT_GT(presentValues(l), 0u);
        EXPECT_EQ(l.values.slotCount(), presentValues(l)) << "lane " << l.number;
        EXPECT_EQ(l.flags.slotCount(), presentFlags(l)) << "lane " << l.number;
        EXPECT_LE(l.values.slotCount(), kLaneValuesInline) << "lane " << l.number;
        EXPECT_LE(l.flags.slotCount(), kLaneFlagsInline) << "lane " << l.number;
      }
    }
  }
}

}  // namespace
}  // namespace opticsd::sim
