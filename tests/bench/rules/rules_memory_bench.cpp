// Heap the rules engine and the pipeline's FEC BER deriver keep per module
// between polls, for the fleet of tests/bench/daemon/fleet_scrape.sh: 64-port
// switches of simulated 8-lane CMIS modules (osfp-800g-2fr4), default rules,
// 30 s polls. Each switch's Samples are made and dropped around its poll, so
// what stays allocated after the polls is what the two keep. glibc's
// mallinfo2 counts it (chunk sizes, malloc's own header included), read
// around their calls only, so the Samples are never counted.
//
//   opticsd_rules_memory_bench --benchmark_counters_tabular=true
//
// Counters: engine_bytes_per_module (module states, their windows, slots and
// findings, the per-target maps, the published view), fec_bytes_per_module
// (previous counters per port), state_struct_bytes (sizeof the module state).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include "daemon/pipeline/fec_ber_deriver.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "drivers/sim/noise.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr int kPorts = 64;
constexpr std::int64_t kIntervalMs = 30'000;

std::int64_t heapBytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<std::int64_t>(m.uordblks + m.hblkhd);
}

void BM_StateBytesPerModule(benchmark::State& state) {
  const int modules = static_cast<int>(state.range(0));
  const int polls = static_cast<int>(state.range(1));
  std::vector<std::pair<std::string, sim::SimSwitch>> switches;
  for (int i = 0; i * kPorts < modules; ++i) {
    sim::SimSwitchConfig c;
    c.module = "osfp-800g-2fr4";
    c.name = "sw-" + std::to_string(i + 1);
    c.seed = sim::hashString(c.name);
    c.ports = kPorts;
    c.lanes = 8;
    auto sw = sim::SimSwitch::create(c, kEpoch);
    if (!sw) {
      state.SkipWithError(sw.error().message.c_str());
      return;
    }
    switches.emplace_back(c.name, std::move(*sw));
  }
  for (auto _ : state) {
    std::int64_t engine_bytes = 0;
    std::int64_t fec_bytes = 0;
    {
      const std::int64_t before_engine = heapBytes();
      RulesEngine engine(defaultRuleSet(), Topology{}, nullptr);
      FecBerDeriver fec;
      engine_bytes += heapBytes() - before_engine;
      std::vector<Sample> samples;
      for (int poll = 0; poll < polls; ++poll) {
        const std::int64_t now = kEpoch + poll * kIntervalMs;
        for (const auto& [name, sw] : switches) {
          samples.clear();
          samples.shrink_to_fit();
          sw.sampleAll(now, samples);
          std::int64_t mark = heapBytes();
          for (auto& s : samples) fec.apply(s);
          std::int64_t after = heapBytes();
          fec_bytes += after - mark;
          mark = after;
          engine.evaluate(name, samples);
          engine_bytes += heapBytes() - mark;
        }
      }
      benchmark::DoNotOptimize(engine.modules());
      state.counters["modules"] = static_cast<double>(engine.modules());
      state.counters["fec_ports"] = static_cast<double>(fec.ports());
    }
    state.counters["engine_bytes_per_module"] = static_cast<double>(engine_bytes) / modules;
    state.counters["fec_bytes_per_module"] = static_cast<double>(fec_bytes) / modules;
  }
  state.counters["state_struct_bytes"] = static_cast<double>(RulesEngine::moduleStateBytes());
}
// 10,048 modules as in fleet_scrape.sh; 12 polls: six minutes, every trend
// window and baseline allocated and learned.
BENCHMARK(BM_StateBytesPerModule)->Args({10'048, 12})->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opticsd
