// Heap the rules engine and the pipeline's FEC BER deriver keep per module
// between polls, for the fleet of tests/bench/daemon/fleet_scrape.sh: 64-port
// switches of simulated 8-lane CMIS modules (osfp-800g-2fr4), default rules,
// 30 s polls. Each switch's Samples are made and dropped around its poll, so
// what stays allocated after the polls is what the two keep. glibc's
// mallinfo2 counts it (chunk sizes, malloc's own header included).
//
//   opticsd_rules_memory_bench --benchmark_counters_tabular=true
//
// Counters: engine_bytes_per_module (module states, their windows, slots and
// findings, the per-target maps, the published view), fec_bytes_per_module
// (previous counters per port), state_struct_bytes (sizeof the module state).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <optional>

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
  // One pass polls the fleet through the deriver alone, one through the
  // deriver and the engine; each is measured as one difference, from before
  // its objects exist to after the last poll's Samples are freed (a
  // difference per call would add up malloc's per-thread cache each time).
  const auto pass = [&](bool with_engine, double& modules_seen) {
    const std::int64_t before = heapBytes();
    std::int64_t kept = 0;
    {
      std::optional<RulesEngine> engine;
      if (with_engine) engine.emplace(defaultRuleSet(), Topology{}, nullptr);
      FecBerDeriver fec;
      {
        std::vector<Sample> samples;
        for (int poll = 0; poll < polls; ++poll) {
          const std::int64_t now = kEpoch + poll * kIntervalMs;
          for (const auto& [name, sw] : switches) {
            samples.clear();
            sw.sampleAll(now, samples);
            for (auto& s : samples) fec.apply(s);
            if (engine) engine->evaluate(name, samples);
          }
        }
      }
      kept = heapBytes() - before;
      modules_seen = static_cast<double>(engine ? engine->modules() : fec.ports());
    }
    return kept;
  };
  for (auto _ : state) {
    double ports = 0;
    double modules_seen = 0;
    const std::int64_t fec_bytes = pass(false, ports);
    const std::int64_t both_bytes = pass(true, modules_seen);
    state.counters["modules"] = modules_seen;
    state.counters["fec_ports"] = ports;
    state.counters["engine_bytes_per_module"] = static_cast<double>(both_bytes - fec_bytes) / modules;
    state.counters["fec_bytes_per_module"] = static_cast<double>(fec_bytes) / modules;
  }
  state.counters["state_struct_bytes"] = static_cast<double>(RulesEngine::moduleStateBytes());
}
// 10,048 modules as in fleet_scrape.sh; 12 polls: six minutes, every trend
// window and baseline allocated and learned.
BENCHMARK(BM_StateBytesPerModule)->Args({10'048, 12})->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opticsd
