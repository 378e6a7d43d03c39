#pragma once
// Hand-built Samples and a scratch directory for the rules tests.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "drivers/sample.hpp"

namespace opticsd::test {

// A healthy NRZ optic: 40 C, 3.3 V, every lane 6 mA bias, 1 dBm Tx, -3 dBm Rx.
inline Sample optic(const std::string& target, const std::string& port, std::int64_t t, int lanes = 4) {
  Sample s;
  s.target = target;
  s.port = port;
  s.timestamp_ms = t;
  s.mutableIdentity().serial = "SN-" + target + "-" + port;
  s.mutableIdentity().media = "10GBASE-SR";
  s.mutableIdentity().modulation = Modulation::kNrz;
  s.module.set(ModuleMetric::kTemperatureCelsius, 40);
  s.module.set(ModuleMetric::kSupplyVoltageVolts, 3.3);
  for (int i = 1; i <= lanes; ++i) {
    Lane lane;
    lane.number = static_cast<std::uint16_t>(i);
    lane.values.set(LaneMetric::kTxBiasMilliamperes, 6.0);
    lane.values.set(LaneMetric::kTxPowerDbm, 1.0);
    lane.values.set(LaneMetric::kRxPowerDbm, -3.0);
    s.lanes.push_back(lane);
  }
  return s;
}

inline void setLanes(Sample& s, LaneMetric metric, double value) {
  for (auto& lane : s.lanes) lane.values.set(metric, value);
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() / ("opticsd-rules-" + std::to_string(::getpid()) + "-" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace opticsd::test
