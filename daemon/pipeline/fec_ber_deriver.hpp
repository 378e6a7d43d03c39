#pragma once
// Pre-FEC BER from cumulative FEC counters, for every driver that reports
// them: corrected bits over the bits the port (or lane) carried since the
// previous Sample,
//
//   BER = Δcorrected_bits / (lanes × lane line rate × Δt)
//
// with the lane line rate including FEC overhead (SONiC port_rates.lua:
// 10.3125, 25.78125, 53.125, 106.25, 212.5 Gb/s per lane). Where a NIC
// counts no corrected bits, Δcorrected_blocks × bits_per_block estimates
// them.
//
// The first Sample of a port, a counter that went backwards (NIC reset,
// counters cleared), a new module serial, or a clock that did not advance
// re-baselines: no value, never a negative rate or a spike. A value the
// Sample already carries (CMIS VDM per lane, a switch's own pre-FEC BER) is
// never overwritten.
//
// Keeps the previous counters per (target, port). Not thread-safe: one
// deriver per pipeline thread.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "drivers/sample.hpp"

namespace opticsd {

// The per-lane line rate (Gb/s, FEC overhead included) for a nominal lane
// speed (Gb/s), or nullopt when the speed is not one of the table's.
std::optional<double> laneLineRateGbps(double nominal_lane_gbps);

// The lanes and per-lane line rate a port runs at, from what LinkState says
// (lane_line_rate_gbps wins; else speed/lanes through the table).
struct PortRate {
  std::uint16_t lanes = 0;
  double lane_line_rate_gbps = 0;
};
std::optional<PortRate> portRate(const LinkState& link, std::size_t lane_counters);

class FecBerDeriver {
 public:
  // Sets sample.module[kPreFecBerRatio] and, where lane counters exist, the
  // lanes' kPreFecBerRatio, from the change since this port's previous Sample.
  void apply(Sample& sample);

  // Forgets a port (removed from the config).
  void forget(const std::string& target, const std::string& port);
  // Forgets every port of a target (a reload removed it).
  void forgetTarget(const std::string& target);
  std::size_t ports() const;

 private:
  // What the next Sample of the port is compared with: the counters only
  // (bits_per_block is read from the new Sample), kept per target and then
  // per port, so the target's name is held once, not once per port.
  struct Baseline {
    std::int64_t timestamp_ms = 0;
    std::string serial;
    bool module_present = false;
    std::optional<std::uint64_t> corrected_blocks_total;
    std::optional<std::uint64_t> uncorrectable_blocks_total;
    std::optional<std::uint64_t> corrected_bits_total;
    std::vector<std::optional<std::uint64_t>> lane_corrected_bits_total;  // index 0 = lane 1
  };
  // Hashed: a poll looks up every port of its target (a tree compared ~5 names a port).
  using Ports = std::unordered_map<std::string, Baseline>;
  std::map<std::string, Ports, std::less<>> previous_;
  // The target the last Sample was of: a poll's Samples share one, so its
  // ports are found by one name comparison, not a walk of every target's
  // name (a map node stays put until erased; forget* drop this).
  struct LastTarget {
    const std::string* name = nullptr;
    Ports* ports = nullptr;
    LastTarget() = default;
    // A copied or moved deriver looks its target up afresh (these point into the old map).
    LastTarget(const LastTarget&) {}
    LastTarget& operator=(const LastTarget&) {
      name = nullptr;
      ports = nullptr;
      return *this;
    }
  };
  LastTarget last_;
};

}  // namespace opticsd
