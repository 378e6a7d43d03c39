// Time to render /metrics for a 10,000-module fleet: SampleCollector::render
// (Collect) and prometheus-cpp's TextSerializer, separately and together, as
// the HTTP handler runs them on a scrape; and the direct text writer
// (appendSampleExposition) producing the same bytes. Samples are built here.
//
//   opticsd_exporter_bench --benchmark_filter=DirectText
//
// BM_DirectTextSliced is the served path (metrics_exporter.cpp renders a
// slice of the families per pass while the scrape is sent).
//
// Profiles (8-lane CMIS modules, 250 targets x 40 ports):
//   Core: module temperature and Vcc; per lane bias, Tx, Rx, pre-FEC BER;
//         identity, presence, link, port FEC (about 40 series a module).
//   Full: Core plus module thresholds and flags, per-lane alarm flags, lane
//         status flags, data path state, per-lane FEC bits (about 240).

#include <benchmark/benchmark.h>
#include <prometheus/text_serializer.h>

#include <sstream>
#include <string>
#include <vector>

#include "daemon/exporter/exposition_text.hpp"
#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/sample_collector.hpp"
#include "daemon/exporter/slice_plan.hpp"

namespace {

using opticsd::LaneMetric;
using opticsd::ModuleMetric;

constexpr int kTargets = 250;
constexpr int kPortsPerTarget = 40;
constexpr int kLanes = 8;

opticsd::Sample makeSample(int target, int port, bool full) {
  opticsd::Sample s;
  s.target = "leaf-" + std::to_string(target) + ".pod1.fabric";
  s.port = "Ethernet" + std::to_string(port);
  s.mutableIdentity().family = opticsd::ModuleFamily::kCmis;
  s.mutableIdentity().form_factor = "OSFP";
  s.mutableIdentity().media = "800GBASE-2xDR4";
  s.mutableIdentity().vendor = "ACME OPTICS";
  s.mutableIdentity().part_number = "OSFP-800G-DR8";
  s.mutableIdentity().serial = "SN" + std::to_string(target * 1000 + port);
  s.mutableIdentity().revision = "A1";
  s.mutableIdentity().firmware_version = "3.4";
  s.mutableIdentity().modulation = opticsd::Modulation::kPam4;
  s.module.set(ModuleMetric::kTemperatureCelsius, 41.5 + port * 0.01);
  s.module.set(ModuleMetric::kSupplyVoltageVolts, 3.29);
  s.fec.corrected_blocks_total = 123456789ULL * static_cast<unsigned>(port + 1);
  s.fec.uncorrectable_blocks_total = 0;
  s.fec.corrected_bits_total = 987654321ULL * static_cast<unsigned>(port + 1);
  s.link.up = true;
  for (int l = 1; l <= kLanes; ++l) {
    opticsd::Lane lane;
    lane.number = static_cast<std::uint16_t>(l);
    lane.values.set(LaneMetric::kTxBiasMilliamperes, 6.123 + l * 0.1);
    lane.values.set(LaneMetric::kTxPowerDbm, 1.234 - l * 0.01);
    lane.values.set(LaneMetric::kRxPowerDbm, -2.345 - l * 0.02);
    lane.values.set(LaneMetric::kPreFecBerRatio, 2.4e-8 * l);
    if (full) {
      for (auto m : {LaneMetric::kTxBiasMilliamperes, LaneMetric::kTxPowerDbm, LaneMetric::kRxPowerDbm}) {
        lane.flags[static_cast<std::size_t>(m)] = opticsd::AlarmFlags{};
      }
      lane.status.rx_los = false;
      lane.status.tx_los = false;
      lane.status.rx_lol = false;
      lane.status.tx_lol = false;
      lane.status.tx_fault = false;
      lane.status.tx_no_light = false;
      lane.status.rx_no_light = false;
      lane.status.data_path_state = 4;
    }
    s.lanes.push_back(lane);
  }
  if (full) {
    const opticsd::Thresholds t{75.0, 70.0, -5.0, -10.0};
    s.mutableThresholds(ModuleMetric::kTemperatureCelsius) = t;
    s.mutableThresholds(ModuleMetric::kSupplyVoltageVolts) = opticsd::Thresholds{3.63, 3.46, 3.13, 2.97};
    s.module_flags[0] = opticsd::AlarmFlags{};
    s.module_flags[1] = opticsd::AlarmFlags{};
    s.mutableThresholds(LaneMetric::kTxBiasMilliamperes) = opticsd::Thresholds{15.0, 13.0, 3.0, 2.0};
    s.mutableThresholds(LaneMetric::kTxPowerDbm) = opticsd::Thresholds{5.0, 4.0, -5.0, -7.0};
    s.mutableThresholds(LaneMetric::kRxPowerDbm) = opticsd::Thresholds{5.0, 4.0, -8.0, -10.0};
    s.link.down_events_total = 3;
    s.link.speed_gbps = 800;
    for (int l = 0; l < kLanes; ++l) s.fec.lane_corrected_bits_total.push_back(1000ULL * static_cast<unsigned>(l));
  }
  return s;
}

const opticsd::LatestSamples& fleet(bool full) {
  static const auto build = [](bool f) {
    auto cache = std::make_unique<opticsd::LatestSamples>();
    for (int t = 0; t < kTargets; ++t) {
      std::vector<opticsd::Sample> samples;
      for (int p = 1; p <= kPortsPerTarget; ++p) samples.push_back(makeSample(t, p, f));
      const std::string name = samples.front().target;
      cache->replaceTarget(name, std::move(samples));
    }
    return cache;
  };
  static const auto core = build(false);
  static const auto all = build(true);
  return full ? *all : *core;
}

std::size_t seriesCount(const std::vector<prometheus::MetricFamily>& families) {
  std::size_t n = 0;
  for (const auto& f : families) n += f.metric.size();
  return n;
}

void report(benchmark::State& state, std::size_t series, std::size_t bytes) {
  state.counters["series"] = static_cast<double>(series);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["modules"] = kTargets * kPortsPerTarget;
}

void BM_Collect(benchmark::State& state) {
  const auto snapshot = fleet(state.range(0) != 0).snapshot();
  std::size_t series = 0;
  for (auto _ : state) {
    auto families = opticsd::SampleCollector::render(snapshot);
    series = seriesCount(families);
    benchmark::DoNotOptimize(families);
  }
  report(state, series, 0);
}

void BM_Serialize(benchmark::State& state) {
  const auto families = opticsd::SampleCollector::render(fleet(state.range(0) != 0).snapshot());
  const prometheus::TextSerializer serializer;
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text = serializer.Serialize(families);
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  report(state, seriesCount(families), bytes);
}

// What one scrape costs: snapshot, render, serialize (as the pull handler does).
void BM_CollectAndSerialize(benchmark::State& state) {
  const opticsd::LatestSamples& cache = fleet(state.range(0) != 0);
  const prometheus::TextSerializer serializer;
  std::size_t bytes = 0;
  std::size_t series = 0;
  for (auto _ : state) {
    auto families = opticsd::SampleCollector::render(cache.snapshot());
    std::string text = serializer.Serialize(families);
    series = seriesCount(families);
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  report(state, series, bytes);
}

// The direct writer: snapshot and text, no ClientMetric objects (same bytes).
void BM_DirectText(benchmark::State& state) {
  const opticsd::LatestSamples& cache = fleet(state.range(0) != 0);
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text;
    opticsd::appendSampleExposition(cache.snapshot(), text);
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  report(state, seriesCount(opticsd::SampleCollector::render(cache.snapshot())), bytes);
}

// As /metrics serves it, a slice of families per pass over the snapshot,
// each slice dropped once "sent" (peak memory is one slice). planned:0 is
// slices of 8 families in order, every family walked (as served before);
// planned:1 is the served path now: one counting pass, then the slices of
// slice_plan.hpp (families without series skipped, an eighth of the series
// at most per slice). The "slices" counter is the passes that render text.
void BM_DirectTextSliced(benchmark::State& state) {
  const opticsd::LatestSamples& cache = fleet(state.range(0) != 0);
  const bool planned = state.range(1) != 0;
  constexpr std::size_t kFixedSliceFamilies = 8;
  std::size_t bytes = 0;
  std::size_t slices = 0;
  for (auto _ : state) {
    const auto snapshot = cache.snapshot();
    std::vector<opticsd::FamilyRange> plan;
    if (planned) {
      const auto counts = opticsd::sampleFamilySeriesCounts(snapshot);
      std::size_t total = 0;
      for (const std::size_t n : counts) total += n;
      plan = opticsd::planSlices(counts, opticsd::sliceSeriesBound(total));
    } else {
      for (std::size_t first = 0; first < opticsd::sampleFamilyCount(); first += kFixedSliceFamilies) {
        plan.push_back({first, first + kFixedSliceFamilies});
      }
    }
    bytes = 0;
    for (const opticsd::FamilyRange& range : plan) {
      std::vector<std::string> parts;
      opticsd::appendSampleExpositionParts(snapshot, parts, range.first, range.end);
      for (const auto& p : parts) bytes += p.size();
      benchmark::DoNotOptimize(parts);
    }
    slices = plan.size();
  }
  report(state, seriesCount(opticsd::SampleCollector::render(cache.snapshot())), bytes);
  state.counters["slices"] = static_cast<double>(slices);
}

}  // namespace

BENCHMARK(BM_DirectTextSliced)
    ->ArgNames({"full", "planned"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DirectText)->ArgName("full")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Collect)->ArgName("full")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Serialize)->ArgName("full")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CollectAndSerialize)->ArgName("full")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
