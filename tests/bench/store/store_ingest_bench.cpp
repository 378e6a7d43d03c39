// Store ingest: lane-samples per second through SqliteStore (enqueue, writer
// thread, flush) beside the floor SQLite allows on the same layout: a plain
// loop of prepared inserts of packed rows in one transaction. Both write the same cycles to
// a fresh file in the same run. Target: the store at >= 70 % of the floor.
//
//   build-*/tests/bench/store/opticsd_store_bench
//
// Real time is what counts here: the store's work happens on its writer thread.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <string>

#include "daemon/store/packed_sample.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "drivers/measurement.hpp"
#include "drivers/sample.hpp"

namespace opticsd {
namespace {

constexpr int kModulesPerCycle = 256;  // e.g. 8 switches x 32 ports
constexpr int kLanes = 8;
constexpr int kCyclesPerIteration = 25;  // 51,200 lane samples per iteration

class TempFile {
 public:
  TempFile() {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() / ("opticsd-bench-" + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string path() const { return (dir_ / "history.db").string(); }

 private:
  std::filesystem::path dir_;
};

std::vector<Sample> makeCycle(std::int64_t ts_ms) {
  std::vector<Sample> cycle;
  cycle.reserve(kModulesPerCycle);
  for (int m = 0; m < kModulesPerCycle; ++m) {
    Sample s;
    s.target = "leaf-" + std::to_string(m / 32);
    s.port = "Ethernet" + std::to_string(m % 32);
    s.timestamp_ms = ts_ms;
    s.mutableIdentity().vendor = "ACME";
    s.mutableIdentity().part_number = "OSFP-800G-DR8";
    s.mutableIdentity().serial = "SN" + std::to_string(m);
    s.mutableIdentity().media = "800GBASE-DR8";
    for (std::size_t k = 0; k < kModuleMetricCount; ++k)
      s.module.set(static_cast<ModuleMetric>(k), 40.0 + m * 0.01 + k);
    s.fec.corrected_blocks_total = static_cast<std::uint64_t>(ts_ms);
    s.fec.uncorrectable_blocks_total = 0;
    s.link.up = true;
    for (int l = 1; l <= kLanes; ++l) {
      Lane lane;
      lane.number = static_cast<std::uint16_t>(l);
      for (std::size_t k = 0; k < kLaneMetricCount; ++k)
        lane.values.set(static_cast<LaneMetric>(k), -2.0 + 0.1 * l + k);
      lane.status.rx_los = false;
      lane.status.rx_lol = false;
      lane.status.tx_no_light = false;
      lane.status.rx_no_light = false;
      s.lanes.push_back(std::move(lane));
    }
    cycle.push_back(std::move(s));
  }
  return cycle;
}

void BM_StoreWriterPath(benchmark::State& state) {
  TempFile file;
  StoreOptions options;
  options.path = file.path();
  options.retention = std::chrono::milliseconds(0);
  options.max_batch_cycles = static_cast<std::size_t>(state.range(0));
  // Arg 1 = 0: every sample stored, as the floor does; 1: the default deadband
  // (the cycles repeat their values, so only the first is stored).
  if (state.range(1) == 0) options.deadband.heartbeat = std::chrono::milliseconds(0);
  auto store = SqliteStore::open(options);
  if (!store) {
    state.SkipWithError(store.error().message.c_str());
    return;
  }
  const std::vector<Sample> base = makeCycle(0);
  std::int64_t ts = 1'700'000'000'000;
  std::int64_t lanes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<std::vector<Sample>> cycles(kCyclesPerIteration, base);
    for (auto& c : cycles) {
      ts += 30'000;
      for (auto& s : c) s.timestamp_ms = ts;
    }
    state.ResumeTiming();
    for (auto& c : cycles) (*store)->enqueue(std::move(c));
    (*store)->flush();
    lanes += static_cast<std::int64_t>(kCyclesPerIteration) * kModulesPerCycle * kLanes;
  }
  const StoreStats stats = (*store)->stats();
  if (stats.dropped_samples_total != 0 || stats.write_errors_total != 0) state.SkipWithError("store dropped or failed");
  state.SetItemsProcessed(lanes);
  state.counters["lane_samples_per_s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
}

// The floor: the same rows in the same layout (one packed module_history row
// per sample, pragmas as the store sets them), prepared inserts in one
// transaction per iteration, module ids and metric codes known up front, no
// queue, no thread, no deadband, no identity bookkeeping.
void BM_PlainPreparedInsertFloor(benchmark::State& state) {
  TempFile file;
  {
    StoreOptions options;
    options.path = file.path();
    auto store = SqliteStore::open(options);  // creates the schema and the metric codes
    if (!store) {
      state.SkipWithError(store.error().message.c_str());
      return;
    }
  }
  auto db = SqliteDb::open(file.path(), SQLITE_OPEN_READWRITE);
  if (!db || !db->exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")) {
    state.SkipWithError("open");
    return;
  }
  auto codes = MetricCodes::load(*db, false);
  auto insert = db->prepare("INSERT INTO module_history (module_id, ts_ms, kind, data) VALUES (?1, ?2, 0, ?3)");
  if (!codes || !insert) {
    state.SkipWithError("prepare");
    return;
  }
  const std::vector<Sample> base = makeCycle(0);
  std::int64_t ts = 1'700'000'000'000;
  std::int64_t lanes = 0;
  for (auto _ : state) {
    db->exec("BEGIN");
    for (int c = 0; c < kCyclesPerIteration; ++c) {
      ts += 30'000;
      std::int64_t module_id = 0;
      for (const Sample& s : base) {
        const std::string data = pack(packedValues(s, *codes));
        insert->bind(1, std::optional<std::int64_t>(++module_id));
        insert->bind(2, std::optional<std::int64_t>(ts));
        sqlite3_bind_blob(insert->get(), 3, data.data(), static_cast<int>(data.size()), SQLITE_TRANSIENT);
        insert->step();
        insert->reset();
      }
    }
    db->exec("COMMIT");
    lanes += static_cast<std::int64_t>(kCyclesPerIteration) * kModulesPerCycle * kLanes;
  }
  state.SetItemsProcessed(lanes);
  state.counters["lane_samples_per_s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
}

// The polling thread's cost: enqueue only (a queue large enough never to drop).
void BM_EnqueueOnly(benchmark::State& state) {
  TempFile file;
  StoreOptions options;
  options.path = file.path();
  options.retention = std::chrono::milliseconds(0);
  auto store = SqliteStore::open(options);
  if (!store) {
    state.SkipWithError(store.error().message.c_str());
    return;
  }
  const std::vector<Sample> base = makeCycle(0);
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<Sample> c = base;
    state.ResumeTiming();
    benchmark::DoNotOptimize((*store)->enqueue(std::move(c)));
    state.PauseTiming();
    (*store)->flush();
    state.ResumeTiming();
  }
}

BENCHMARK(BM_PlainPreparedInsertFloor)->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoreWriterPath)->Args({32, 0})->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoreWriterPath)->Args({1, 0})->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoreWriterPath)->Args({32, 1})->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EnqueueOnly)->Iterations(200)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace opticsd
