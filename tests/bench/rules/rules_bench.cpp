// Rules evaluation cost per module per cycle with the default rule set, for
// a fleet of 10,000 simulated modules (4 module kinds, 1 to 8 lanes). Samples
// are generated before timing; only RulesEngine::evaluate is measured, after
// one untimed warm-up cycle (the first poll of a module resolves its profile
// and allocates its state, which a daemon does once, not every cycle).
//
// For an instruction count of the steady state alone:
//   valgrind --tool=callgrind --toggle-collect='*evaluateCycle*' opticsd_rules_bench
// and divide the Ir by (calls of evaluateCycle x 10,000).
#include <benchmark/benchmark.h>

#include "daemon/rules/rules_engine.hpp"
#include "drivers/sim/noise.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;

using Cycle = std::vector<std::pair<std::string, std::vector<Sample>>>;

void stamp(Cycle& cycle, std::int64_t now) {
  for (auto& [name, samples] : cycle) {
    for (auto& s : samples) s.timestamp_ms = now;
  }
}

// Not inlined, so that callgrind can count the measured part alone.
[[gnu::noinline]] void evaluateCycle(RulesEngine& engine, const Cycle& cycle) {
  for (const auto& [name, samples] : cycle) engine.evaluate(name, samples);
}

void BM_EvaluateFleet(benchmark::State& state) {
  const int modules = static_cast<int>(state.range(0));
  const int ports = 250;
  Cycle cycle;
  const auto names = sim::moduleProfileNames();
  for (int i = 0; i * ports < modules; ++i) {
    sim::SimSwitchConfig c;
    c.module = std::string(names[static_cast<std::size_t>(i) % names.size()]);
    c.name = "sw-" + std::to_string(i);
    c.seed = sim::hashString(c.name);
    c.ports = ports;
    auto sw = sim::SimSwitch::create(c, kEpoch);
    std::vector<Sample> samples;
    sw->sampleAll(kEpoch, samples);
    cycle.emplace_back(c.name, std::move(samples));
  }
  RulesEngine engine(defaultRuleSet(), Topology{}, nullptr);
  std::int64_t now = kEpoch;
  for (const auto& [name, samples] : cycle) engine.evaluate(name, samples);  // warm-up
  for (auto _ : state) {
    state.PauseTiming();
    stamp(cycle, now += 30'000);
    state.ResumeTiming();
    evaluateCycle(engine, cycle);
  }
  state.SetItemsProcessed(state.iterations() * modules);
  state.counters["ns_per_module"] = benchmark::Counter(static_cast<double>(state.iterations() * modules),
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["state_bytes"] = static_cast<double>(RulesEngine::moduleStateBytes());
}
BENCHMARK(BM_EvaluateFleet)->Arg(10'000)->Unit(benchmark::kMillisecond)->MinTime(5.0);

}  // namespace
}  // namespace opticsd
