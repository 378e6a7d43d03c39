// Store ingest: lane-samples per second through SqliteStore (enqueue, writer
// thread, flush) beside the floor SQLite allows on the same schema: a plain
// loop of prepared inserts in one transaction. Both write the same cycles to
// a fresh file in the same run. Target: the store at >= 70 % of the floor.
//
//   build-*/tests/bench/store/opticsd_store_bench
//
// Real time is what counts here: the store's work happens on its writer thread.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <string>

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
    s.identity.vendor = "ACME";
    s.identity.part_number = "OSFP-800G-DR8";
    s.identity.serial = "SN" + std::to_string(m);
    s.identity.media = "800GBASE-DR8";
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

// The floor: the same rows, the same schema and pragmas, prepared inserts in
// one transaction per iteration, module ids known up front, no queue, no thread.
void BM_PlainPreparedInsertFloor(benchmark::State& state) {
  TempFile file;
  {
    StoreOptions options;
    options.path = file.path();
    auto store = SqliteStore::open(options);  // creates the schema
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
  std::string module_sql = "INSERT INTO module_samples (module_id, ts_ms, present";
  std::string module_values = "?, ?, ?";
  for (const auto& m : kModuleMetricInfo) (module_sql += ", ") += m.key, module_values += ", ?";
  for (auto c : kModuleCounterColumns) (module_sql += ", ") += c, module_values += ", ?";
  module_sql += ") VALUES (" + module_values + ")";
  std::string lane_sql = "INSERT INTO lane_samples (module_id, lane, ts_ms";
  std::string lane_values = "?, ?, ?";
  for (const auto& m : kLaneMetricInfo) (lane_sql += ", ") += m.key, lane_values += ", ?";
  for (auto c : kLaneStatusColumns) (lane_sql += ", ") += c, lane_values += ", ?";
  lane_sql += ") VALUES (" + lane_values + ")";
  auto insert_module = db->prepare(module_sql);
  auto insert_lane = db->prepare(lane_sql);
  if (!insert_module || !insert_lane) {
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
        ++module_id;
        int i = 1;
        insert_module->bind(i++, std::optional<std::int64_t>(module_id));
        insert_module->bind(i++, std::optional<std::int64_t>(ts));
        insert_module->bind(i++, std::optional<bool>(true));
        for (std::size_t k = 0; k < kModuleMetricCount; ++k)
          insert_module->bind(i++, s.module[static_cast<ModuleMetric>(k)]);
        insert_module->bind(i++, std::optional<std::int64_t>(static_cast<std::int64_t>(*s.fec.corrected_blocks_total)));
        insert_module->bind(i++, std::optional<std::int64_t>(0));
        insert_module->bind(i++, std::optional<std::int64_t>());
        insert_module->bind(i++, s.link.up);
        insert_module->bind(i++, std::optional<std::int64_t>());
        insert_module->bind(i++, std::optional<double>());
        insert_module->step();
        insert_module->reset();
        for (const Lane& lane : s.lanes) {
          i = 1;
          insert_lane->bind(i++, std::optional<std::int64_t>(module_id));
          insert_lane->bind(i++, std::optional<std::int64_t>(lane.number));
          insert_lane->bind(i++, std::optional<std::int64_t>(ts));
          for (std::size_t k = 0; k < kLaneMetricCount; ++k)
            insert_lane->bind(i++, lane.values[static_cast<LaneMetric>(k)]);
          const LaneStatus& st = lane.status;
          for (const auto& f :
               {st.rx_los, st.tx_los, st.rx_lol, st.tx_lol, st.tx_fault, st.tx_no_light, st.rx_no_light}) {
            insert_lane->bind(i++, f);
          }
          insert_lane->bind(i++, std::optional<std::int64_t>());
          insert_lane->step();
          insert_lane->reset();
        }
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
BENCHMARK(BM_StoreWriterPath)->Arg(32)->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoreWriterPath)->Arg(1)->Iterations(10)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EnqueueOnly)->Iterations(200)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace opticsd
