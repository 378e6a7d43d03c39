// CPU per module poll through the replay path, decode included: the page
// plan (initialPages, advertisedPages), the page reads from the capture, the
// decoder, counters and link state into a Sample. Target: < 20 µs CPU per
// CMIS module per cycle.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "drivers/module/port_reading.hpp"
#include "drivers/replay/replay_directory.hpp"

namespace {

namespace fs = std::filesystem;

const opticsd::replay::ReplayPort* findPort(const opticsd::replay::ReplayDirectory& dir, const std::string& name) {
  for (const auto& p : dir.ports) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

void pollPort(benchmark::State& state, const fs::path& directory, const std::string& name) {
  auto loaded = opticsd::replay::loadReplayDirectory(directory);
  if (!loaded) {
    state.SkipWithError(loaded.error().message.c_str());
    return;
  }
  const auto* port = findPort(*loaded, name);
  if (!port) {
    state.SkipWithError("port not in capture");
    return;
  }
  std::size_t step = 0;
  std::size_t lanes = 0;
  for (auto _ : state) {
    auto reading = opticsd::replay::readingAt(*port, step++ % 3);
    auto sample = opticsd::module::sampleFromReading("host", 0, reading);
    lanes = sample.lanes.size();
    benchmark::DoNotOptimize(sample);
  }
  state.counters["lanes"] = static_cast<double>(lanes);
}

const fs::path kReplay = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/replay/synthetic-host";
const fs::path kEeprom = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/eeprom";

void BM_ReplayPollCmis(benchmark::State& state) { pollPort(state, kReplay, "osfp0"); }
void BM_ReplayPollSff8636(benchmark::State& state) { pollPort(state, kReplay, "qsfp0"); }
void BM_ReplayPollSff8472(benchmark::State& state) { pollPort(state, kReplay, "sfp0"); }

// The decoders' richest CMIS fixture (VDM pages, more page reads), replayed
// as a one-port capture made on the fly.
void BM_ReplayPollCmisVdm(benchmark::State& state) {
  const auto fixture = kEeprom / "synthetic-cmis-400g-dr4" / "module.dump";
  if (!fs::exists(fixture)) {
    state.SkipWithError("no CMIS VDM fixture");
    return;
  }
  const auto dir = fs::temp_directory_path() / "opticsd-bench-vdm";
  fs::create_directories(dir / "p0");
  fs::copy_file(fixture, dir / "p0" / "module.dump", fs::copy_options::overwrite_existing);
  pollPort(state, dir, "p0");
  fs::remove_all(dir);
}

BENCHMARK(BM_ReplayPollCmis)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReplayPollCmisVdm)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReplayPollSff8636)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReplayPollSff8472)->Unit(benchmark::kMicrosecond);

}  // namespace
