// Cost of turning one poll of a 64-port 800G switch (8-lane CMIS modules, as
// tests/bench/daemon/remote_write_fleet.sh polls them) into the snappy-
// compressed remote-write request opticsd POSTs: series, labels, protobuf and
// snappy. Reported per sample (time_per_sample); a 64,000-module fleet at 30 s
// pushes about 141,000 samples/s, so 1 us per sample is 14 % of a core.

#include <benchmark/benchmark.h>

#include <map>
#include <vector>

#include "daemon/remote_write/write_request_encoder.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;

std::vector<Sample> switchPoll() {
  sim::SimSwitchConfig c;
  c.name = "sw-1";
  c.seed = 7919;
  c.ports = 64;
  c.lanes = 8;
  c.module = "osfp-800g-2fr4";
  std::vector<Sample> samples;
  sim::SimSwitch::create(c, kEpoch)->sampleAll(kEpoch + 600'000, samples);
  return samples;
}

void BM_EncodeSwitchPoll(benchmark::State& state) {
  const std::vector<Sample> samples = switchPoll();
  const ExportPolicy policy;
  const std::map<std::string, std::string> external{{"cluster", "bench"}};
  std::uint64_t series = 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    EncodedWrite write = encodeWriteRequest("sw-1", samples, &policy, external);
    series += write.samples;
    bytes = write.body.size();
    benchmark::DoNotOptimize(write.body.data());
  }
  state.counters["samples_per_request"] = static_cast<double>(series) / static_cast<double>(state.iterations());
  state.counters["snappy_bytes"] = static_cast<double>(bytes);
  // Seconds per sample (printed with its SI prefix: 1.5u is 1.5 us).
  state.counters["time_per_sample"] =
      benchmark::Counter(static_cast<double>(series), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EncodeSwitchPoll)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opticsd
