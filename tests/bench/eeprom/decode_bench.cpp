// Decode throughput per family on one core, with a count of heap
// allocations per decode (a global operator new that counts). The Sample is
// reused across iterations, as a driver reuses it across polls.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <vector>

#include "drivers/eeprom/decoder.hpp"
#include "drivers/eeprom/dump_file.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using opticsd::eeprom::ModuleMemory;

ModuleMemory load(const char* name) {
  const std::string path = std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/eeprom/" + name + "/module.dump";
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto memory = opticsd::eeprom::parseDumpFile(bytes);
  if (!memory) std::abort();
  return *memory;
}

void decodeLoop(benchmark::State& state, const char* fixture) {
  const ModuleMemory memory = load(fixture);
  opticsd::Sample sample;
  opticsd::eeprom::decodeModule(memory, sample);  // warm: strings and lanes reach their capacity
  if (!sample.issues.empty()) state.SkipWithError(sample.issues.front().c_str());
  const std::size_t before = g_allocations.load();
  for (auto _ : state) {
    opticsd::eeprom::decodeModule(memory, sample);
    benchmark::DoNotOptimize(sample);
  }
  state.counters["allocs_per_decode"] =
      benchmark::Counter(static_cast<double>(g_allocations.load() - before) / static_cast<double>(state.iterations()));
  state.SetItemsProcessed(state.iterations());
}

void BM_DecodeSff8472(benchmark::State& state) { decodeLoop(state, "synthetic-sfp-internal-cal"); }
void BM_DecodeSff8472External(benchmark::State& state) { decodeLoop(state, "synthetic-sfp-external-cal"); }
void BM_DecodeSff8636(benchmark::State& state) { decodeLoop(state, "synthetic-qsfp28-sr4"); }
// Full CMIS: lower + 00h + 01h + 02h + 11h + VDM group (20h/24h/28h/2Ch/2Fh).
void BM_DecodeCmisFullVdm(benchmark::State& state) { decodeLoop(state, "synthetic-cmis-400g-dr4"); }
void BM_DecodeCmis16Lanes(benchmark::State& state) { decodeLoop(state, "synthetic-cmis-osfp-2banks"); }
// Active Control Set -> AppSel 2 of two applications, 8 media lanes.
void BM_DecodeCmisActiveApplication(benchmark::State& state) { decodeLoop(state, "synthetic-cmis-osfp-800g-dr8"); }
// 1.6TBASE-DR8: 8 lanes of 200G, the active application, 8 VDM pre-FEC BER slots.
void BM_DecodeCmis1p6tDr8(benchmark::State& state) { decodeLoop(state, "synthetic-cmis-osfp-1p6t-dr8"); }
// Two VDM groups, the second with the 20 C-CMIS coherent types.
void BM_DecodeCmisCoherentVdm(benchmark::State& state) { decodeLoop(state, "synthetic-cmis-400zr"); }

void BM_ParsePageDump(benchmark::State& state) {
  const std::string text = opticsd::eeprom::writePageDump(load("synthetic-cmis-400g-dr4"));
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  for (auto _ : state) benchmark::DoNotOptimize(opticsd::eeprom::parseDumpFile(bytes));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

BENCHMARK(BM_DecodeSff8472);
BENCHMARK(BM_DecodeSff8472External);
BENCHMARK(BM_DecodeSff8636);
BENCHMARK(BM_DecodeCmisFullVdm);
BENCHMARK(BM_DecodeCmis16Lanes);
BENCHMARK(BM_DecodeCmisActiveApplication);
BENCHMARK(BM_DecodeCmis1p6tDr8);
BENCHMARK(BM_DecodeCmisCoherentVdm);
BENCHMARK(BM_ParsePageDump);

}  // namespace
