#include "daemon/exporter/latest_samples.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace opticsd {
namespace {

std::vector<Sample> samplesFor(const std::string& target, int count, double temperature) {
  std::vector<Sample> out;
  for (int i = 0; i < count; ++i) {
    Sample s;
    s.target = target;
    s.port = "Ethernet" + std::to_string(i);
    s.module.set(ModuleMetric::kTemperatureCelsius, temperature);
    out.push_back(std::move(s));
  }
  return out;
}

TEST(LatestSamples, ReplaceRemoveAndSnapshot) {
  LatestSamples cache;
  EXPECT_TRUE(cache.snapshot().empty());
  cache.replaceTarget("spine-2", samplesFor("spine-2", 2, 30));
  cache.replaceTarget("leaf-1", samplesFor("leaf-1", 3, 40));
  auto snap = cache.snapshot();
  ASSERT_EQ(snap.size(), 2u);
  EXPECT_EQ(snap[0].target, "leaf-1");  // sorted by target
  EXPECT_EQ(snap[0].samples->size(), 3u);
  EXPECT_EQ(snap[1].target, "spine-2");

  cache.replaceTarget("leaf-1", samplesFor("leaf-1", 1, 50));
  // The earlier snapshot still sees what it took: readers never see a torn update.
  EXPECT_EQ(snap[0].samples->size(), 3u);
  auto fresh = cache.snapshot();
  ASSERT_EQ(fresh[0].samples->size(), 1u);
  EXPECT_EQ(*(*fresh[0].samples)[0].module[ModuleMetric::kTemperatureCelsius], 50);

  cache.removeTarget("leaf-1");
  cache.removeTarget("never-there");
  fresh = cache.snapshot();
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_EQ(fresh[0].target, "spine-2");
  EXPECT_EQ(cache.targetCount(), 1u);
}

// A writer keeps replacing a target with internally consistent generations
// (every Sample of generation g carries temperature g); a reader checks that
// every snapshot it takes is one whole generation, never a mix, and that
// generations never go backwards.
TEST(LatestSamples, ConcurrentWriterAndReaderSeeWholeGenerations) {
  LatestSamples cache;
  constexpr int kGenerations = 2000;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int g = 1; g <= kGenerations; ++g) cache.replaceTarget("t", samplesFor("t", 16, g));
    done = true;
  });
  int torn = 0;
  int backwards = 0;
  double last = 0;
  int reads = 0;
  while (!done || reads == 0) {
    for (const auto& entry : cache.snapshot()) {
      const double first = *(*entry.samples)[0].module[ModuleMetric::kTemperatureCelsius];
      for (const Sample& s : *entry.samples) {
        if (*s.module[ModuleMetric::kTemperatureCelsius] != first) ++torn;
      }
      if (first < last) ++backwards;
      last = first;
    }
    ++reads;
  }
  writer.join();
  EXPECT_EQ(torn, 0);
  EXPECT_EQ(backwards, 0);
  auto final_snapshot = cache.snapshot();
  ASSERT_EQ(final_snapshot.size(), 1u);
  EXPECT_EQ(*(*final_snapshot[0].samples)[0].module[ModuleMetric::kTemperatureCelsius], kGenerations);
}

}  // namespace
}  // namespace opticsd
