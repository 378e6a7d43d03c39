// History size and query time at the defaults, on the sim fleet's realistic
// noise: `switches` simulated switches of 64 ports x 8 lanes (800G DR8) polled
// every 30 s for `hours`, through SqliteStore with the default deadband (and
// downsampling, which only thins rows older than 2 days). Prints the bytes per
// module-sample, the stored rows per poll, the extrapolation to 14 days of
// 64,000 modules at 30 s, and the time of a 14-day `history` query of one
// module. Bounded: the defaults run in well under a minute.
//
//   build/tests/bench/store/opticsd_store_size_bench [switches=40] [hours=6] [heartbeat minutes, 0 = off]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "daemon/store/history_format.hpp"
#include "daemon/store/history_query.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

std::int64_t pragma(SqliteDb& db, const char* sql) {
  auto st = db.prepare(sql);
  return st && st->step() == SQLITE_ROW ? st->columnInt(0).value_or(0) : -1;
}

int run(int switches, int hours, int heartbeat_min) {
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() / ("opticsd-size-bench-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  StoreOptions options;
  options.path = dir / "history.db";
  options.downsample = {{std::chrono::hours(48), std::chrono::minutes(5)}};  // the config default
  if (heartbeat_min >= 0) options.deadband.heartbeat = std::chrono::minutes(heartbeat_min);
  auto store = SqliteStore::open(options);
  if (!store) {
    std::fprintf(stderr, "open: %s\n", store.error().message.c_str());
    return 1;
  }
  const std::int64_t start = 1'764'547'200'000;  // 2025-12-01T00:00:00Z
  std::vector<sim::SimSwitch> fleet;
  for (int s = 0; s < switches; ++s) {
    sim::SimSwitchConfig c;
    c.name = "leaf-" + std::to_string(s);
    c.seed = static_cast<std::uint64_t>(s) + 1;
    c.ports = 64;
    c.lanes = 8;
    c.module = "osfp-800g-2fr4";
    auto sw = sim::SimSwitch::create(c, start);
    if (!sw) {
      std::fprintf(stderr, "sim: %s\n", sw.error().message.c_str());
      return 1;
    }
    fleet.push_back(std::move(*sw));
  }
  const int polls = hours * 120;
  const auto t0 = std::chrono::steady_clock::now();
  for (int p = 0; p < polls; ++p) {
    const std::int64_t now = start + static_cast<std::int64_t>(p) * 30'000;
    for (const auto& sw : fleet) {
      std::vector<Sample> cycle;
      sw.sampleAll(now, cycle);
      (*store)->enqueue(std::move(cycle));
    }
    if (p % 20 == 19) (*store)->flush();  // the queue (4,096 cycles) never overflows
  }
  (*store)->flush();
  const double ingest_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const StoreStats stats = (*store)->stats();
  store->reset();

  auto db = SqliteDb::open(options.path.string(), SQLITE_OPEN_READWRITE);
  if (!db) return 1;
  (void)db->exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const std::int64_t used =
      (pragma(*db, "PRAGMA page_count") - pragma(*db, "PRAGMA freelist_count")) * pragma(*db, "PRAGMA page_size");
  const std::int64_t rows = pragma(*db, "SELECT count(*) FROM module_history");
  const std::int64_t heartbeats = pragma(*db, "SELECT count(*) FROM module_history WHERE kind = 1");
  const double samples = static_cast<double>(stats.written_samples_total);
  const double bytes_per_sample = static_cast<double>(used) / samples;
  const double fleet_samples = 14.0 * 86'400 / 30 * 64'000;
  std::printf(
      "fleet: %d switches x 64 ports x 8 lanes, %d h at 30 s: %.0f module-samples in %.1f s (%.0f/s), %lld dropped\n",
      switches, hours, samples, ingest_s, samples / ingest_s, static_cast<long long>(stats.dropped_samples_total));
  std::printf("stored rows: %lld (%.2f%% of polls; %lld heartbeats), %.1f bytes per stored row\n",
              static_cast<long long>(rows), 100.0 * static_cast<double>(rows) / samples,
              static_cast<long long>(heartbeats), static_cast<double>(used) / static_cast<double>(rows));
  std::printf("file in use: %lld bytes = %.2f bytes per module-sample (8 lanes)\n", static_cast<long long>(used),
              bytes_per_sample);
  std::printf("extrapolated: 14 d x 64,000 modules x 30 s = %.3g module-samples -> %.2f GiB\n", fleet_samples,
              fleet_samples * bytes_per_sample / (1024.0 * 1024 * 1024));

  // For the query: the simulated span repeated to 14 days (the rows of one
  // module are one range of the primary key, whatever the file's size).
  const std::int64_t span_ms = static_cast<std::int64_t>(hours) * 3'600'000;
  auto copy = db->prepare(
      "INSERT OR IGNORE INTO module_history SELECT module_id, ts_ms + ?1, kind, data FROM module_history "
      "WHERE ts_ms < ?2");
  if (!copy) return 1;
  (void)db->exec("BEGIN");
  for (std::int64_t shift = span_ms; shift < 14LL * 86'400'000; shift += span_ms) {
    copy->bind(1, std::optional<std::int64_t>(shift));
    copy->bind(2, std::optional<std::int64_t>(start + span_ms));
    copy->step();
    copy->reset();
  }
  (void)db->exec("COMMIT");
  const std::int64_t big_rows = pragma(*db, "SELECT count(*) FROM module_history");
  const std::int64_t big_bytes = pragma(*db, "PRAGMA page_count") * pragma(*db, "PRAGMA page_size");
  std::printf("query database: the %d h repeated to 14 days: %lld rows, %.2f GiB\n", hours,
              static_cast<long long>(big_rows), static_cast<double>(big_bytes) / (1024.0 * 1024 * 1024));
  auto query = HistoryQuery::open(options.path.string());
  if (!query) return 1;
  HistoryFilter filter;
  filter.target = "leaf-0";
  filter.port = fleet[0].portName(1);
  filter.since_ms = start;  // 14 days back from the end of the repeated span
  double best_query_ms = 1e9;
  double best_text_ms = 1e9;
  std::size_t rows_out = 0;
  std::size_t text_bytes = 0;
  for (int i = 0; i < 5; ++i) {
    const auto q0 = std::chrono::steady_clock::now();
    auto r = query->query(filter);
    if (!r) return 1;
    const auto q1 = std::chrono::steady_clock::now();
    text_bytes = formatHistoryTable(*r).size();
    const auto q2 = std::chrono::steady_clock::now();
    rows_out = r->rows.size();
    best_query_ms = std::min(best_query_ms, std::chrono::duration<double, std::milli>(q1 - q0).count());
    best_text_ms = std::min(best_text_ms, std::chrono::duration<double, std::milli>(q2 - q1).count());
  }
  std::printf("history --since 14d of %s %s: %zu rows; query %.2f ms, table text %.2f ms (%zu bytes), best of 5\n",
              filter.target.c_str(), filter.port.c_str(), rows_out, best_query_ms, best_text_ms, text_bytes);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return 0;
}

}  // namespace
}  // namespace opticsd

int main(int argc, char** argv) {
  const int switches = argc > 1 ? std::atoi(argv[1]) : 40;
  const int hours = argc > 2 ? std::atoi(argv[2]) : 6;
  const int heartbeat_min = argc > 3 ? std::atoi(argv[3]) : -1;  // -1: the default
  if (switches < 1 || hours < 1) {
    std::fprintf(stderr, "usage: %s [switches >= 1] [hours >= 1]\n", argv[0]);
    return 2;
  }
  return opticsd::run(switches, hours, heartbeat_min);
}
