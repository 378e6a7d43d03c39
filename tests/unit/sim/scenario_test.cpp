#include "drivers/sim/scenario.hpp"

#include <gtest/gtest.h>

#include "drivers/sim/sim_driver.hpp"

namespace opticsd::sim {
namespace {

TEST(Scenario, NamesRoundTrip) {
  ASSERT_EQ(scenarioNames().size(), 7u);
  for (std::string_view name : validScenarioNames()) {
    auto kind = parseScenarioKind(name);
    ASSERT_TRUE(kind) << name;
    EXPECT_EQ(toString(*kind), name);
    EXPECT_GT(defaultRampMs(*kind), 0);
  }
  EXPECT_FALSE(parseScenarioKind("laser-ageing"));
  EXPECT_FALSE(parseScenarioKind(""));
}

TEST(Scenario, ProgressIsZeroBeforeOnsetLinearThenOne) {
  ScenarioSpec s;
  s.onset_ms = 1000;
  s.ramp_ms = 4000;
  EXPECT_EQ(s.progress(0), 0.0);
  EXPECT_EQ(s.progress(999), 0.0);
  EXPECT_EQ(s.progress(1000), 0.0);
  EXPECT_DOUBLE_EQ(s.progress(2000), 0.25);
  EXPECT_EQ(s.progress(5000), 1.0);
  EXPECT_EQ(s.progress(1'000'000), 1.0);
  s.ramp_ms = 0;
  EXPECT_EQ(s.progress(999), 0.0);
  EXPECT_EQ(s.progress(1000), 1.0);
}

}  // namespace
}  // namespace opticsd::sim
