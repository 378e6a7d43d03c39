#pragma once
// Shared helpers for the store tests: a temp directory that cleans up, sample
// builders, and a bounded wait for the writer thread (not a timing assertion:
// it only gives up on a hung writer).

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <thread>

#include "drivers/sample.hpp"

namespace opticsd::test {

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("opticsd-store-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A module with every value set, distinct per metric, lane and time.
inline Sample fullSample(const std::string& target, const std::string& port, std::int64_t ts_ms, int lanes = 4,
                         const std::string& serial = "SN0001") {
  Sample s;
  s.target = target;
  s.port = port;
  s.timestamp_ms = ts_ms;
  s.mutableIdentity().family = ModuleFamily::kCmis;
  s.mutableIdentity().form_factor = "OSFP";
  s.mutableIdentity().media = "400GBASE-DR4";
  s.mutableIdentity().vendor = "ACME";
  s.mutableIdentity().part_number = "OPT-400";
  s.mutableIdentity().serial = serial;
  s.mutableIdentity().firmware_version = "1.2";
  s.mutableIdentity().wavelength_nm = 1310.0;
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) s.module.set(static_cast<ModuleMetric>(m), 10.5 + m);
  s.fec.corrected_blocks_total = 1000;
  s.fec.uncorrectable_blocks_total = 3;
  s.fec.corrected_bits_total = 123456789012345ull;
  s.link.up = true;
  s.link.down_events_total = 2;
  s.link.speed_gbps = 400;
  for (int l = 1; l <= lanes; ++l) {
    Lane lane;
    lane.number = static_cast<std::uint16_t>(l);
    for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
      lane.values.set(static_cast<LaneMetric>(m), -1.25 * static_cast<double>(m + 1) - l * 0.01);
    }
    lane.status.rx_los = (l == 2);
    lane.status.tx_los = false;
    lane.status.rx_lol = false;
    lane.status.tx_lol = false;
    lane.status.tx_fault = false;
    lane.status.tx_no_light = false;
    lane.status.rx_no_light = (l == 2);
    lane.status.data_path_state = 4;
    s.lanes.push_back(lane);
  }
  return s;
}

inline std::vector<Sample> cycle(const std::string& target, int ports, std::int64_t ts_ms, int lanes = 8) {
  std::vector<Sample> out;
  for (int p = 1; p <= ports; ++p) out.push_back(fullSample(target, "Ethernet" + std::to_string(p), ts_ms, lanes));
  return out;
}

inline bool waitFor(const std::function<bool()>& done, std::chrono::seconds limit = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// A raw connection for poking at the file the way another process would.
class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    sqlite3_open(path.c_str(), &db_);
    sqlite3_busy_timeout(db_, 5000);
  }
  ~RawDb() { sqlite3_close_v2(db_); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;
  sqlite3* get() const { return db_; }
  int exec(const std::string& sql) { return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr); }
  std::int64_t count(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    std::int64_t n = -1;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
      n = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    return n;
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace opticsd::test
