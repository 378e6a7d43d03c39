#pragma once
// Turns the varbinds of one poll into Samples through a Profile. Pure: no
// I/O, no clock, no globals.
//
// Decoding has two steps so that a poll only walks what changes: resolve()
// reads the slow tables (sensor types, scales, entity names and containment,
// thresholds, ifNames) into a Layout; apply() reads the values of one poll
// through that Layout. Both report per-row problems as issues and carry on.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drivers/driver.hpp"
#include "drivers/sample.hpp"
#include "drivers/snmp/profile.hpp"
#include "drivers/snmp/varbind_store.hpp"

namespace opticsd::snmp {

// Standard OIDs the decoder reads besides the profile's own tables.
namespace oids {
inline const Oid kSysDescr{1, 3, 6, 1, 2, 1, 1, 1, 0};
inline const Oid kSysObjectId{1, 3, 6, 1, 2, 1, 1, 2, 0};
inline const Oid kEntPhysicalEntry{1, 3, 6, 1, 2, 1, 47, 1, 1, 1, 1};  // ENTITY-MIB (RFC 6933)
inline const Oid kEntAliasMappingIdentifier{1, 3, 6, 1, 2, 1, 47, 1, 3, 2, 1, 2};
inline const Oid kIfName{1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 1};  // IF-MIB ifXTable
inline const Oid kIfDescr{1, 3, 6, 1, 2, 1, 2, 2, 1, 2};
inline const Oid kIfIndexColumn{1, 3, 6, 1, 2, 1, 2, 2, 1, 1};
}  // namespace oids

struct SensorBinding {
  std::vector<std::uint32_t> index;
  MetricTarget metric;
  ValueUnit unit = ValueUnit::kAuto;
  int sensor_type = 0;
  double factor = 1.0;     // 10^-precision x scale
  std::uint32_t port = 0;  // into Layout::ports
  std::uint16_t lane = 1;
  bool lane_named = false;              // the device named the lane (else lane 1 by default)
  std::optional<double> thresholds[4];  // by ThresholdKind, in the metric's unit
  const Sentinels* absent = nullptr;    // the rule's "not reported" values (the Profile outlives the Layout)
};

struct PortEntry {
  std::string name;
  CopyOnWrite<ModuleIdentity> identity;  // handed to every poll's Sample of the port, not copied
};

// Why each row was used or skipped, one line per row (`poll-once --explain`).
// Null on ordinary polls: nothing is formatted then.
class Trace {
 public:
  static constexpr std::size_t kMaxLines = 20000;
  void add(std::string line) {
    if (lines_.size() < kMaxLines) lines_.push_back(std::move(line));
  }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
};

struct Layout {
  std::vector<PortEntry> ports;
  std::vector<SensorBinding> sensors;
  std::vector<std::string> issues;                              // rows that could not be mapped
  std::vector<std::pair<std::uint32_t, std::string>> if_names;  // sorted by ifIndex
  // Tables indexed by entPhysicalIndex: the port name of each entity, sorted.
  std::vector<std::pair<std::uint32_t, std::string>> entity_names;
  std::size_t sensors_unmatched = 0;  // sensor rows whose text matched no rule (a hint when nothing is found)
  std::size_t sensor_rows = 0;        // rows in the sensor type column when resolved (new modules change it)

  const std::string* ifName(std::uint32_t if_index) const;
  const std::string* entityName(std::uint32_t entity) const;
};

// The subtrees to walk for a profile: `static` ones feed resolve(),
// `dynamic` ones feed apply() on every poll.
struct WalkPlan {
  std::vector<Oid> static_roots;
  std::vector<Oid> dynamic_roots;
};
WalkPlan planWalks(const Profile& profile);

Layout resolve(const Profile& profile, const VarbindStore& slow, Trace* trace = nullptr);
// `values` holds the dynamic roots (it may hold everything). Samples carry
// `target` and `timestamp_ms`; problems go to result.errors.
PollResult apply(const Profile& profile, const Layout& layout, const VarbindStore& values, const std::string& target,
                 std::int64_t timestamp_ms, Trace* trace = nullptr);

// One-step convenience for tests and one-shot use.
PollResult decode(const Profile& profile, const VarbindStore& all, const std::string& target,
                  std::int64_t timestamp_ms);

}  // namespace opticsd::snmp
