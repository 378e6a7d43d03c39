#include "daemon/exporter/latest_samples.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
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

// Each poll decodes its own identity and thresholds; what is published of an
// unchanged module points at the previous poll's objects.
std::vector<Sample> moduleSamples(const std::vector<std::string>& serials, double rx_low_alarm_dbm) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < serials.size(); ++i) {
    Sample s;
    s.target = "leaf-1";
    s.port = "Ethernet" + std::to_string(i);
    s.mutableIdentity().vendor = "ACME";
    s.mutableIdentity().serial = serials[i];
    s.mutableThresholds(LaneMetric::kRxPowerDbm) = Thresholds{3.0, 2.0, -10.0, rx_low_alarm_dbm};
    out.push_back(std::move(s));
  }
  return out;
}

const Sample& publishedPort(const LatestSamples& cache, const std::string& port) {
  const auto snap = cache.after("");
  for (const Sample& s : *snap->samples) {
    if (s.port == port) return s;
  }
  throw std::runtime_error("no port " + port);
}

TEST(LatestSamples, UnchangedModuleHoldsOneIdentityAndThresholdTable) {
  LatestSamples cache;
  cache.replaceTarget("leaf-1", moduleSamples({"SN0", "SN1"}, -13.0));
  const auto first = cache.snapshot()[0].samples;
  cache.replaceTarget("leaf-1", moduleSamples({"SN0", "SN1"}, -13.0));
  const auto second = cache.snapshot()[0].samples;
  ASSERT_NE(first, second);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE((*second)[i].shared_identity.sharesWith((*first)[i].shared_identity)) << i;
    EXPECT_TRUE((*second)[i].shared_thresholds.sharesWith((*first)[i].shared_thresholds)) << i;
  }
  // Equal values of different ports are not merged across ports.
  EXPECT_FALSE((*second)[1].shared_identity.sharesWith((*second)[0].shared_identity));
}

TEST(LatestSamples, SwappedModuleShowsItsOwnIdentityAndThresholdsAtOnce) {
  LatestSamples cache;
  cache.replaceTarget("leaf-1", moduleSamples({"SN0", "SN1"}, -13.0));
  const auto first = cache.snapshot()[0].samples;
  // Ethernet1's module is swapped for one with other limits; Ethernet0 stays.
  auto swapped = moduleSamples({"SN0", "SN9"}, -13.0);
  swapped[1].mutableThresholds(LaneMetric::kRxPowerDbm)->low_alarm = -15.0;
  cache.replaceTarget("leaf-1", std::move(swapped));

  const Sample& kept = publishedPort(cache, "Ethernet0");
  const Sample& fresh = publishedPort(cache, "Ethernet1");
  EXPECT_EQ(fresh.identity().serial, "SN9");
  EXPECT_EQ(fresh.thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -15.0);
  EXPECT_FALSE(fresh.shared_identity.sharesWith((*first)[1].shared_identity));
  EXPECT_FALSE(fresh.shared_thresholds.sharesWith((*first)[1].shared_thresholds));
  EXPECT_TRUE(kept.shared_identity.sharesWith((*first)[0].shared_identity));
  // What the earlier poll published is as it was.
  EXPECT_EQ((*first)[1].identity().serial, "SN1");
  EXPECT_EQ((*first)[1].thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -13.0);

  // Limits dropped from a module read as absent, not as the previous poll's.
  auto none = moduleSamples({"SN0", "SN9"}, -13.0);
  none[1].shared_thresholds.reset();
  cache.replaceTarget("leaf-1", std::move(none));
  EXPECT_FALSE(publishedPort(cache, "Ethernet1").thresholds(LaneMetric::kRxPowerDbm));
}

TEST(LatestSamples, PortsInAnotherOrderShareByPortName) {
  LatestSamples cache;
  cache.replaceTarget("leaf-1", moduleSamples({"SN0", "SN1", "SN2"}, -13.0));
  const auto first = cache.snapshot()[0].samples;
  auto reversed = moduleSamples({"SN0", "SN1", "SN2"}, -13.0);
  std::reverse(reversed.begin(), reversed.end());
  cache.replaceTarget("leaf-1", std::move(reversed));
  const auto second = cache.snapshot()[0].samples;
  for (const Sample& s : *second) {
    const Sample& before = (*first)[static_cast<std::size_t>(s.port.back() - '0')];
    ASSERT_EQ(before.port, s.port);
    EXPECT_TRUE(s.shared_identity.sharesWith(before.shared_identity)) << s.port;
    EXPECT_EQ(s.identity().serial, before.identity().serial);
  }
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
