#pragma once
// A vendor MIB profile as data: which tables to walk and how each row maps
// onto a Sample. Profiles are YAML files under schemas/snmp-profiles/ (and
// any user directory); the runtime knows numeric OIDs only. See
// schemas/snmp-profiles/README.md for the format.
//
// A Profile is immutable after loading and may be shared between drivers.

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/measurement.hpp"
#include "drivers/result.hpp"
#include "drivers/snmp/oid.hpp"

namespace opticsd::snmp {

// Where a mapped value lands in the Sample.
struct MetricTarget {
  enum class Kind : std::uint8_t { kModule, kLane, kFecCorrectedBlocks, kFecUncorrectableBlocks, kFecCorrectedBits };
  Kind kind = Kind::kModule;
  ModuleMetric module = ModuleMetric::kTemperatureCelsius;
  LaneMetric lane = LaneMetric::kTxBiasMilliamperes;

  bool isPower() const {
    return kind == Kind::kLane && (lane == LaneMetric::kTxPowerDbm || lane == LaneMetric::kRxPowerDbm);
  }
  bool isCounter() const { return kind != Kind::kModule && kind != Kind::kLane; }
};

// A profile names a metric by the catalogue's key (drivers/measurement.hpp:
// "rx_power_dbm", "temperature_celsius"), prefixed module_/lane_ where a key
// names both (lane_pre_fec_ber_ratio), and a port counter by its exported
// name ("fec_uncorrectable_blocks_total"). The loader also reads the old
// short names ("rx_power") with a warning; this function does not.
Result<MetricTarget> parseMetricName(std::string_view name);
std::string metricName(const MetricTarget& target);

// How a raw number is turned into the metric's unit before any dBm step.
enum class ValueUnit : std::uint8_t {
  kAuto,  // ENTITY-SENSOR data type decides (watts, amperes, dBm ...)
  kDbm,
  kMilliwatts,
  kWatts,
  kMicrowatts,
  kMilliamperes,
  kMicroamperes,
  kAmperes,
  kNative,  // already in the metric's unit (°C, V, ratio)
};
Result<ValueUnit> parseValueUnit(std::string_view name);

enum class ThresholdKind : std::uint8_t { kHighAlarm, kHighWarning, kLowWarning, kLowAlarm };

// How a table cell holds its number.
enum class ValueFormat : std::uint8_t {
  kInteger,  // INTEGER, Gauge32, Counter32 ... (the default)
  kText,     // an OCTET STRING holding a decimal number, units after it allowed ("-2.35 dBm")
  kFloat32,  // IEEE 754 single precision: the 32 bits as an unsigned integer, or 4 octets big-endian
  // An OCTET STRING of comma-separated numbers, one per lane from the row's
  // lane on ("-1.25,-1.39,-2.47,-1.34"); an item without a number ("-Inf") is
  // not reported for its lane. Huawei's per-lane DOM text.
  kTextList,
};

// Raw values a vendor uses for "not reported" (OcNOS -1000.01, 0xFFFF ...):
// compared with the number as the agent sent it, before any divisor or scale.
struct Sentinels {
  std::vector<double> values;
  bool matches(double raw) const {
    for (double v : values) {
      if (raw == v || (v != 0 && std::abs(raw - v) <= std::abs(v) * 1e-9)) return true;
    }
    return false;
  }
};

// One ENTITY-SENSOR row class, recognised by a regular expression on the
// sensor's entity description (and optionally its data type).
struct SensorRule {
  std::string pattern;
  std::regex match;
  std::optional<int> sensor_type;  // EntitySensorDataType, RFC 3433 (14 = dBm, CISCO-ENTITY-SENSOR-MIB)
  MetricTarget metric;
  ValueUnit unit = ValueUnit::kAuto;
  Sentinels absent;  // raw sensor values that mean "not reported"
  // The entPhysical column the pattern is tried on (and the port fallback and
  // sensor lane patterns after it), 0 = the port's `text`. IOS-XR 6.6/7.x gives
  // bare descriptions ("Power Sensor") and says what a sensor is in its name.
  std::uint32_t text_column = 0;
};

struct EntitySensorSpec {
  // entPhySensorEntry (RFC 3433) or entSensorValueEntry (CISCO-ENTITY-SENSOR-MIB):
  // columns 1 type, 2 scale, 3 precision, 4 value, 5 status.
  Oid sensor_entry;
  std::vector<SensorRule> sensors;

  enum class PortMethod : std::uint8_t { kDescription, kContainedIn };
  PortMethod port_method = PortMethod::kDescription;
  std::uint32_t text_column = 2;  // entPhysicalDescr (2) or entPhysicalName (7)
  // kContainedIn: the column the ancestors' text is read from, when it differs
  // from the sensor's (IOS-XR: generic sensor descriptions, ports by name); 0 = text_column.
  std::uint32_t ancestor_text_column = 0;
  std::uint32_t ancestorTextColumn() const { return ancestor_text_column ? ancestor_text_column : text_column; }
  // kDescription: on the sensor's own text; group 1 = port, optional group 2 = lane.
  // kContainedIn: on each ancestor's text; group 1 = port.
  std::string port_pattern;
  std::regex port_regex;
  std::string lane_pattern;  // kContainedIn: an ancestor's text, group 1 = lane
  std::optional<std::regex> lane_regex;
  // kContainedIn only: tried on the sensor's own text when the chain finds no
  // port (agents that omit entPhysicalContainedIn rows); groups as kDescription.
  std::optional<std::regex> fallback_regex;
  // On the sensor's own (rule) text, whichever way its port was found: group 1
  // = lane, numbered from lane_base ("TenGigE0/0/0/0-Tx Lane [2] Power").
  std::optional<std::regex> sensor_lane_regex;
  int lane_base = 1;                  // the number the device gives its first lane
  bool port_name_from_alias = false;  // entAliasMappingIdentifier -> ifIndex -> ifName
  enum class IdentityFrom : std::uint8_t { kNone, kParent, kPortEntity };
  IdentityFrom identity = IdentityFrom::kNone;

  enum class ThresholdStyle : std::uint8_t { kNone, kColumns, kCiscoRelation };
  ThresholdStyle threshold_style = ThresholdStyle::kNone;
  Oid threshold_entry;
  // kColumns (ARISTA-ENTITY-SENSOR-MIB aristaEntSensorThresholdEntry): column per kind, 0 = absent.
  std::uint32_t threshold_columns[4] = {0, 0, 0, 0};  // indexed by ThresholdKind
};

// Which reading stands when several rows of one column give the same port
// and lane a value (a module value repeated on each lane row, a port listed
// under two indexes). Readings of other columns and tables are not compared:
// a later column replaces an earlier one.
enum class RowWins : std::uint8_t {
  kLast,   // the row that comes last in index order (the default)
  kFirst,  // the row that comes first in index order
  kMax,    // the highest value
  kMin,    // the lowest value
};

struct ColumnRule {
  std::uint32_t column = 0;
  MetricTarget metric;
  std::optional<ThresholdKind> threshold;
  double divisor = 1.0;
  ValueUnit unit = ValueUnit::kNative;
  std::uint32_t precision_column = 0;  // per-row precision (value x 10^-p), 0 = none
  std::uint32_t scale_column = 0;      // per-row ENTITY-SENSOR style scale code, 0 = none
  // Mantissa/exponent pairs (OTN BER): value x 10^(exponent_sign x e), e from
  // this column of the row; 0 = none. Juniper writes 10^-e, Cisco 10^e.
  std::uint32_t exponent_column = 0;
  int exponent_sign = 1;
  ValueFormat format = ValueFormat::kInteger;
  Sentinels absent;
  std::uint16_t lane = 0;  // a fixed lane for this column (one column per lane), 0 = from lane_arc
  RowWins row_wins = RowWins::kLast;
};

// A row that describes no module (an empty cage, a port without diagnostics):
// it yields no Sample and none of its columns count, thresholds included.
struct RowSkip {
  // kAllIn: every listed column is missing or one of `values` (a vendor whose
  // empty cage is a row of sentinels: Huawei -1 / -255).
  enum class Kind : std::uint8_t { kAllZero, kEquals, kNotEquals, kAllIn };
  Kind kind = Kind::kAllZero;
  std::vector<std::uint32_t> columns;  // kAllZero, kAllIn: every one; else one column
  std::vector<std::int64_t> values;    // kEquals / kNotEquals / kAllIn
};

// How a table row names its port. The default: the `port_arc` index arc is
// an ifIndex, named by ifName (else ifDescr, else "ifIndex<N>").
struct TablePortSpec {
  enum class From : std::uint8_t {
    kIfIndexArc,     // the index arc is an ifIndex
    kIfIndexColumn,  // a column of the row holds the ifIndex (the index is the vendor's own port number)
    kNameColumn,     // a column of the row holds the port's name (optionally cut by `pattern`)
    kEntityArc,      // the index arc is an entPhysicalIndex: entAliasMapping -> ifName, else entPhysicalName
    kIndexTemplate,  // a name made from index arcs (no map from the vendor's index to an ifIndex exists)
  };
  From from = From::kIfIndexArc;
  std::uint32_t column = 0;           // kIfIndexColumn, kNameColumn
  std::optional<std::regex> pattern;  // kNameColumn: group 1 = the name; no match skips the row
  std::string pattern_text;
  // kIndexTemplate: literal text, and the index arc number of each `{N}`
  // placeholder between them (pieces.size() == arcs.size() + 1).
  std::vector<std::string> template_pieces;
  std::vector<std::uint32_t> template_arcs;
};

// Two columns that report the same reading in different forms (Huawei: a power
// column whose unit depends on the platform, and a per-lane text column). When
// both give a port a value and `first`'s lies outside the range of `second`'s
// lanes widened by `tolerance` (in the metric's unit, dB for power), the
// metric is dropped on every lane of the port with an issue: one of the two is
// decoded in the wrong unit, and the profile cannot tell which.
struct CrossCheck {
  std::uint32_t first = 0;
  std::uint32_t second = 0;
  double tolerance = 0;
  // Also drop `first` where `second` gave nothing to check it against (a
  // profile for a platform whose unit is not known).
  bool required = false;
};

struct TableSpec {
  std::string name;
  Oid entry;
  TablePortSpec port;
  std::uint32_t port_arc = 1;  // which index arc is the ifIndex (1-based)
  std::uint32_t lane_arc = 0;  // which index arc is the lane, 0 = none (lane 1)
  int lane_base = 1;
  std::vector<RowSkip> skip_rows;
  std::vector<ColumnRule> columns;
  std::vector<CrossCheck> cross_checks;
};

struct Profile {
  std::string name;
  std::string description;
  std::string source;  // file it came from
  // `extends: NAME`: built on that profile (ProfileCatalog resolves it with
  // extendProfile); empty once resolved or when not given.
  std::string extends;
  std::vector<Oid> sys_object_ids;  // prefixes
  // `sys_descr`: the profile applies only where sysDescr.0 matches (Huawei
  // VRP 5 and YunShan share sysObjectID prefixes but not the power unit).
  std::optional<std::regex> sys_descr;
  std::string sys_descr_text;
  std::optional<EntitySensorSpec> entity_sensors;
  std::vector<TableSpec> tables;
  // Things that load but should be changed (old metric names), each
  // "file:line:col: key: message"; the catalogue logs them once.
  std::vector<std::string> warnings;
};

// `child` (which names `base` in `extends`) on top of `base`: the child's
// description and entity_sensors replace the base's when given; its tables
// replace base tables of the same name and are added after the others.
// sys_object_id is never inherited (two profiles would claim one device).
Profile extendProfile(const Profile& base, const Profile& child);

// Parses one profile document. `source` names it in errors ("file:line:col: ...").
Result<Profile> loadProfile(std::string_view yaml_text, std::string source);
Result<Profile> loadProfileFile(const std::string& path);

}  // namespace opticsd::snmp
