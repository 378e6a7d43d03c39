// Server CPU of the operator's pages at fleet scale (issue 28's budget):
//
// - BM_OpticPage14d: the optic's page over 14 days for one module of a
//   64,000-module history file: that module polled every 30 s for 14 days
//   (sim noise through the store's deadband, as the daemon writes it), the
//   other 63,999 modules (1,000 sim switches x 64 ports x 8 lanes) stored at
//   two instants each, so the file has a 64,000-module fleet's module and
//   identity tables. Budget: <= 50 ms median.
// - BM_FleetPage64k: `/` with 64,000 modules live (1,000 targets in
//   LatestSamples and the RulesView, 640 of them scored as suspects) and the
//   history file above for stored reasons and findings. Budget: <= 200 ms.
//
// Both go through DaemonPageData, the daemon's own data source, and render the
// HTML a browser gets. The history file is built once under $TMPDIR and reused.
//
//   build/tests/bench/web/opticsd_web_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/target_freshness.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "daemon/web/daemon_page_data.hpp"
#include "daemon/web/fleet_overview.hpp"
#include "daemon/web/fleet_page.hpp"
#include "daemon/web/optic_page.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

constexpr int kSwitches = 1000;
constexpr int kPorts = 64;
constexpr std::int64_t kDayMs = 86'400'000;
constexpr std::int64_t kEnd = 1'764'547'200'000 + 14 * kDayMs;

sim::SimSwitch simSwitch(int index, int ports) {
  sim::SimSwitchConfig c;
  c.name = "leaf-" + std::to_string(index);
  c.seed = static_cast<std::uint64_t>(index) + 1;
  c.ports = ports;
  c.lanes = 8;
  c.module = "osfp-800g-2fr4";
  return std::move(*sim::SimSwitch::create(c, kEnd - 14 * kDayMs));
}

std::filesystem::path historyFile() {
  const auto path = std::filesystem::temp_directory_path() / "opticsd-web-bench-v1" / "history.db";
  if (std::filesystem::exists(path)) {
    // A file kept from an earlier build: bring its schema (indexes) up to date, as the daemon does at start.
    StoreOptions options;
    options.path = path.string();
    options.retention = std::chrono::milliseconds(0);
    options.downsample = {};
    if (auto store = SqliteStore::open(options); !store) {
      std::fprintf(stderr, "open: %s\n", store.error().message.c_str());
      std::abort();
    }
    return path;
  }
  std::filesystem::create_directories(path.parent_path());
  StoreOptions options;
  options.path = path.string() + ".tmp";
  options.retention = std::chrono::milliseconds(0);
  options.downsample = {};
  auto store = SqliteStore::open(options);
  if (!store) {
    std::fprintf(stderr, "open: %s\n", store.error().message.c_str());
    std::abort();
  }
  // The module of the page: every 30 s for 14 days.
  const auto one = simSwitch(0, 1);
  for (std::int64_t t = kEnd - 14 * kDayMs; t <= kEnd; t += 30'000) {
    std::vector<Sample> cycle;
    one.sampleAll(t, cycle);
    if (!(*store)->enqueue(std::move(cycle))) {
      (*store)->flush();
    }
    if ((t / 30'000) % 2000 == 0) (*store)->flush();
  }
  // The rest of the fleet, at two instants.
  for (int s = 1; s < kSwitches; ++s) {
    const auto sw = simSwitch(s, kPorts);
    for (std::int64_t t : {kEnd - kDayMs, kEnd}) {
      std::vector<Sample> cycle;
      sw.sampleAll(t, cycle);
      (*store)->enqueue(std::move(cycle));
    }
    if (s % 50 == 0) (*store)->flush();
  }
  (*store)->flush();
  store->reset();
  std::filesystem::rename(options.path, path);
  return path;
}

// The daemon's data source with "now" at the end of the stored history.
class BenchPageData : public web::DaemonPageData {
 public:
  using DaemonPageData::DaemonPageData;
  std::int64_t nowMs() const override { return kEnd; }
};

struct Fleet {
  LatestSamples samples;
  TargetFreshness freshness;
  std::shared_ptr<RulesView> rules = std::make_shared<RulesView>();
  std::unique_ptr<BenchPageData> data;

  explicit Fleet(const std::filesystem::path& history) {
    std::vector<std::pair<std::string, std::string>> names;
    for (int s = 0; s < kSwitches; ++s) {
      const auto sw = simSwitch(s, kPorts);
      std::vector<Sample> cycle;
      sw.sampleAll(kEnd, cycle);
      auto view = std::make_shared<TargetRulesView>();
      for (int p = 0; p < kPorts; ++p) {
        TargetRulesView::PortRow row;
        row.port = cycle[static_cast<std::size_t>(p)].port;
        row.score = p < 1 && s < 640 ? 0.1 + 0.001 * s : 0.0;
        row.ber_critical = 2.4e-4;
        row.endpoint = std::make_unique<const Endpoint>(
            Endpoint{"gpu-node-" + std::to_string(s * kPorts + p), "nic0", "0", std::to_string(p % 8), "", "", false});
        view->ports.push_back(std::move(row));
      }
      view->findings.push_back({cycle[0].port, 0, "pre_fec_ber", Severity::kWarning});
      const std::string name = "leaf-" + std::to_string(s);
      samples.replaceTarget(name, std::move(cycle));
      freshness.polledOk(name, "sim", kEnd);
      rules->replaceTarget(name, view);
      names.emplace_back(name, "sim");
    }
    data = std::make_unique<BenchPageData>(web::DaemonPageData::Sources{&samples, &freshness, rules, history});
    data->setTargets(std::move(names));
  }
};

Fleet& fleet() {
  static Fleet f(historyFile());
  return f;
}

void BM_OpticPage14d(benchmark::State& state) {
  auto& f = fleet();
  std::size_t bytes = 0, points = 0;
  for (auto _ : state) {
    auto story = web::buildOpticStory(*f.data, {"leaf-0", "Ethernet1", "14d"});
    if (!story) {
      state.SkipWithError("no story");
      return;
    }
    const std::string page = web::renderOpticPage(*story);
    bytes = page.size();
    points = 0;
    for (const auto& s : story->series) points += s.points.size();
    benchmark::DoNotOptimize(page.data());
  }
  state.counters["page_bytes"] = static_cast<double>(bytes);
  state.counters["plotted_points"] = static_cast<double>(points);
}

// The parts of BM_OpticPage14d, to see where its time goes: the store's
// bucketed read alone, then the story without rendering.
void BM_OpticSeriesRead14d(benchmark::State& state) {
  auto& f = fleet();
  SeriesRequest request;
  request.target = "leaf-0";
  request.port = "Ethernet1";
  request.module_keys = {"temperature_celsius", "pre_fec_ber_ratio", "fec_tail_symbols", "fec_margin_symbols"};
  request.lane_keys = {"rx_power_dbm",      "tx_power_dbm",     "tx_bias_milliamperes",
                       "pre_fec_ber_ratio", "fec_tail_symbols", "fec_margin_symbols"};
  request.since_ms = kEnd - 14 * kDayMs;
  request.until_ms = kEnd;
  request.buckets = 572;
  std::uint64_t rows = 0;
  for (auto _ : state) {
    auto series = f.data->historySeries(request);
    if (!series) {
      state.SkipWithError(series.error().message.c_str());
      return;
    }
    rows = series->rows_read;
    benchmark::DoNotOptimize(series->series.data());
  }
  state.counters["rows_read"] = static_cast<double>(rows);
}

void BM_OpticStory14d(benchmark::State& state) {
  auto& f = fleet();
  for (auto _ : state) {
    auto story = web::buildOpticStory(*f.data, {"leaf-0", "Ethernet1", "14d"});
    benchmark::DoNotOptimize(story->series.data());
  }
}

void BM_FleetPage64k(benchmark::State& state) {
  auto& f = fleet();
  std::size_t bytes = 0, modules = 0;
  for (auto _ : state) {
    const auto overview = web::buildFleetOverview(*f.data);
    const std::string page = web::renderFleetPage(overview);
    bytes = page.size();
    modules = overview.modules;
    benchmark::DoNotOptimize(page.data());
  }
  state.counters["page_bytes"] = static_cast<double>(bytes);
  state.counters["modules"] = static_cast<double>(modules);
}

BENCHMARK(BM_OpticPage14d)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OpticSeriesRead14d)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OpticStory14d)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FleetPage64k)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace opticsd
