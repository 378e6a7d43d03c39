// The lane-value paths every poll and every scrape take, on 8-lane modules
// filled as the sim fills an osfp-800g-2fr4 (9 values and 3 flags a lane):
//   Write:      a driver building the lanes of one module
//   ReadAll:    a renderer or the rules reading all 49 metrics and flags of
//               every lane (present or not), as the exporter walks them
//   ReadCommon: the rules reading Rx/Tx power, bias and pre-FEC BER
//   Copy:       copying one module's lanes (LatestSamples, transient copies)
// Uses only Lane's public interface, so the same file measures any layout.
//
//   opticsd_lane_values_bench [--benchmark_filter=ReadAll]

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <vector>

#include "drivers/sample.hpp"

namespace opticsd {
namespace {

constexpr int kLanes = 8;
constexpr std::array kSimMetrics{
    LaneMetric::kTxBiasMilliamperes, LaneMetric::kTxPowerDbm,        LaneMetric::kRxPowerDbm,
    LaneMetric::kPreFecBerRatio,     LaneMetric::kPreFecBerAvgRatio, LaneMetric::kPreFecBerMinRatio,
    LaneMetric::kPreFecBerMaxRatio,  LaneMetric::kEsnrDecibels,      LaneMetric::kHostPreFecBerRatio,
};
constexpr std::array kSimFlags{LaneMetric::kTxBiasMilliamperes, LaneMetric::kTxPowerDbm, LaneMetric::kRxPowerDbm};

std::vector<Lane> buildModule(double base) {
  std::vector<Lane> lanes;
  lanes.reserve(kLanes);
  for (int l = 1; l <= kLanes; ++l) {
    Lane lane;
    lane.number = static_cast<std::uint16_t>(l);
    double v = base + l;
    for (LaneMetric m : kSimMetrics) lane.values.set(m, v += 0.5);
    for (LaneMetric m : kSimFlags) lane.flags[static_cast<std::size_t>(m)] = AlarmFlags{};
    lanes.push_back(std::move(lane));
  }
  return lanes;
}

void BM_Write(benchmark::State& state) {
  double base = 0;
  for (auto _ : state) {
    auto lanes = buildModule(base += 1.0);
    benchmark::DoNotOptimize(lanes.data());
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}
BENCHMARK(BM_Write);

void BM_ReadAll(benchmark::State& state) {
  const auto lanes = buildModule(1.0);
  for (auto _ : state) {
    double sum = 0;
    std::size_t flagged = 0;
    for (const Lane& lane : lanes) {
      for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
        if (const Reading& v = lane.values[static_cast<LaneMetric>(m)]) sum += *v;
        if (const auto& f = lane.flags[m]) flagged += f->any() ? 2 : 1;
      }
    }
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(flagged);
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}
BENCHMARK(BM_ReadAll);

void BM_ReadCommon(benchmark::State& state) {
  const auto lanes = buildModule(1.0);
  for (auto _ : state) {
    double sum = 0;
    for (const Lane& lane : lanes) {
      for (LaneMetric m : {LaneMetric::kRxPowerDbm, LaneMetric::kTxPowerDbm, LaneMetric::kTxBiasMilliamperes,
                           LaneMetric::kPreFecBerRatio}) {
        if (const Reading& v = lane.values[m]) sum += *v;
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}
BENCHMARK(BM_ReadCommon);

void BM_Copy(benchmark::State& state) {
  const auto lanes = buildModule(1.0);
  for (auto _ : state) {
    std::vector<Lane> copy = lanes;
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
  state.counters["bytes_per_lane"] = sizeof(Lane);
}
BENCHMARK(BM_Copy);

}  // namespace
}  // namespace opticsd
