// Cost of simulating one module for one poll: the whole Sample (identity,
// thresholds, flags, 8 lanes of values, FEC counters, link), as the driver
// builds it. Reported as us_per_module (lower is better).

#include <benchmark/benchmark.h>

#include <vector>

#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;

SimSwitchConfig switchConfig(int index, int ports, bool with_scenarios) {
  SimSwitchConfig c;
  c.name = "leaf" + std::to_string(index);
  c.seed = static_cast<std::uint64_t>(index) * 7919;
  c.ports = ports;
  if (with_scenarios) {
    // One port in eight degrading: far more than a real fleet, to price the
    // scenario path (counter tables, lane loops).
    for (int p = 0; p < ports; p += 8) {
      ScenarioSpec s;
      s.kind = static_cast<ScenarioKind>((p / 8) % 6);
      s.port_index = p;
      s.lane_index = 1;
      s.onset_ms = 60'000;
      s.ramp_ms = 30 * 60'000;
      c.scenarios.push_back(s);
    }
  }
  return c;
}

void pollFleet(benchmark::State& state, int switches, int ports, bool with_scenarios) {
  std::vector<SimSwitch> fleet;
  for (int i = 0; i < switches; ++i)
    fleet.push_back(*SimSwitch::create(switchConfig(i, ports, with_scenarios), kEpoch));
  std::vector<Sample> samples;
  samples.reserve(static_cast<std::size_t>(switches * ports));
  std::int64_t now = kEpoch + 10 * 60'000;  // mid-ramp for the scenarios
  for (auto _ : state) {
    samples.clear();
    for (const auto& sw : fleet) sw.sampleAll(now, samples);
    benchmark::DoNotOptimize(samples.data());
    now += 30'000;
  }
  const double modules = static_cast<double>(switches) * ports;
  state.counters["modules"] = modules;
  state.counters["us_per_module"] =
      benchmark::Counter(modules * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// One switch: 64 ports x 8 lanes.
void BM_Switch64Ports(benchmark::State& state) { pollFleet(state, 1, 64, false); }
void BM_Switch64PortsScenarios(benchmark::State& state) { pollFleet(state, 1, 64, true); }
// 10,000 modules: 157 switches x 64 ports (10,048).
void BM_Fleet10kModules(benchmark::State& state) { pollFleet(state, 157, 64, false); }
void BM_Fleet10kModulesScenarios(benchmark::State& state) { pollFleet(state, 157, 64, true); }

BENCHMARK(BM_Switch64Ports)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Switch64PortsScenarios)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fleet10kModules)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fleet10kModulesScenarios)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opticsd::sim
