#include "daemon/pipeline/pipeline.hpp"

#include <gtest/gtest.h>

#include <prometheus/registry.h>

namespace opticsd {
namespace {

PollReport report(const std::string& target, int modules, bool ok = true) {
  PollReport r;
  r.target = target;
  r.driver = "fake";
  r.started_ms = 1'700'000'000'000;
  r.ok = ok;
  for (int i = 0; i < modules; ++i) {
    Sample s;
    s.port = "Ethernet" + std::to_string(i + 1);
    r.result.samples.push_back(s);
  }
  if (!ok) r.result.errors.push_back("agent unreachable");
  return r;
}

std::size_t modulesOf(const LatestSamples& latest, const std::string& target) {
  for (const auto& entry : latest.snapshot()) {
    if (entry.target == target) return entry.samples->size();
  }
  return 0;
}

struct PipelineTest : ::testing::Test {
  prometheus::Registry registry;
  SelfMetrics self{registry, "test"};
  LatestSamples latest;
  Pipeline pipeline{latest, self, nullptr};
};

TEST_F(PipelineTest, StampsTargetAndTimeAndPublishes) {
  pipeline.setTargets({"leaf-1"});
  std::vector<std::string> seen;
  pipeline.addStage([&](const std::string& target, std::vector<Sample>& samples) {
    for (const auto& s : samples) {
      EXPECT_EQ(s.target, target);
      EXPECT_EQ(s.timestamp_ms, 1'700'000'000'000);
    }
    seen.push_back(target);
  });
  auto r = report("leaf-1", 3);
  pipeline.onReport(r);
  EXPECT_EQ(seen, std::vector<std::string>{"leaf-1"});
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 3u);
  EXPECT_EQ(pipeline.cycles(), 1u);
}

TEST_F(PipelineTest, FailedPollClearsTheTargetsSeries) {
  pipeline.setTargets({"leaf-1"});
  auto good = report("leaf-1", 2);
  pipeline.onReport(good);
  ASSERT_EQ(modulesOf(latest, "leaf-1"), 2u);
  auto bad = report("leaf-1", 0, false);
  pipeline.onReport(bad);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 0u) << "stale optics values must not outlive a failed poll";
}

TEST_F(PipelineTest, ResultsOfRemovedTargetsAreDropped) {
  pipeline.setTargets({"a", "b"});
  auto ra = report("a", 1);
  pipeline.onReport(ra);
  pipeline.setTargets({"b"});
  EXPECT_EQ(latest.targetCount(), 0u) << "a's series go away with it";
  auto late = report("a", 1);  // finished after the reload removed it
  pipeline.onReport(late);
  EXPECT_EQ(latest.targetCount(), 0u);
  EXPECT_EQ(pipeline.cycles(), 1u);
}

}  // namespace
}  // namespace opticsd
