#pragma once
// Which leaf of which model lands where in a Sample. A rule is a gNMI path
// pattern whose list keys either must equal a value or bind a role:
//   $component  the transceiver component ("Ethernet1/1", "xcvr-1")
//   $port       the interface (also the component where a NOS keys its
//               transceiver data by interface, as SR Linux and SONiC do)
//   $lane       the physical channel index
//   $severity   the threshold severity (CRITICAL, MAJOR, MINOR, WARNING)
// An element NAME may bind $port or $component too, for models that key a
// table by name rather than by list key (SONiC's STATE_DB tables), and a
// rule may fix the lane where the model puts it in the leaf name ("rx3power").
// Rules are data (schemas/gnmi-variants); LeafRules compiles and matches them.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "drivers/gnmi/gnmi_path.hpp"
#include "drivers/measurement.hpp"
#include "drivers/result.hpp"

namespace opticsd::gnmi {

enum class Leaf : std::uint8_t {
  kModuleValue,  // metric: ModuleMetric
  kLaneValue,    // metric: LaneMetric
  kModuleThresholdUpper,
  kModuleThresholdLower,
  kLaneThresholdUpper,
  kLaneThresholdLower,
  kPresent,  // "PRESENT"/"NOT_PRESENT" or a boolean
  kFormFactor,
  kVendor,
  kPartNumber,
  kSerial,
  kRevision,
  kFirmware,
  kMedia,  // ethernet-pmd
  kDateCode,
  kConnector,
  kFecCorrectedBits,
  kFecCorrectedBlocks,
  kFecUncorrectableBlocks,
  kLaneStatus,            // metric: the row of kLaneFlagInfo (rx_los, tx_fault, ...); a boolean
  kInterfaceTransceiver,  // the component that serves the interface
  kInterfaceChannels,     // the physical channels (lanes) the interface uses
  kInterfaceOperStatus,   // "UP", "DOWN", ...
  // The interface's own FEC counters: they take precedence over the
  // transceiver's (TelemetryState::buildSample).
  kInterfaceFecCorrectedBits,
  kInterfaceFecCorrectedBlocks,
  kInterfaceFecUncorrectableBlocks,
  // One bin of the interface's FEC codeword histogram (codewords received
  // with bin_low..bin_high symbol errors, cumulative): SONiC's
  // SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S<n>.
  kInterfaceFecCodewords,
  // The interface's operational FEC mode ("rs", "fc", "none") and speed in
  // Mb/s: together they name the RS code, whose correction limit the FEC
  // margin is measured against.
  kInterfaceFecMode,
  kInterfaceSpeedMbps,
};

struct LeafRule {
  std::string_view pattern;
  Leaf leaf;
  std::uint8_t metric = 0;  // ModuleMetric or LaneMetric (value, threshold leaves), kLaneFlagInfo row (status)
  std::uint8_t lane = 0;    // a fixed raw channel index (0: none, or from $lane)
  // A leaf every component has (a chassis sensor's temperature too): it alone
  // does not make a component a transceiver worth a Sample.
  bool any_component = false;
  // A fixed threshold severity where the model puts it in the leaf name
  // (Junos: module_temp_high_alarm_threshold) rather than a list key.
  std::string_view severity = {};
  // Multiplies the number before it lands (IOS-XR sends power in 0.01 dBm).
  double scale = 1;
  // The scaled number is optical power in mW: it lands in dBm (a variant
  // file's `unit: mw`, `uw` or `w`, the SNMP profiles' words).
  bool milliwatts = false;
  // The histogram bin a kInterfaceFecCodewords leaf counts (symbol errors, inclusive).
  std::uint16_t bin_low = 0;
  std::uint16_t bin_high = 0;
};

// What a matched path bound.
struct Binding {
  const LeafRule* rule = nullptr;
  std::string_view component;
  std::string_view port;
  std::string_view severity;
  std::optional<long> lane;  // the raw channel index from the path
};

// Why a path matched no rule, for `poll-once --explain` (not on the hot path).
struct Miss {
  std::string why;
};

class LeafRules {
 public:
  // `origins`: the gNMI origins the rules' model is served under (empty: any).
  static Result<LeafRules> compile(std::span<const LeafRule> rules, std::span<const std::string_view> origins = {});

  // The rule `path` matches, with its bindings (views into `path`), or
  // nullopt. Element names compare as sameNode() does (with or without the
  // RFC 7951 module qualifier); a path under an origin the rules are not
  // served under matches nothing.
  std::optional<Binding> match(const GnmiPath& path) const;
  // Why match(path) found nothing: the origin, no rule for the leaf name, or
  // the nearest rule and the element or key that differs.
  std::string explainMiss(const GnmiPath& path) const;
  bool acceptsOrigin(std::string_view origin) const;
  // The key names the rules give list element `name` (local name), or null:
  // how a JSON array of entries or a keyless list in a path gets its keys.
  const std::vector<std::string>* listKeys(std::string_view name) const;

 private:
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Compiled {
    const LeafRule* rule;
    GnmiPath pattern;
  };
  std::vector<Compiled> rules_;
  // Candidates by the last element's local name: most paths test one or two rules.
  std::unordered_map<std::string, std::vector<std::size_t>, NameHash, std::equal_to<>> by_leaf_name_;
  std::vector<std::string> origins_;
  std::unordered_map<std::string, std::vector<std::string>, NameHash, std::equal_to<>> list_keys_;
};

}  // namespace opticsd::gnmi
