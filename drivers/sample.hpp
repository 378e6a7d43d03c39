#pragma once
// The Sample: one module at one instant, as every driver produces it and
// every sink consumes it. Every value is optional: "not reported" is a state
// of its own, never 0 and never NaN.
//
// A Sample is a plain value type; it is built on one thread and then moved or
// copied, never shared mutably (its identity and thresholds are shared between
// copies, copy-on-write).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/copy_on_write.hpp"
#include "drivers/measurement.hpp"
#include "drivers/reading.hpp"
#include "drivers/sparse_metric_array.hpp"

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
  std::uint8_t host_lane_assignment = 0;              // bit n: an instance may start on host lane n+1
  std::optional<std::uint8_t> media_lane_assignment;  // bit n: on media lane n+1 (page 01h)
  bool operator==(const ModuleApplication&) const = default;
};

// One data path of a CMIS module: the Application it runs and its lanes
// (1-based, counted across banks: bank b lane n is 8b + n).
struct ModuleDataPath {
  std::uint8_t app_sel = 0;
  std::uint8_t first_host_lane = 1;
  std::uint8_t host_lane_count = 0;
  std::uint8_t first_media_lane = 1;
  std::uint8_t media_lane_count = 0;
  bool operator==(const ModuleDataPath&) const = default;
};

// Supported link lengths the module advertises, in metres (absent: not given).
struct LinkLengths {
  std::optional<double> smf_m, om1_m, om2_m, om3_m, om4_m, om5_m;
  bool operator==(const LinkLengths&) const = default;
};

struct ModuleIdentity {
  ModuleFamily family = ModuleFamily::kUnknown;
  std::optional<std::uint8_t> sff8024_identifier;
  std::string form_factor;  // "SFP", "QSFP28", "QSFP-DD", "OSFP" ...
  std::string media;        // "400GBASE-DR4", "10GBASE-LR", "passive copper" ...
  std::string vendor;
  std::string vendor_oui;  // "00:1b:21"
  std::string part_number;
  std::string revision;
  std::string serial;
  std::string date_code;         // "2023-04-17" where the module gives a full date
  std::string connector;         // "LC", "MPO 1x12", "No separable connector" ...
  std::string firmware_version;  // CMIS active firmware "major.minor"
  std::string spec_revision;     // "CMIS 5.0", "SFF-8636 rev 2.10" ...
  std::optional<double> wavelength_nm;
  std::optional<double> cable_length_m;
  std::optional<int> power_class;
  std::optional<double> max_power_watts;
  Modulation modulation = Modulation::kUnknown;
  std::optional<double> lane_rate_gbps;  // nominal per-lane data rate
  std::optional<bool> has_diagnostics;   // false: passive copper, no-DDM SFP
  std::optional<bool> passive_copper;
  // CMIS applications: what the module advertises and what runs (ModuleApplication below).
  std::optional<std::uint8_t> cmis_media_type;  // lower page byte 85: picks the media ID table
  std::vector<ModuleApplication> applications;  // advertised, AppSel order
  std::vector<ModuleDataPath> data_paths;       // active (or default) data paths, host lane order
  std::optional<bool> default_application;      // true: no host lane had an active AppSel
  std::optional<int> host_lane_count;           // over the active data paths
  std::optional<int> media_lane_count;
  // What `opticsd decode` shows besides, as ethtool -m does.
  std::string hardware_revision;                        // CMIS page 01h bytes 130-131, "major.minor"
  std::optional<double> nominal_signalling_rate_gbaud;  // SFF-8472 bytes 12/66, SFF-8636 140/222
  std::string encoding;                                 // SFF-8024 Table 4-2 ("64B/66B", "PAM4" ...)
  std::string media_technology;                         // CMIS byte 212 / SFF-8636 byte 147 bits 7-4
  LinkLengths link_lengths;
  std::optional<bool> vdm_supported;  // CMIS page 01h byte 142 bit 6
  // Equal identities are held once between polls (CopyOnWrite::shareIfEqual).
  bool operator==(const ModuleIdentity&) const = default;
};

// The identity fields that are one text or one number each, one row each:
// the history store's module_identities columns (written, compared, read
// back) and the exporter's opticsd_module_info labels come from these
// tables. A new field is a ModuleIdentity member, a row here and, for the
// store, a migration adding its column (tests/unit/store/schema_test.cpp
// checks every row has one). Rows are in the order of the info labels.
struct IdentityTextInfo {
  std::string_view key;  // the store column and the info label
  std::string_view (*text)(const ModuleIdentity&);
  bool info_label;  // a label of opticsd_module_info
};
// Family and modulation are enums: their toString() names are stored and exported.
inline constexpr std::array<IdentityTextInfo, 13> kIdentityTextInfo{{
    {"family", [](const ModuleIdentity& id) { return toString(id.family); }, true},
    {"form_factor", [](const ModuleIdentity& id) -> std::string_view { return id.form_factor; }, true},
    {"media", [](const ModuleIdentity& id) -> std::string_view { return id.media; }, true},
    {"vendor", [](const ModuleIdentity& id) -> std::string_view { return id.vendor; }, true},
    {"vendor_oui", [](const ModuleIdentity& id) -> std::string_view { return id.vendor_oui; }, false},
    {"part_number", [](const ModuleIdentity& id) -> std::string_view { return id.part_number; }, true},
    {"serial", [](const ModuleIdentity& id) -> std::string_view { return id.serial; }, true},
    {"revision", [](const ModuleIdentity& id) -> std::string_view { return id.revision; }, true},
    {"date_code", [](const ModuleIdentity& id) -> std::string_view { return id.date_code; }, false},
    {"connector", [](const ModuleIdentity& id) -> std::string_view { return id.connector; }, false},
    {"firmware_version", [](const ModuleIdentity& id) -> std::string_view { return id.firmware_version; }, true},
    {"spec_revision", [](const ModuleIdentity& id) -> std::string_view { return id.spec_revision; }, false},
    {"modulation", [](const ModuleIdentity& id) { return toString(id.modulation); }, true},
}};

struct IdentityNumberInfo {
  std::string_view key;  // the store column
  std::optional<double> ModuleIdentity::*member;
};
inline constexpr std::array<IdentityNumberInfo, 3> kIdentityNumberInfo{{
    {"wavelength_nm", &ModuleIdentity::wavelength_nm},
    {"cable_length_m", &ModuleIdentity::cable_length_m},
    {"lane_rate_gbps", &ModuleIdentity::lane_rate_gbps},
}};

// Module-advertised limits for one metric, in the metric's own unit.
struct Thresholds {
  Reading high_alarm;
  Reading high_warning;
  Reading low_warning;
  Reading low_alarm;
  bool any() const { return high_alarm || high_warning || low_warning || low_alarm; }
  bool operator==(const Thresholds&) const = default;
};

// Every limit a module advertises: the same on every poll until the module
// is swapped, so Samples share one table (Sample::shared_thresholds).
struct ModuleThresholds {
  std::array<std::optional<Thresholds>, kModuleMetricCount> module{};
  std::array<std::optional<Thresholds>, kLaneMetricCount> lane{};  // apply to every lane
  bool operator==(const ModuleThresholds&) const = default;
};

// Latched alarm and warning flags for one metric, as the module raised them.
// One byte: a Lane holds one (optional) per lane metric.
struct AlarmFlags {
  bool high_alarm : 1 = false;
  bool low_alarm : 1 = false;
  bool high_warning : 1 = false;
  bool low_warning : 1 = false;
  bool any() const { return high_alarm || low_alarm || high_warning || low_warning; }
};

// A fixed array of optional values indexed by a metric enum: no heap, and a
// missing value stays missing.
template <typename Metric, std::size_t N>
class MetricValues {
 public:
  const Reading& operator[](Metric m) const { return values_[static_cast<std::size_t>(m)]; }
  Reading& operator[](Metric m) { return values_[static_cast<std::size_t>(m)]; }
  void set(Metric m, double v) { values_[static_cast<std::size_t>(m)] = v; }
  bool empty() const {
    for (const auto& v : values_) {
      if (v) return false;
    }
    return true;
  }

 private:
  std::array<Reading, N> values_{};
};

// Module values stay a fixed array: one per module, and most of its slots are
// used. Lane values and flags, eight or more sets per module with a few
// metrics each, store only what was written (drivers/sparse_metric_array.hpp):
// room inline for what a CMIS module with VDM statistics reports on a lane,
// more on the heap past that.
using ModuleValues = MetricValues<ModuleMetric, kModuleMetricCount>;
inline constexpr std::size_t kLaneValuesInline = 12;
inline constexpr std::size_t kLaneFlagsInline = 4;
using LaneValues = SparseMetricArray<LaneMetric, Reading, kLaneMetricCount, kLaneValuesInline>;
using LaneFlags = SparseMetricArray<std::size_t, std::optional<AlarmFlags>, kLaneMetricCount, kLaneFlagsInline>;

struct LaneStatus {
  std::optional<bool> rx_los;
  std::optional<bool> tx_los;
  std::optional<bool> rx_lol;
  std::optional<bool> tx_lol;
  std::optional<bool> tx_fault;
  std::optional<bool> tx_no_light;  // Tx power at the -40 dBm floor
  std::optional<bool> rx_no_light;  // Rx power at the -40 dBm floor
  // CMIS page 11h bytes 128-131, a nibble a lane: 1 deactivated, 2 init, 3 deinit,
  // 4 activated, 5 Tx turn-on, 6 Tx turn-off, 7 initialized.
  std::optional<std::uint8_t> data_path_state;
};

// The lane's yes/no statuses, one row each: the exporter's
// opticsd_lane_<key> families, the history store's keys and the decimator's
// state signature walk this table, so a new status is a LaneStatus member and
// a row here (data_path_state, a number, is handled apart).
struct LaneFlagInfo {
  std::string_view key;
  std::string_view help;  // the exporter's HELP text
  std::optional<bool> LaneStatus::*member;
};

inline constexpr std::array<LaneFlagInfo, 7> kLaneFlagInfo{{
    {"rx_los", "Rx loss of signal on the lane (1 = raised), where the module reports it.", &LaneStatus::rx_los},
    {"tx_los", "Tx loss of signal on the lane (1 = raised), where the module reports it.", &LaneStatus::tx_los},
    {"rx_lol", "Rx CDR loss of lock on the lane (1 = raised), where the module reports it.", &LaneStatus::rx_lol},
    {"tx_lol", "Tx CDR loss of lock on the lane (1 = raised), where the module reports it.", &LaneStatus::tx_lol},
    {"tx_fault", "Tx fault on the lane (1 = raised), where the module reports it.", &LaneStatus::tx_fault},
    {"tx_no_light", "Tx power at the -40 dBm floor (1 = dark), where Tx power is reported.", &LaneStatus::tx_no_light},
    {"rx_no_light", "Rx power at the -40 dBm floor (1 = dark), where Rx power is reported.", &LaneStatus::rx_no_light},
}};

struct Lane {
  // 1-based, as modules and switch CLIs number lanes; at most kMaxSampleLanes
  // (drivers/lane_limit.hpp), the one lane limit every part uses.
  std::uint16_t number = 1;
  LaneValues values;
  LaneFlags flags;  // by LaneMetric index
  LaneStatus status;
};

// One bin of the FEC codeword histogram (IEEE 802.3ck/df "FEC codeword error
// bins", Linux ETHTOOL_A_FEC_STAT_HIST, SONiC's IF_IN_FEC_CODEWORD_ERRORS_S<n>):
// codewords that arrived with low..high symbol errors (inclusive), cumulative.
struct FecHistogramBin {
  std::uint16_t low = 0;
  std::uint16_t high = 0;
  std::optional<std::uint64_t> codewords_total;     // the port's count, where reported
  std::vector<std::uint64_t> lane_codewords_total;  // index 0 = lane 1, where counted per lane
  bool operator==(const FecHistogramBin&) const = default;
};

// The FEC tail of one poll window: the highest bin whose count grew since the
// previous poll (its upper bound, in symbols), and the margin to what the code
// corrects (correctable symbols - tail, never negative). Derived from two
// successive histograms (drivers/fec_tail.hpp); absent without a window.
struct FecTail {
  std::optional<std::uint16_t> symbols;
  std::vector<std::optional<std::uint16_t>> lane_symbols;  // index 0 = lane 1
};

// Cumulative FEC counters as the NIC or switch reports them. Rates and BER
// are derived by the pipeline from two successive Samples.
struct FecCounters {
  std::optional<std::uint64_t> corrected_blocks_total;
  std::optional<std::uint64_t> uncorrectable_blocks_total;
  std::optional<std::uint64_t> corrected_bits_total;
  std::vector<std::optional<std::uint64_t>> lane_corrected_bits_total;  // index 0 = lane 1
  std::optional<std::uint64_t> bits_per_block;       // for estimating bits from blocks where no bit counter exists
  std::vector<FecHistogramBin> histogram;            // ascending bins, where the device reports them
  std::optional<std::uint16_t> correctable_symbols;  // t of the active RS code: 15 RS(544,514), 7 RS(528,514)
  FecTail tail;                                      // derived per poll window
  bool empty() const {
    return !corrected_blocks_total && !uncorrectable_blocks_total && !corrected_bits_total &&
           lane_corrected_bits_total.empty() && histogram.empty();
  }
  // correctable_symbols - tail where both are known (clamped at 0).
  std::optional<std::uint16_t> margin(std::optional<std::uint16_t> tail_symbols) const {
    if (!tail_symbols || !correctable_symbols) return std::nullopt;
    return *tail_symbols >= *correctable_symbols ? std::uint16_t{0}
                                                 : static_cast<std::uint16_t>(*correctable_symbols - *tail_symbols);
  }
};

// Why a link is down, in the Linux kernel's taxonomy (uapi linux/ethtool.h
// enum ethtool_link_ext_state and its substate enums, 5.10+), which other
// sources map onto (drivers/link_down_reason.hpp names each and says what an
// engineer does next).
struct LinkDownReason {
  std::uint8_t state = 0;                // ETHTOOL_LINK_EXT_STATE_*
  std::optional<std::uint8_t> substate;  // ETHTOOL_LINK_EXT_SUBSTATE_* of that state, where given
  bool operator==(const LinkDownReason&) const = default;
};

struct LinkState {
  std::optional<bool> up;
  std::optional<std::uint64_t> down_events_total;  // counted as they happen, not from latches
  std::optional<double> speed_gbps;
  std::optional<std::uint16_t> lanes;
  std::optional<double> lane_line_rate_gbps;       // including FEC overhead (53.125 for 50G PAM4)
  std::optional<LinkDownReason> down_reason;       // while the link is down, where the device says why
  std::optional<LinkDownReason> last_down_reason;  // why it went down last (kept after it comes back)
};

// A module the daemon must leave alone for now: its firmware is being
// flashed (the kernel answers EBUSY), a CMIS CDB command is in progress, or
// the config pauses it (`maintenance:`). Its poll is not an error and raises
// no alert.
struct Maintenance {
  std::string reason;  // "firmware_flashing", "cdb_busy", "configured"
};

struct Sample {
  std::string target;
  std::string port;               // "Ethernet12", "eth2", "xe-0/0/1"
  std::int64_t timestamp_ms = 0;  // UNIX time of the read, milliseconds
  bool module_present = true;
  // Identity and thresholds are shared with the other Samples of the same
  // module (copies, earlier polls): read them through identity() and
  // thresholds(), write them through the mutable accessors, which clone a
  // shared value first.
  CopyOnWrite<ModuleIdentity> shared_identity;
  ModuleValues module;
  CopyOnWrite<ModuleThresholds> shared_thresholds;  // unset: no thresholds
  std::array<std::optional<AlarmFlags>, kModuleMetricCount> module_flags{};
  std::vector<Lane> lanes;
  FecCounters fec;
  LinkState link;
  std::optional<Maintenance> maintenance;  // set: in maintenance, values may be missing on purpose
  std::vector<std::string> issues;         // what could not be decoded; valid fields still come through

  const ModuleIdentity& identity() const { return *shared_identity; }
  ModuleIdentity& mutableIdentity() { return shared_identity.mutate(); }

  const std::optional<Thresholds>& thresholds(ModuleMetric m) const {
    return shared_thresholds->module[static_cast<std::size_t>(m)];
  }
  const std::optional<Thresholds>& thresholds(LaneMetric m) const {
    return shared_thresholds->lane[static_cast<std::size_t>(m)];
  }
  std::optional<Thresholds>& mutableThresholds(ModuleMetric m) {
    return shared_thresholds.mutate().module[static_cast<std::size_t>(m)];
  }
  std::optional<Thresholds>& mutableThresholds(LaneMetric m) {
    return shared_thresholds.mutate().lane[static_cast<std::size_t>(m)];
  }
};

}  // namespace opticsd
