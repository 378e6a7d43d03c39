// The two mW-to-dBm paths side by side (issue 18): the decoders' table-driven
// log2 (drivers/eeprom/decode_common.hpp, opticalPowerFromTenthMicrowatts)
// and glibc's log10 behind units.hpp (opticalPowerFromMilliwatts), over the
// register values a fleet reports (0.1 uW units, -40 .. +10 dBm). A CMIS
// decode converts 24 powers (8 lanes x Tx/Rx, 8 thresholds): multiply the
// per-item difference by 24 and set it beside BM_DecodeCmis (eeprom_bench).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "drivers/eeprom/decode_common.hpp"
#include "drivers/units.hpp"

namespace {

// Register values spread evenly in dB from 1 unit (0.1 uW, -40 dBm) to 10 mW.
std::vector<double> registerValues() {
  std::vector<double> out;
  for (std::uint32_t raw = 1; raw <= 65535; raw = raw * 1031 / 1000 + 1) out.push_back(raw);
  return out;
}

template <typename Convert>
void convertLoop(benchmark::State& state, Convert convert) {
  const std::vector<double> values = registerValues();
  for (auto _ : state) {
    for (double units : values) benchmark::DoNotOptimize(convert(units));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values.size()));
}

void BM_TableLog2(benchmark::State& state) {
  convertLoop(state, [](double units) { return opticsd::eeprom::opticalPowerFromTenthMicrowatts(units); });
}
void BM_GlibcLog10(benchmark::State& state) {
  convertLoop(state, [](double units) { return opticsd::opticalPowerFromMilliwatts(units * 1e-4); });
}

BENCHMARK(BM_TableLog2);
BENCHMARK(BM_GlibcLog10);

}  // namespace
