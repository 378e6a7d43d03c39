#pragma once
// The Sample: one module at one instant, as every driver produces it and
// every sink consumes it. Every value is optional: "not reported" is a state
// of its own, never 0 and never NaN.
//
// A Sample is a plain value type; it is built on one thread and then moved or
// copied, never shared mutably.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/measurement.hpp"

namespace opticsd {

enum class ModuleFamily : std::uint8_t { kUnknown, kSff8472, kSff8636, kCmis };
std::string_view toString(ModuleFamily family);

enum class Modulation : std::uint8_t { kUnknown, kNrz, kPam4 };
std::string_view toString(Modulation modulation);

// One CMIS Application Descriptor (lower page bytes 86-117, page 01h 223-250,
// media lane assignment page 01h 176-190), by its SFF-8024 codes.
struct ModuleApplication {
  std::uint8_t app_sel = 0;  // 1-15
  std::uint8_t host_interface_id = 0;
  std::uint8_t media_interface_id = 0;
  std::uint8_t host_lane_count = 0;
  std::uint8_t media_lane_count = 0;
  std::uint8_t host_lane_assignment = 0;                // bit n: an instance may start on host lane n+1
  std::optional<std::uint8_t> media_lane_assignment;   // bit n: on media lane n+1 (page 01h)
};

// One data path of a CMIS module: the Application it runs and its lanes
// (1-based, counted across banks: bank b lane n is 8b + n).
struct ModuleDataPath {
  std::uint8_t app_sel = 0;
  std::uint8_t first_host_lane = 1;
  std::uint8_t host_lane_count = 0;
  std::uint8_t first_media_lane = 1;
  std::uint8_t media_lane_count = 0;
};

// Supported link lengths the module advertises, in metres (absent: not given).
struct LinkLengths {
  std::optional<double> smf_m, om1_m, om2_m, om3_m, om4_m, om5_m;
};

struct ModuleIdentity {
  ModuleFamily family = ModuleFamily::kUnknown;
  std::optional<std::uint8_t> sff8024_identifier;
  std::string form_factor;        // "SFP", "QSFP28", "QSFP-DD", "OSFP" ...
  std::string media;              // "400GBASE-DR4", "10GBASE-LR", "passive copper" ...
  std::string vendor;
  std::string vendor_oui;         // "00:1b:21"
  std::string part_number;
  std::string revision;
  std::string serial;
  std::string date_code;          // "2023-04-17" where the module gives a full date
  std::string connector;          // "LC", "MPO 1x12", "No separable connector" ...
  std::string firmware_version;   // CMIS active firmware "major.minor"
  std::string spec_revision;      // "CMIS 5.0", "SFF-8636 rev 2.10" ...
  std::optional<double> wavelength_nm;
  std::optional<double> cable_length_m;
  std::optional<int> power_class;
  std::optional<double> max_power_watts;
  Modulation modulation = Modulation::kUnknown;
  std::optional<double> lane_rate_gbps;   // nominal per-lane data rate
  std::optional<bool> has_diagnostics;    // false: passive copper, no-DDM SFP
  std::optional<bool> passive_copper;
  // CMIS applications: what the module advertises and what runs (ModuleApplication below).
  std::optional<std::uint8_t> cmis_media_type;      // lower page byte 85: picks the media ID table
  std::vector<ModuleApplication> applications;      // advertised, AppSel order
  std::vector<ModuleDataPath> data_paths;           // active (or default) data paths, host lane order
  std::optional<bool> default_application;          // true: no host lane had an active AppSel
  std::optional<int> host_lane_count;               // over the active data paths
  std::optional<int> media_lane_count;
  // What `opticsd decode` shows besides, as ethtool -m does.
  std::string hardware_revision;                        // CMIS page 01h bytes 130-131, "major.minor"
  std::optional<double> nominal_signalling_rate_gbaud;  // SFF-8472 bytes 12/66, SFF-8636 140/222
  std::string encoding;                                 // SFF-8024 Table 4-2 ("64B/66B", "PAM4" ...)
  std::string media_technology;                         // CMIS byte 212 / SFF-8636 byte 147 bits 7-4
  LinkLengths link_lengths;
  std::optional<bool> vdm_supported;                    // CMIS page 01h byte 142 bit 6
};

// Module-advertised limits for one metric, in the metric's own unit.
struct Thresholds {
  std::optional<double> high_alarm;
  std::optional<double> high_warning;
  std::optional<double> low_warning;
  std::optional<double> low_alarm;
  bool any() const { return high_alarm || high_warning || low_warning || low_alarm; }
};

// Latched alarm and warning flags for one metric, as the module raised them.
struct AlarmFlags {
  bool high_alarm = false;
  bool low_alarm = false;
  bool high_warning = false;
  bool low_warning = false;
  bool any() const { return high_alarm || low_alarm || high_warning || low_warning; }
};

// A fixed array of optional values indexed by a metric enum: no heap, and a
// missing value stays missing.
template <typename Metric, std::size_t N>
class MetricValues {
 public:
  const std::optional<double>& operator[](Metric m) const { return values_[static_cast<std::size_t>(m)]; }
  std::optional<double>& operator[](Metric m) { return values_[static_cast<std::size_t>(m)]; }
  void set(Metric m, double v) { values_[static_cast<std::size_t>(m)] = v; }
  bool empty() const {
    for (const auto& v : values_) {
      if (v) return false;
    }
    return true;
  }

 private:
  std::array<std::optional<double>, N> values_{};
};

using ModuleValues = MetricValues<ModuleMetric, kModuleMetricCount>;
using LaneValues = MetricValues<LaneMetric, kLaneMetricCount>;

struct LaneStatus {
  std::optional<bool> rx_los;
  std::optional<bool> tx_los;
  std::optional<bool> rx_lol;
  std::optional<bool> tx_lol;
  std::optional<bool> tx_fault;
  std::optional<bool> tx_no_light;   // Tx power at the -40 dBm floor
  std::optional<bool> rx_no_light;   // Rx power at the -40 dBm floor
  // CMIS page 11h bytes 128-131, a nibble a lane: 1 deactivated, 2 init, 3 deinit,
  // 4 activated, 5 Tx turn-on, 6 Tx turn-off, 7 initialized.
  std::optional<std::uint8_t> data_path_state;
};

struct Lane {
  std::uint16_t number = 1;  // 1-based, as modules and switch CLIs number lanes
  LaneValues values;
  std::array<std::optional<AlarmFlags>, kLaneMetricCount> flags{};
  LaneStatus status;
};

// Cumulative FEC counters as the NIC or switch reports them. Rates and BER
// are derived by the pipeline from two successive Samples.
struct FecCounters {
  std::optional<std::uint64_t> corrected_blocks_total;
  std::optional<std::uint64_t> uncorrectable_blocks_total;
  std::optional<std::uint64_t> corrected_bits_total;
  std::vector<std::optional<std::uint64_t>> lane_corrected_bits_total;  // index 0 = lane 1
  std::optional<std::uint64_t> bits_per_block;  // for estimating bits from blocks where no bit counter exists
  bool empty() const {
    return !corrected_blocks_total && !uncorrectable_blocks_total && !corrected_bits_total &&
           lane_corrected_bits_total.empty();
  }
};

struct LinkState {
  std::optional<bool> up;
  std::optional<std::uint64_t> down_events_total;  // counted as they happen, not from latches
  std::optional<double> speed_gbps;
  std::optional<std::uint16_t> lanes;
  std::optional<double> lane_line_rate_gbps;  // including FEC overhead (53.125 for 50G PAM4)
};

struct Sample {
  std::string target;
  std::string port;                 // "Ethernet12", "eth2", "xe-0/0/1"
  std::int64_t timestamp_ms = 0;    // UNIX time of the read, milliseconds
  bool module_present = true;
  ModuleIdentity identity;
  ModuleValues module;
  std::array<std::optional<Thresholds>, kModuleMetricCount> module_thresholds{};
  std::array<std::optional<Thresholds>, kLaneMetricCount> lane_thresholds{};  // apply to every lane
  std::array<std::optional<AlarmFlags>, kModuleMetricCount> module_flags{};
  std::vector<Lane> lanes;
  FecCounters fec;
  LinkState link;
  std::vector<std::string> issues;  // what could not be decoded; valid fields still come through

  const std::optional<Thresholds>& thresholds(ModuleMetric m) const {
    return module_thresholds[static_cast<std::size_t>(m)];
  }
  const std::optional<Thresholds>& thresholds(LaneMetric m) const {
    return lane_thresholds[static_cast<std::size_t>(m)];
  }
  std::optional<Thresholds>& thresholds(ModuleMetric m) { return module_thresholds[static_cast<std::size_t>(m)]; }
  std::optional<Thresholds>& thresholds(LaneMetric m) { return lane_thresholds[static_cast<std::size_t>(m)]; }
};

}  // namespace opticsd
