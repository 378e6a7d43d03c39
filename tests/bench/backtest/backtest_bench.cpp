// Backtest speed: a fleet's stored history replayed on one core.
//
//   build/tests/bench/backtest/opticsd_backtest_bench [modules=10000] [days=30] [rows_per_module_day=72] [file]
//
// Generates the history file first (kept at `file` and reused when it exists,
// default in the temp directory), written straight through the store's own
// row format (packedValues, pack) in one transaction per 25 switches: sim
// switches of 32 QSFP-DD 400G DR4 ports with a dirty connector on one port of
// every 50th switch from day 10. Every module gets `rows_per_module_day`
// evenly spaced rows. 72 is what the default deadband keeps of a healthy
// fleet: of its 2,880 polls a day at 30 s, 2.5 % are stored
// (tests/bench/store/opticsd_store_size_bench, README Sizing), almost all of
// them heartbeats, one per 20 minutes = 72 a day; noise alone rarely crosses
// a tolerance. Downsampling (one row per 5 minutes after 2 days) keeps all of
// them. A fleet that degrades stores more, around its findings. Each module's
// own thresholds are recorded once (module_thresholds), as the daemon does.
// Then times runBacktest() over the whole file with the shipped rules and
// prints rows, seconds and microseconds per row, and a fixed loop's CPU time
// before and after (the core's speed at the time: read the figures by it).

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/backtest/backtest.hpp"
#include "daemon/store/packed_sample.hpp"
#include "daemon/store/sample_rows.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/threshold_rows.hpp"
#include "drivers/sim/noise.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kDay = 86'400'000;
constexpr int kPorts = 32;

bool check(const Result<void>& r, const char* what) {
  if (!r) std::fprintf(stderr, "%s: %s\n", what, r.error().message.c_str());
  return static_cast<bool>(r);
}

int generate(const std::filesystem::path& path, int modules, int days, int rows_per_day) {
  auto db = SqliteDb::open(path.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db) return std::fprintf(stderr, "%s\n", db.error().message.c_str()), 2;
  if (auto v = migrate(*db); !v) return std::fprintf(stderr, "%s\n", v.error().message.c_str()), 2;
  auto codes = MetricCodes::load(*db, true);
  if (!codes) return 2;
  if (!check(db->exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; BEGIN"),
             "begin"))
    return 2;
  std::vector<sim::SimSwitch> fleet;
  const int switches = (modules + kPorts - 1) / kPorts;
  std::string identity_sql =
      "INSERT INTO module_identities (module_id, " + identityColumns() + ", first_seen_ms, last_seen_ms) VALUES (?1";
  for (std::size_t i = 0; i < kIdentityTextInfo.size() + kIdentityNumberInfo.size() + 2; ++i) {
    identity_sql += ", ?" + std::to_string(i + 2);
  }
  identity_sql += ")";
  auto add_module = db->prepare("INSERT INTO modules (id, target, port) VALUES (?1, ?2, ?3)");
  auto add_identity = db->prepare(identity_sql);
  auto add_row = db->prepare("INSERT INTO module_history (module_id, ts_ms, kind, data) VALUES (?1, ?2, ?3, ?4)");
  if (!add_module || !add_identity || !add_row) return 2;
  // Each module's own limits, as the daemon records them (schema 9): the
  // replay judges module_alarm and alarm_forecast against them.
  auto add_thresholds = ThresholdRows::prepare(*db);
  if (!add_thresholds) return std::fprintf(stderr, "%s\n", add_thresholds.error().message.c_str()), 2;
  std::vector<Sample> samples;
  for (int w = 0; w < switches; ++w) {
    sim::SimSwitchConfig c;
    c.name = "leaf-" + std::to_string(w);
    c.seed = sim::hashString(c.name);
    c.ports = kPorts;
    c.module = "qsfp-dd-400g-dr4";
    if (w % 50 == 0) c.scenarios.push_back({sim::ScenarioKind::kDirtyConnector, 0, -1, 10 * kDay, kDay});
    auto sw = sim::SimSwitch::create(c, kEpoch);
    if (!sw) return std::fprintf(stderr, "%s\n", sw.error().message.c_str()), 2;
    fleet.push_back(std::move(*sw));
    samples.clear();
    fleet.back().sampleAll(kEpoch, samples);
    for (int p = 0; p < kPorts; ++p) {
      const std::int64_t id = static_cast<std::int64_t>(w) * kPorts + p + 1;
      add_module->bind(1, std::optional<std::int64_t>(id));
      add_module->bind(2, std::string_view(c.name));
      add_module->bind(3, std::string_view(samples[static_cast<std::size_t>(p)].port));
      add_module->step();
      add_module->reset();
      const ModuleIdentity& m = samples[static_cast<std::size_t>(p)].identity();
      int col = 1;
      add_identity->bind(col++, std::optional<std::int64_t>(id));
      for (const auto& f : kIdentityTextInfo) add_identity->bind(col++, f.text(m));
      for (const auto& f : kIdentityNumberInfo) add_identity->bind(col++, m.*f.member);
      add_identity->bind(col++, std::optional<std::int64_t>(kEpoch));
      add_identity->bind(col++, std::optional<std::int64_t>(kEpoch + days * kDay));
      add_identity->step();
      add_identity->reset();
      if (!check(add_thresholds->record(*db, id, samples[static_cast<std::size_t>(p)], *codes), "thresholds")) return 2;
    }
  }
  // Switch by switch, each switch's month in time order: the primary key
  // (module_id, ts_ms) then grows within a small range of pages, so the
  // inserts stay in the page cache (in time order over the whole fleet every
  // insert lands on another page: far slower, and not what the writer does
  // either, whose batches are one poll of a few switches).
  const std::int64_t step = kDay / rows_per_day;
  std::int64_t rows = 0;
  std::string blob;
  for (int w = 0; w < switches; ++w) {
    const std::int64_t first_id = static_cast<std::int64_t>(w) * kPorts + 1;
    for (std::int64_t t = kEpoch; t < kEpoch + days * kDay; t += step) {
      samples.clear();
      fleet[static_cast<std::size_t>(w)].sampleAll(t, samples);
      for (int p = 0; p < kPorts && w * kPorts + p < modules; ++p) {
        add_row->bind(1, std::optional<std::int64_t>(first_id + p));
        add_row->bind(2, std::optional<std::int64_t>(t));
        add_row->bind(3, std::optional<std::int64_t>(static_cast<std::int64_t>(RowKind::kHeartbeat)));
        blob = pack(packedValues(samples[static_cast<std::size_t>(p)], *codes));
        sqlite3_bind_blob(add_row->get(), 4, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
        if (add_row->step() != SQLITE_DONE) return std::fprintf(stderr, "%s\n", db->error("insert").c_str()), 2;
        add_row->reset();
        ++rows;
      }
    }
    if (w % 25 == 24 || w + 1 == switches) {
      if (!check(db->exec("COMMIT; BEGIN"), "commit")) return 2;
      std::fprintf(stderr, "generated %d of %d switches, %lld rows\n", w + 1, switches, static_cast<long long>(rows));
    }
  }
  if (!check(db->exec("COMMIT"), "commit")) return 2;
  return 0;
}

// CPU seconds of a fixed integer loop (no memory): how fast this core runs
// now. On a shared VM the host's clock moves (the same replay took 58 s and
// 91 s within an hour while this loop went from 0.15 s to 0.25 s), so the
// replay's figure is read next to this one.
double referenceLoopSeconds() {
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  volatile std::uint64_t x = 0;
  for (std::uint64_t i = 0; i < 400'000'000; ++i) x = x + (i ^ (i >> 3));
  getrusage(RUSAGE_SELF, &after);
  const auto seconds = [](const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6;
  };
  return seconds(after) - seconds(before);
}

}  // namespace
}  // namespace opticsd

int main(int argc, char** argv) {
  using namespace opticsd;
  const int modules = argc > 1 ? std::atoi(argv[1]) : 10'000;
  const int days = argc > 2 ? std::atoi(argv[2]) : 30;
  const int rows_per_day = argc > 3 ? std::atoi(argv[3]) : 72;
  const std::filesystem::path path = argc > 4 ? std::filesystem::path(argv[4])
                                              : std::filesystem::temp_directory_path() /
                                                    ("opticsd-backtest-bench-" + std::to_string(modules) + "-" +
                                                     std::to_string(days) + "-" + std::to_string(rows_per_day) + ".db");
  if (modules <= 0 || days <= 0 || rows_per_day <= 0) {
    std::fprintf(stderr, "usage: %s [modules] [days] [rows_per_module_day] [file]\n", argv[0]);
    return 2;
  }
  if (!std::filesystem::exists(path)) {
    const auto t0 = std::chrono::steady_clock::now();
    if (int rc = generate(path.string() + ".part", modules, days, rows_per_day); rc != 0) return rc;
    std::filesystem::rename(path.string() + ".part", path);
    std::error_code ec;
    std::filesystem::remove(path.string() + ".part-wal", ec);
    std::filesystem::remove(path.string() + ".part-shm", ec);
    std::fprintf(stderr, "generated %s in %.0f s\n", path.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  BacktestOptions o;
  o.db = path;
  o.running = defaultRuleSet();
  // CPU time as well as wall time: the machine may be shared.
  const auto cpu = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  // The first loop after start also times the core's climb from idle: the second is the figure.
  (void)referenceLoopSeconds();
  const double reference_before = referenceLoopSeconds();
  const double cpu0 = cpu();
  const auto t0 = std::chrono::steady_clock::now();
  auto r = runBacktest(o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_seconds = cpu() - cpu0;
  const double reference_after = referenceLoopSeconds();
  if (!r) return std::fprintf(stderr, "%s\n", r.error().message.c_str()), 1;
  std::printf(
      "backtest: %zu modules, %.0f module-days, %zu stored rows replayed in %.1f s wall, %.1f s CPU (%.2f us CPU a "
      "row), %zu findings, %zu events, %zu bytes on disk\n",
      r->modules, r->module_days, r->rows, seconds, cpu_seconds,
      1e6 * cpu_seconds / static_cast<double>(std::max<std::size_t>(1, r->rows)), r->findings.size(), r->events.size(),
      static_cast<std::size_t>(std::filesystem::file_size(path)));
  std::printf("reference loop (this core's speed now, lower is faster): %.3f s before, %.3f s after\n",
              reference_before, reference_after);
  return 0;
}
