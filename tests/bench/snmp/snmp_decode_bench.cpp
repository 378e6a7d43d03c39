// The pure decode path per varbind: one synthetic Arista switch (1,664 DOM
// sensors, tests/bench/snmp/synthetic_switch.hpp) turned into Samples
// through the shipped arista-eos profile, without sockets.
#include <benchmark/benchmark.h>

#include "drivers/snmp/profile.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "synthetic_switch.hpp"

namespace opticsd::snmp {
namespace {

Profile aristaProfile() {
  auto p = loadProfileFile(std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles/arista-eos.yaml");
  if (!p) throw std::runtime_error(p.error().message);
  return *p;
}

void checkSamples(benchmark::State& state, const PollResult& r) {
  if (r.samples.size() != 64 || !r.errors.empty()) state.SkipWithError("synthetic switch did not decode to 64 ports");
}

// A steady-state poll: the value and status columns through a resolved Layout.
void BM_ApplyValues(benchmark::State& state) {
  const Profile profile = aristaProfile();
  const Layout layout = resolve(profile, VarbindStore(bench::syntheticAristaSwitch()));
  const VarbindStore values(bench::syntheticAristaValues());
  PollResult last;
  for (auto _ : state) {
    last = apply(profile, layout, values, "sw1", 1000);
    benchmark::DoNotOptimize(last.samples.data());
  }
  checkSamples(state, last);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(values.size()));
}
BENCHMARK(BM_ApplyValues);

// As the driver does it: the walked varbinds go into a store, then apply().
void BM_StoreAndApplyValues(benchmark::State& state) {
  const Profile profile = aristaProfile();
  const Layout layout = resolve(profile, VarbindStore(bench::syntheticAristaSwitch()));
  const std::vector<Varbind> walked = bench::syntheticAristaValues();
  PollResult last;
  for (auto _ : state) {
    std::vector<Varbind> copy = walked;  // the session hands over its vector
    VarbindStore values;
    values.add(std::move(copy));
    last = apply(profile, layout, values, "sw1", 1000);
    benchmark::DoNotOptimize(last.samples.data());
  }
  checkSamples(state, last);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(walked.size()));
}
BENCHMARK(BM_StoreAndApplyValues);

// A first poll: resolve the slow tables (regular expressions, containment
// chains, thresholds) and apply, per varbind of the whole switch.
void BM_ResolveAndApplyAll(benchmark::State& state) {
  const Profile profile = aristaProfile();
  const VarbindStore all(bench::syntheticAristaSwitch());
  PollResult last;
  for (auto _ : state) {
    last = decode(profile, all, "sw1", 1000);
    benchmark::DoNotOptimize(last.samples.data());
  }
  checkSamples(state, last);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(all.size()));
}
BENCHMARK(BM_ResolveAndApplyAll);

}  // namespace
}  // namespace opticsd::snmp
