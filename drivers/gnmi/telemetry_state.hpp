#pragma once
// What a gNMI stream has said so far about one target, leaf by leaf, and the
// Samples it amounts to. The stream accumulates (apply), a poll snapshots.
//
// Module data is kept per transceiver component; interfaces say which
// component and which physical channels (lanes) they use, which gives a
// Sample its port and lane numbers. A component no interface names is still
// reported, under its own name.
//
// Not thread-safe: the session guards it with its own mutex.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "drivers/gnmi/gnmi_path.hpp"
#include "drivers/gnmi/leaf_rules.hpp"
#include "drivers/gnmi/leaf_value.hpp"
#include "drivers/gnmi/vendor_variants.hpp"
#include "drivers/lane_limit.hpp"
#include "drivers/sample.hpp"

namespace opticsd::gnmi {

struct StateLimits {
  std::size_t max_entities = 8192;  // components plus interfaces: a bound on memory for a hostile target
  int max_lanes = kMaxSampleLanes;  // the Sample model's one lane limit
};

enum class Applied : std::uint8_t { kMapped, kUnknownPath, kBadValue, kOverLimit };

// Which raw channel index is lane 1 on this device, and why.
struct ChannelBase {
  enum class Source : std::uint8_t {
    kOverride,   // the target's `channel_base` option
    kVariant,    // the variant fixes it (its rules name lanes)
    kDetected,   // the device's own channel sets agree
    kNoChannel,  // nothing sent yet: the variant's default
    kAmbiguous,  // the sets disagree or say nothing: the variant's default
  };
  int base = 0;
  Source source = Source::kNoChannel;
  std::string why;  // for `poll-once --explain` and the one log line of an ambiguous device
};

class TelemetryState {
 public:
  // `variant` and `rules` outlive the state.
  // `channel_base`: the target's override of the raw index of lane 1.
  TelemetryState(const VendorVariant& variant, const LeafRules& rules, StateLimits limits = {},
                 std::optional<int> channel_base = std::nullopt);

  Applied apply(const GnmiPath& path, const LeafValue& value, std::int64_t now_ms);
  // A gNMI delete of a component or interface (or anything under it).
  void erase(const GnmiPath& path);
  void clear();

  // One Sample per port. Values not updated for `stale_after_ms` carry an issue saying so.
  std::vector<Sample> snapshot(std::int64_t now_ms, std::int64_t stale_after_ms) const;

  std::size_t entities() const { return modules_.size() + interfaces_.size(); }

  // Decided per device from every module's channel indexes: {0..N-1} says
  // 0-based, {1..N} without 0 says 1-based; modules that disagree, or sets
  // that start elsewhere or have holes, are ambiguous and the variant's
  // default holds. The override and a variant with fixed lanes win.
  ChannelBase channelBase() const;
  const LeafRules& rules() const { return rules_; }
  const VendorVariant& variant() const { return variant_; }

 private:
  struct LaneData {
    LaneValues values;
    LaneStatus status;  // the channel's own flags (tx-failure, rx-los, rx-cdr-lol)
  };
  struct Module {
    // Shared with the Samples of every snapshot until an update changes them.
    CopyOnWrite<ModuleIdentity> identity;
    std::optional<bool> present;
    ModuleValues values;
    CopyOnWrite<ModuleThresholds> thresholds;
    // By the raw channel index the device sent: the lane number follows
    // from the device's channel base, decided when a snapshot is taken.
    std::map<int, LaneData> lanes;
    FecCounters fec;
    std::int64_t updated_ms = 0;
    bool transceiver = false;  // a transceiver leaf was seen, not only what every component has
  };
  struct Interface {
    std::string transceiver;
    std::vector<double> channels;  // raw physical channel indexes
    std::optional<bool> up;
    FecCounters fec;       // the interface's own counters, which take precedence over the transceiver's
    std::string fec_mode;  // "rs", "fc", "none" as the NOS names the active FEC
    std::optional<std::uint32_t> speed_mbps;
  };

  Module* module(std::string_view name);
  Interface* interface(std::string_view name);
  Applied applyModule(Module& m, const Binding& b, const LeafValue& value);
  Applied applyInterface(Interface& i, const Binding& b, const LeafValue& value);
  Sample buildSample(const std::string& port, const Module& m, const Interface* i, int base, std::int64_t now_ms,
                     std::int64_t stale_after_ms) const;
  LaneData* laneData(Module& m, const Binding& b);

  const VendorVariant& variant_;
  const LeafRules& rules_;
  StateLimits limits_;
  std::optional<int> channel_base_;
  std::map<std::string, Module, std::less<>> modules_;
  std::map<std::string, Interface, std::less<>> interfaces_;
};

// OpenConfig identities and SONiC/SR Linux texts as opticsd names them:
// "oc-opt-types:QSFP_DD" -> "QSFP-DD", "ETH_400GBASE_DR4" -> "400GBASE-DR4".
std::string formFactorName(std::string_view text);
std::string mediaName(std::string_view text);

}  // namespace opticsd::gnmi
