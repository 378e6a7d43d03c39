#include "drivers/snmp/profile_decoder.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "drivers/lane_limit.hpp"
#include "drivers/snmp/entity_sensor_scaling.hpp"
#include "drivers/units.hpp"

namespace opticsd::snmp {
namespace {

constexpr std::size_t kMaxReportedIssues = 20;
constexpr int kMaxContainmentDepth = 16;
constexpr int kMaxLane = kMaxSampleLanes;  // the Sample model's one lane limit

std::string indexText(std::span<const std::uint32_t> index) {
  std::string out;
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(index[i]);
  }
  return out;
}

class IssueList {
 public:
  explicit IssueList(std::vector<std::string>& out) : out_(out) {}
  ~IssueList() {
    if (dropped_) out_.push_back("... and " + std::to_string(dropped_) + " more problems of this kind");
  }
  void add(std::string message) {
    if (out_.size() < kMaxReportedIssues) {
      out_.push_back(std::move(message));
    } else {
      ++dropped_;
    }
  }

 private:
  std::vector<std::string>& out_;
  std::size_t dropped_ = 0;
};

struct Converted {
  double value = 0;
  std::optional<bool> no_light;
};

// The unit a raw (already scaled) number is in, from the profile or the
// ENTITY-SENSOR data type.
Result<ValueUnit> effectiveUnit(const MetricTarget& metric, ValueUnit unit, int sensor_type) {
  if (unit != ValueUnit::kAuto) return unit;
  if (metric.isPower()) {
    if (sensor_type == kSensorWatts) return ValueUnit::kWatts;
    if (sensor_type == kSensorDbm) return ValueUnit::kDbm;
    return fail("sensor type " + std::to_string(sensor_type) + " is not a power unit (set unit: in the profile)");
  }
  if (metric.kind == MetricTarget::Kind::kLane && metric.lane == LaneMetric::kTxBiasMilliamperes) {
    if (sensor_type == kSensorAmperes) return ValueUnit::kAmperes;
    return fail("sensor type " + std::to_string(sensor_type) + " is not a current (set unit: in the profile)");
  }
  return ValueUnit::kNative;
}

// A value into the metric's unit; optical power goes to dBm with the -40 dBm
// floor and the no-light flag (drivers/units.hpp).
Result<Converted> convert(const MetricTarget& metric, ValueUnit unit, double v) {
  if (!std::isfinite(v)) return fail("value is not finite");
  if (metric.isPower()) {
    OpticalPower p;
    switch (unit) {
      case ValueUnit::kDbm:
        p = opticalPowerFromDbm(v);
        break;
      case ValueUnit::kMilliwatts:
        p = opticalPowerFromMilliwatts(v);
        break;
      case ValueUnit::kWatts:
        p = opticalPowerFromMilliwatts(v * 1e3);
        break;
      case ValueUnit::kMicrowatts:
        p = opticalPowerFromMilliwatts(v * 1e-3);
        break;
      default:
        return fail("optical power needs a power unit");
    }
    return Converted{p.dbm, p.no_light};
  }
  switch (unit) {
    case ValueUnit::kAmperes:
      return Converted{v * 1e3, {}};
    case ValueUnit::kMicroamperes:
      return Converted{v * 1e-3, {}};
    case ValueUnit::kMilliamperes:
    case ValueUnit::kNative:
      return Converted{v, {}};
    default:
      return fail("unit does not fit metric " + std::string(metricName(metric)));
  }
}

// Thresholds are limits, not readings: a power limit of 0 mW means "none"
// (LibreNMS issue 16335), and no floor or flag applies.
std::optional<double> convertThreshold(const MetricTarget& metric, ValueUnit unit, double v) {
  if (!std::isfinite(v)) return std::nullopt;
  if (metric.isPower()) {
    double mw = 0;
    switch (unit) {
      case ValueUnit::kDbm:
        return roundedDbm(v);
      case ValueUnit::kMilliwatts:
        mw = v;
        break;
      case ValueUnit::kWatts:
        mw = v * 1e3;
        break;
      case ValueUnit::kMicrowatts:
        mw = v * 1e-3;
        break;
      default:
        return std::nullopt;
    }
    if (mw <= 0) return std::nullopt;
    return roundedDbm(10.0 * std::log10(mw));  // to the readings' 0.0001 dB
  }
  auto c = convert(metric, unit, v);
  if (!c) return std::nullopt;
  return c->value;
}

std::optional<std::string> textAt(const Column& column, std::uint32_t index) {
  const auto* vb = column.find(index);
  if (!vb) return std::nullopt;
  return vb->asText();
}

std::optional<std::uint32_t> parentOf(const Column& contained_in, std::uint32_t index) {
  const auto* vb = contained_in.find(index);
  if (!vb) return std::nullopt;
  auto v = vb->asInteger();
  if (!v || *v <= 0 || *v > 0xFFFFFFFF) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

void fillIdentity(const VarbindStore& store, std::uint32_t entity, ModuleIdentity& identity) {
  auto text = [&](std::uint32_t col) -> std::string {
    const auto* vb = store.column(oids::kEntPhysicalEntry, col).find(entity);
    if (!vb) return {};
    return vb->asText().value_or("");
  };
  identity.revision = text(8);      // entPhysicalHardwareRev
  identity.serial = text(11);       // entPhysicalSerialNum
  identity.vendor = text(12);       // entPhysicalMfgName
  identity.part_number = text(13);  // entPhysicalModelName
}

std::optional<std::uint32_t> aliasIfIndex(const VarbindStore& store, std::uint32_t entity) {
  auto rows = store.subtree(oids::kEntAliasMappingIdentifier.child(entity));
  for (const auto& vb : rows) {
    if (vb.type != VarType::kObjectId) continue;
    if (vb.oid_value.startsWith(oids::kIfIndexColumn) && vb.oid_value.size() == oids::kIfIndexColumn.size() + 1) {
      return vb.oid_value.arcs().back();
    }
  }
  return std::nullopt;
}

std::vector<std::pair<std::uint32_t, std::string>> readIfNames(const VarbindStore& store) {
  std::vector<std::pair<std::uint32_t, std::string>> out;
  for (const auto& root : {oids::kIfName, oids::kIfDescr}) {
    for (const auto& vb : store.subtree(root)) {
      if (vb.oid.size() != root.size() + 1) continue;
      auto name = vb.asText();
      if (!name || name->empty()) continue;
      std::uint32_t if_index = vb.oid.arcs().back();
      auto it = std::lower_bound(out.begin(), out.end(), if_index,
                                 [](const auto& p, std::uint32_t k) { return p.first < k; });
      if (it == out.end() || it->first != if_index) out.insert(it, {if_index, *name});
    }
  }
  return out;
}

std::uint32_t portSlot(Layout& layout, std::map<std::string, std::uint32_t, std::less<>>& slots,
                       const std::string& name) {
  auto it = slots.find(name);
  if (it != slots.end()) return it->second;
  auto slot = static_cast<std::uint32_t>(layout.ports.size());
  layout.ports.push_back(PortEntry{name, {}});
  slots.emplace(name, slot);
  return slot;
}

// CISCO-ENTITY-SENSOR-MIB entSensorThresholdEntry: index (sensor, n); columns
// 2 severity (minor 10, major 20, critical 30), 3 relation (1 <, 2 <=, 3 >, 4 >=), 4 value.
std::unordered_map<std::uint32_t, std::array<std::optional<std::int64_t>, 4>> ciscoThresholds(const VarbindStore& store,
                                                                                              const Oid& entry) {
  std::unordered_map<std::uint32_t, std::array<std::optional<std::int64_t>, 4>> out;
  auto severity = store.column(entry, 2);
  auto relation = store.column(entry, 3);
  auto value = store.column(entry, 4);
  for (const auto& vb : value.rows()) {
    auto index = value.indexOf(vb);
    if (index.size() != 2) continue;
    const auto* sev = severity.find(index);
    const auto* rel = relation.find(index);
    auto v = vb.asInteger();
    if (!sev || !rel || !v) continue;
    auto s = sev->asInteger().value_or(0);
    auto r = rel->asInteger().value_or(0);
    bool high = r == 3 || r == 4;
    bool low = r == 1 || r == 2;
    if (!high && !low) continue;
    bool alarm = s >= 20;
    ThresholdKind kind = high ? (alarm ? ThresholdKind::kHighAlarm : ThresholdKind::kHighWarning)
                              : (alarm ? ThresholdKind::kLowAlarm : ThresholdKind::kLowWarning);
    auto& slot = out[index[0]][static_cast<std::size_t>(kind)];
    if (!slot) slot = *v;
  }
  return out;
}

// The slow-walk columns one entity_sensors pass reads, looked up once.
struct SensorColumns {
  Column types, scales, precisions, texts, contained_in;
  Column ancestor_texts;  // texts, or the other entPhysical text column (port.ancestor_text)
  std::unordered_map<std::uint32_t, std::array<std::optional<std::int64_t>, 4>> cisco_thresholds;
  std::array<Column, 4> threshold_columns;  // by ThresholdKind (style: columns)
};

SensorColumns sensorColumns(const EntitySensorSpec& spec, const VarbindStore& store) {
  SensorColumns c{store.column(spec.sensor_entry, 1),
                  store.column(spec.sensor_entry, 2),
                  store.column(spec.sensor_entry, 3),
                  store.column(oids::kEntPhysicalEntry, spec.text_column),
                  store.column(oids::kEntPhysicalEntry, 4),
                  store.column(oids::kEntPhysicalEntry, spec.ancestorTextColumn()),
                  {},
                  {}};
  if (spec.threshold_style == EntitySensorSpec::ThresholdStyle::kCiscoRelation) {
    c.cisco_thresholds = ciscoThresholds(store, spec.threshold_entry);
  }
  if (spec.threshold_style == EntitySensorSpec::ThresholdStyle::kColumns) {
    for (std::size_t k = 0; k < 4; ++k) {
      if (spec.threshold_columns[k])
        c.threshold_columns[k] = store.column(spec.threshold_entry, spec.threshold_columns[k]);
    }
  }
  return c;
}

// The first rule whose type (if any) and pattern fit the sensor, and the
// text it matched (the sensor's text, or its name where the rule says so).
struct RuleMatch {
  const SensorRule* rule = nullptr;
  std::string text;
};

RuleMatch matchSensorRule(const EntitySensorSpec& spec, const SensorColumns& c, std::uint32_t index,
                          const std::string& text, std::int64_t type, const SensorRule** name_only) {
  for (const auto& r : spec.sensors) {
    const std::string* candidate = &text;
    std::optional<std::string> other;
    if (r.text_column && r.text_column != spec.text_column) {
      other = textAt(c.ancestor_texts, index);
      if (!other) continue;
      candidate = &*other;
    }
    if (!std::regex_search(*candidate, r.match)) continue;
    // A row whose name says one thing and whose ENTITY-SENSOR type another
    // (a celsius sensor named "... Power Sensor") is not that metric.
    if (r.sensor_type && *r.sensor_type != type) {
      if (name_only && !*name_only) *name_only = &r;
      continue;
    }
    return {&r, *candidate};
  }
  return {};
}

// scale x 10^-precision from the row (missing: units, 0 digits); nullopt when out of range.
std::optional<double> sensorFactor(const SensorColumns& c, std::uint32_t index, const std::string& text,
                                   IssueList& issues) {
  const auto* scale_vb = c.scales.find(index);
  const auto* precision_vb = c.precisions.find(index);
  auto scale_code = scale_vb ? scale_vb->asInteger() : std::optional<std::int64_t>(9);
  auto precision = precision_vb ? precision_vb->asInteger() : std::optional<std::int64_t>(0);
  auto scale = scale_code ? scaleFactor(*scale_code) : std::nullopt;
  auto digits = precision ? precisionFactor(*precision) : std::nullopt;
  if (!scale || !digits) {
    issues.add("sensor " + std::to_string(index) + " (" + text + "): scale " +
               (scale_code ? std::to_string(*scale_code) : "?") + " / precision " +
               (precision ? std::to_string(*precision) : "?") + " out of range (1..17 / -8..9)");
    return std::nullopt;
  }
  return *scale * *digits;
}

struct SensorPlace {
  std::string port;                // empty: not found
  std::optional<int> lane_number;  // as the device numbers it (lane_base)
  std::optional<std::uint32_t> port_entity;
  std::string how;  // which way the port was named, for --explain
};

// method: description: the port (and lane) from the sensor's own text.
SensorPlace placeFromDescription(const EntitySensorSpec& spec, const SensorColumns& c, std::uint32_t index,
                                 const std::string& text) {
  SensorPlace place;
  std::smatch m;
  if (std::regex_search(text, m, spec.port_regex)) {
    place.port = m[1].str();
    if (m.size() > 2 && m[2].matched) place.lane_number = std::atoi(m[2].str().c_str());
    place.how = "by the sensor's text";
  }
  place.port_entity = parentOf(c.contained_in, index);
  return place;
}

// method: contained_in: up the entPhysicalContainedIn chain to the first
// ancestor whose text names a port (a lane pattern may match on the way), else
// the fallback pattern on the sensor's own text.
SensorPlace placeFromContainment(const EntitySensorSpec& spec, const SensorColumns& c, std::uint32_t index,
                                 const std::string& text) {
  SensorPlace place;
  std::smatch m;
  auto current = parentOf(c.contained_in, index);
  for (int depth = 0; current && depth < kMaxContainmentDepth; ++depth) {
    if (auto ancestor = textAt(c.ancestor_texts, *current)) {
      if (spec.lane_regex && !place.lane_number && std::regex_search(*ancestor, m, *spec.lane_regex)) {
        place.lane_number = std::atoi(m[1].str().c_str());
      }
      if (std::regex_search(*ancestor, m, spec.port_regex)) {
        place.port = m[1].str();
        place.port_entity = current;
        place.how = "by containment (entity " + std::to_string(*current) + ")";
        return place;
      }
    }
    current = parentOf(c.contained_in, *current);
  }
  if (spec.fallback_regex && std::regex_search(text, m, *spec.fallback_regex)) {
    place.port = m[1].str();
    if (m.size() > 2 && m[2].matched) place.lane_number = std::atoi(m[2].str().c_str()) + spec.lane_base - 1;
    place.how = "by the sensor's text (no ancestor names a port)";
  }
  return place;
}

SensorPlace placeSensor(const EntitySensorSpec& spec, const SensorColumns& c, const VarbindStore& store,
                        const Layout& layout, std::uint32_t index, const std::string& text) {
  SensorPlace place = spec.port_method == EntitySensorSpec::PortMethod::kDescription
                          ? placeFromDescription(spec, c, index, text)
                          : placeFromContainment(spec, c, index, text);
  if (!place.port.empty() && !place.lane_number && spec.sensor_lane_regex) {
    std::smatch m;
    if (std::regex_search(text, m, *spec.sensor_lane_regex)) place.lane_number = std::atoi(m[1].str().c_str());
  }
  if (spec.port_name_from_alias && place.port_entity) {
    if (auto if_index = aliasIfIndex(store, *place.port_entity)) {
      if (const auto* name = layout.ifName(*if_index)) {
        place.port = *name;
        place.how += ", ifName of entAliasMapping ifIndex " + std::to_string(*if_index);
      } else {
        place.how += " (entAliasMapping names ifIndex " + std::to_string(*if_index) + ", which the walk lacks)";
      }
    }
  }
  return place;
}

// The row's thresholds in the metric's unit (threshold columns or Cisco relations).
void sensorThresholds(const EntitySensorSpec& spec, const SensorColumns& c, std::uint32_t index,
                      SensorBinding& binding) {
  for (std::size_t k = 0; k < 4; ++k) {
    std::optional<std::int64_t> raw;
    if (spec.threshold_style == EntitySensorSpec::ThresholdStyle::kColumns && spec.threshold_columns[k]) {
      if (const auto* vb = c.threshold_columns[k].find(index)) raw = vb->asInteger();
    } else if (spec.threshold_style == EntitySensorSpec::ThresholdStyle::kCiscoRelation) {
      if (auto it = c.cisco_thresholds.find(index); it != c.cisco_thresholds.end()) raw = it->second[k];
    }
    if (raw) {
      binding.thresholds[k] =
          convertThreshold(binding.metric, binding.unit, static_cast<double>(*raw) * binding.factor);
    }
  }
}

// A port's identity comes from the first of its sensors that has the entity to read it from.
void portIdentityOnce(const EntitySensorSpec& spec, const SensorColumns& c, const VarbindStore& store,
                      std::uint32_t index, const SensorPlace& place, std::uint32_t port, Layout& layout,
                      std::vector<bool>& identity_done) {
  if (spec.identity == EntitySensorSpec::IdentityFrom::kNone) return;
  if (identity_done.size() <= port) identity_done.resize(port + 1, false);
  if (identity_done[port]) return;
  auto entity =
      spec.identity == EntitySensorSpec::IdentityFrom::kParent ? parentOf(c.contained_in, index) : place.port_entity;
  if (!entity) return;
  fillIdentity(store, *entity, layout.ports[port].identity.mutate());
  identity_done[port] = true;
}

// Two sensors that land on one port, lane and metric are two readings the
// profile cannot tell apart (a multi-lane module whose sensor texts carry no
// lane): neither is kept, so that no lane is given another lane's value.
void dropIndistinctSensors(Layout& layout, IssueList& issues, Trace* trace) {
  using Key = std::tuple<std::uint32_t, std::uint16_t, int, int, int>;
  auto keyOf = [](const SensorBinding& b) {
    return Key{b.port, b.metric.kind == MetricTarget::Kind::kModule ? std::uint16_t{0} : b.lane,
               static_cast<int>(b.metric.kind), static_cast<int>(b.metric.module), static_cast<int>(b.metric.lane)};
  };
  std::map<Key, std::vector<std::size_t>> sensors_by_key;
  for (std::size_t i = 0; i < layout.sensors.size(); ++i) sensors_by_key[keyOf(layout.sensors[i])].push_back(i);
  std::vector<bool> drop(layout.sensors.size(), false);
  for (const auto& [key, positions] : sensors_by_key) {
    if (positions.size() < 2) continue;
    // One sensor that names its lane beside module-wide ones ("Hu1/0/3 Tx Lane 1
    // Power Sensor" and "Hu1/0/3 Transmit Power Sensor"): the lane's own wins.
    std::vector<std::size_t> named;
    for (auto p : positions) {
      if (layout.sensors[p].lane_named) named.push_back(p);
    }
    const auto& port = layout.ports[std::get<0>(key)].name;
    if (named.size() == 1) {
      for (auto p : positions) {
        if (p == named.front()) continue;
        drop[p] = true;
        if (trace) {
          trace->add("sensor " + std::to_string(layout.sensors[p].index.front()) + ": port " + port + " lane " +
                     std::to_string(std::get<1>(key)) + " has its own lane sensor " +
                     std::to_string(layout.sensors[named.front()].index.front()) + "; this one (no lane) not used");
        }
      }
      continue;
    }
    std::string list;
    for (auto p : positions) {
      list += (list.empty() ? "" : ", ") + std::to_string(layout.sensors[p].index.front());
      drop[p] = true;
    }
    issues.add("sensors " + list + " all give port " + port + " lane " + std::to_string(std::get<1>(key)) +
               " the same metric; none is used (does the profile find each sensor's lane?)");
  }
  std::size_t i = 0;
  std::erase_if(layout.sensors, [&](const SensorBinding&) { return drop[i++]; });
}

// Every sensor row of the slow walk that a rule claims becomes a binding
// (port, lane, unit, factor, thresholds) that fast polls only read values for.
void resolveEntitySensors(const EntitySensorSpec& spec, const VarbindStore& store, Layout& layout, Trace* trace) {
  IssueList issues(layout.issues);
  std::map<std::string, std::uint32_t, std::less<>> slots;
  const SensorColumns c = sensorColumns(spec, store);
  std::vector<bool> identity_done;
  layout.sensor_rows = c.types.rows().size();

  for (const auto& type_vb : c.types.rows()) {
    auto index_span = c.types.indexOf(type_vb);
    if (index_span.size() != 1) continue;
    const std::uint32_t index = index_span[0];
    const std::string where = "sensor " + std::to_string(index);
    auto text = textAt(c.texts, index);
    if (!text) {
      if (trace) trace->add(where + ": skipped, its entity has no text");
      continue;
    }
    auto type = type_vb.asInteger();
    if (!type) {
      issues.add(where + ": entPhySensorType is " + std::string(toString(type_vb.type)) + ", expected INTEGER");
      continue;
    }
    const SensorRule* name_only = nullptr;
    const RuleMatch matched = matchSensorRule(spec, c, index, *text, *type, trace ? &name_only : nullptr);
    const SensorRule* rule = matched.rule;
    if (!rule) {  // not a transceiver sensor
      ++layout.sensors_unmatched;
      if (trace && name_only) {
        trace->add(where + " '" + *text + "' type " + std::to_string(*type) + ": its name matches rule '" +
                   name_only->pattern + "' but that rule wants type " + std::to_string(*name_only->sensor_type) +
                   ": not used (the port keeps its other sensors)");
      } else if (trace) {
        trace->add(where + " '" + *text + "' type " + std::to_string(*type) + ": no rule matches");
      }
      continue;
    }
    auto factor = sensorFactor(c, index, *text, issues);
    if (!factor) continue;
    auto unit = effectiveUnit(rule->metric, rule->unit, static_cast<int>(*type));
    if (!unit) {
      issues.add(where + " (" + *text + "): " + unit.error().message);
      continue;
    }
    const SensorPlace place = placeSensor(spec, c, store, layout, index, matched.text);
    if (place.port.empty()) {
      issues.add(where + " (" + *text + "): no port found");
      continue;
    }
    const int lane = place.lane_number ? *place.lane_number + (1 - spec.lane_base) : 1;
    if (lane < 1 || lane > kMaxLane) {
      issues.add(where + " (" + *text + "): lane " + std::to_string(lane) + " out of range");
      continue;
    }

    SensorBinding binding;
    binding.index = {index};
    binding.metric = rule->metric;
    binding.unit = *unit;
    binding.sensor_type = static_cast<int>(*type);
    binding.factor = *factor;
    binding.port = portSlot(layout, slots, place.port);
    binding.lane = static_cast<std::uint16_t>(lane);
    binding.lane_named = place.lane_number.has_value();
    binding.absent = &rule->absent;
    if (trace) {
      trace->add(where + " '" + matched.text + "' type " + std::to_string(*type) + ": rule '" + rule->pattern +
                 "' -> " + metricName(rule->metric) + ", port " + place.port + " (" + place.how + "), lane " +
                 std::to_string(lane));
    }
    portIdentityOnce(spec, c, store, index, place, binding.port, layout, identity_done);
    sensorThresholds(spec, c, index, binding);
    layout.sensors.push_back(std::move(binding));
  }
  dropIndistinctSensors(layout, issues, trace);
}

// Builds Samples keyed by port name.
class SampleSet {
 public:
  SampleSet(const std::string& target, std::int64_t ts) : target_(target), ts_(ts) {}

  Sample& port(const std::string& name, const CopyOnWrite<ModuleIdentity>* identity) {
    auto it = index_.find(name);
    if (it != index_.end()) return samples_[it->second];
    index_.emplace(name, samples_.size());
    Sample& s = samples_.emplace_back();
    s.target = target_;
    s.port = name;
    s.timestamp_ms = ts_;
    if (identity) s.shared_identity = *identity;
    return s;
  }

  static Lane& lane(Sample& s, std::uint16_t number) {
    for (auto& l : s.lanes) {
      if (l.number == number) return l;
    }
    auto it = std::lower_bound(s.lanes.begin(), s.lanes.end(), number,
                               [](const Lane& l, std::uint16_t n) { return l.number < n; });
    it = s.lanes.insert(it, Lane{});
    it->number = number;
    return *it;
  }

  std::vector<Sample> take() { return std::move(samples_); }

 private:
  const std::string& target_;
  std::int64_t ts_;
  std::vector<Sample> samples_;
  std::map<std::string, std::size_t, std::less<>> index_;
};

void setValue(Sample& s, const MetricTarget& metric, std::uint16_t lane, const Converted& c) {
  if (metric.kind == MetricTarget::Kind::kModule) {
    s.module.set(metric.module, c.value);
    return;
  }
  Lane& l = SampleSet::lane(s, lane);
  l.values.set(metric.lane, c.value);
  if (c.no_light) {
    if (metric.lane == LaneMetric::kRxPowerDbm) l.status.rx_no_light = *c.no_light;
    if (metric.lane == LaneMetric::kTxPowerDbm) l.status.tx_no_light = *c.no_light;
  }
}

std::optional<double> currentValue(const Sample& s, const MetricTarget& metric, std::uint16_t lane) {
  if (metric.kind == MetricTarget::Kind::kModule) return s.module[metric.module];
  for (const auto& l : s.lanes) {
    if (l.number == lane) return l.values[metric.lane];
  }
  return std::nullopt;
}

// Whether a further row of the same column replaces the reading it gave before.
bool rowReplaces(RowWins wins, std::optional<double> before, double now) {
  switch (wins) {
    case RowWins::kLast:
      return true;
    case RowWins::kFirst:
      return false;
    case RowWins::kMax:
      return !before || now > *before;
    case RowWins::kMin:
      return !before || now < *before;
  }
  return true;
}

void setThreshold(Sample& s, const MetricTarget& metric, ThresholdKind kind, double v) {
  std::optional<Thresholds>& slot = metric.kind == MetricTarget::Kind::kModule ? s.mutableThresholds(metric.module)
                                                                               : s.mutableThresholds(metric.lane);
  if (!slot) slot = Thresholds{};
  Reading* field = nullptr;
  switch (kind) {
    case ThresholdKind::kHighAlarm:
      field = &slot->high_alarm;
      break;
    case ThresholdKind::kHighWarning:
      field = &slot->high_warning;
      break;
    case ThresholdKind::kLowWarning:
      field = &slot->low_warning;
      break;
    case ThresholdKind::kLowAlarm:
      field = &slot->low_alarm;
      break;
  }
  if (!*field) *field = v;  // the first (lowest) lane's limits apply to every lane
}

void setCounter(Sample& s, MetricTarget::Kind kind, std::uint64_t v) {
  switch (kind) {
    case MetricTarget::Kind::kFecCorrectedBlocks:
      s.fec.corrected_blocks_total = v;
      break;
    case MetricTarget::Kind::kFecUncorrectableBlocks:
      s.fec.uncorrectable_blocks_total = v;
      break;
    case MetricTarget::Kind::kFecCorrectedBits:
      s.fec.corrected_bits_total = v;
      break;
    default:
      break;
  }
}

// What one cell holds: a number, "not reported", or something unusable.
struct Cell {
  enum class Kind : std::uint8_t { kNumber, kAbsent, kBad };
  Kind kind = Kind::kBad;
  double raw = 0;
  std::string why;  // kAbsent, kBad
};

// "-2.35 dBm", " 31.5 C": the leading decimal number; text without one is
// the vendor's "N/A" and means not reported.
Cell textNumber(const std::string& text) {
  const char* begin = text.c_str();
  while (*begin == ' ' || *begin == '\t') ++begin;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(v))
    return {Cell::Kind::kAbsent, 0, "text '" + text + "' holds no number"};
  return {Cell::Kind::kNumber, v, {}};
}

Cell cellValue(const Varbind& vb, ValueFormat format) {
  switch (format) {
    case ValueFormat::kInteger:
      if (auto v = vb.asInteger()) return {Cell::Kind::kNumber, static_cast<double>(*v), {}};
      return {Cell::Kind::kBad, 0, std::string(toString(vb.type)) + ", expected an integer"};
    case ValueFormat::kText:
    case ValueFormat::kTextList:  // one item at a time, through rowCells
      if (vb.type != VarType::kOctetString)
        return {Cell::Kind::kBad, 0, std::string(toString(vb.type)) + ", expected text"};
      return textNumber(vb.asText().value_or(""));
    case ValueFormat::kFloat32: {
      std::uint32_t bits = 0;
      if (vb.type == VarType::kOctetString && vb.text.size() == 4) {
        for (unsigned char byte : vb.text) bits = (bits << 8) | byte;
      } else if (auto v = vb.asInteger(); v && *v >= std::numeric_limits<std::int32_t>::min() && *v <= 0xFFFFFFFFll) {
        bits = static_cast<std::uint32_t>(*v);
      } else {
        return {Cell::Kind::kBad, 0, std::string(toString(vb.type)) + ", expected 32 float bits"};
      }
      float f = 0;
      std::memcpy(&f, &bits, sizeof f);
      if (!std::isfinite(f)) return {Cell::Kind::kAbsent, 0, "float is not finite"};
      return {Cell::Kind::kNumber, static_cast<double>(f), {}};
    }
  }
  return {};
}

// The numbers one cell gives, first lane first: one, or one per item of a
// text_list ("-1.25,-1.39,-Inf,-1.34": lane 3 not reported).
std::vector<Cell> rowCells(const Varbind& vb, ValueFormat format) {
  if (format != ValueFormat::kTextList) return {cellValue(vb, format)};
  if (vb.type != VarType::kOctetString)
    return {{Cell::Kind::kBad, 0, std::string(toString(vb.type)) + ", expected text"}};
  const std::string text = vb.asText().value_or("");
  std::vector<Cell> out;
  std::size_t start = 0;
  while (start <= text.size() && out.size() <= static_cast<std::size_t>(kMaxLane)) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(textNumber(text.substr(start, comma - start)));
    start = comma + 1;
  }
  if (text.empty()) out.front().why = "empty text";
  return out;
}

void dropLaneMetric(Sample& sample, LaneMetric metric) {
  for (Lane& lane : sample.lanes) {
    if (Reading* v = lane.values.find(metric)) v->reset();
    if (metric == LaneMetric::kRxPowerDbm) lane.status.rx_no_light.reset();
    if (metric == LaneMetric::kTxPowerDbm) lane.status.tx_no_light.reset();
  }
}

// cross_check: where both columns gave a port a reading and they disagree,
// the metric is dropped on every lane of the port (which of the two is in
// the wrong unit is not known), with an issue naming both.
void crossCheck(const TableSpec& table,
                const std::map<std::pair<std::uint32_t, std::string>, std::vector<double>>& values, SampleSet& samples,
                IssueList& issues, Trace* trace) {
  for (const auto& check : table.cross_checks) {
    const ColumnRule* rule = nullptr;
    for (const auto& r : table.columns) {
      if (!r.threshold && r.column == check.first) rule = &r;
    }
    if (!rule) continue;
    for (auto it = values.lower_bound({check.first, std::string()});
         it != values.end() && it->first.first == check.first; ++it) {
      const std::string& port = it->first.second;
      auto other = values.find({check.second, port});
      if (other == values.end() || other->second.empty()) {
        if (!check.required) continue;
        issues.add(table.name + " port " + port + ": " + metricName(rule->metric) + " from column " +
                   std::to_string(check.first) + " has no reading in column " + std::to_string(check.second) +
                   " to check its unit against, not reported");
        dropLaneMetric(samples.port(port, nullptr), rule->metric.lane);
        continue;
      }
      const auto range = std::minmax_element(other->second.begin(), other->second.end());
      const double lo = *range.first;
      const double hi = *range.second;
      const bool agree = std::all_of(it->second.begin(), it->second.end(),
                                     [&](double v) { return v >= lo - check.tolerance && v <= hi + check.tolerance; });
      char text[200];
      std::snprintf(text, sizeof text, "column %u says %g, column %u says %g..%g", check.first, it->second.front(),
                    check.second, lo, hi);
      if (agree) {
        if (trace)
          trace->add(table.name + " port " + port + ": " + metricName(rule->metric) + " cross-checked, " + text);
        continue;
      }
      issues.add(table.name + " port " + port + ": " + metricName(rule->metric) + " readings disagree (" + text +
                 "): the unit of one is wrong for this platform, not reported");
      dropLaneMetric(samples.port(port, nullptr), rule->metric.lane);
    }
  }
}

using RowIndex = std::vector<std::uint32_t>;

// The rows a table's skip_rows rules call "no module", sorted.
std::vector<RowIndex> skippedRows(const TableSpec& table, const VarbindStore& values, Trace* trace) {
  std::vector<RowIndex> out;
  for (const auto& rule : table.skip_rows) {
    auto first = values.column(table.entry, rule.columns.front());
    for (const auto& vb : first.rows()) {
      auto index = first.indexOf(vb);
      bool skip = false;
      if (rule.kind == RowSkip::Kind::kAllZero || rule.kind == RowSkip::Kind::kAllIn) {
        skip = true;
        for (auto col : rule.columns) {
          const auto* cell = col == rule.columns.front() ? &vb : values.column(table.entry, col).find(index);
          if (!cell) continue;
          const auto v = cell->asInteger();
          const bool nothing = rule.kind == RowSkip::Kind::kAllZero
                                   ? v.value_or(1) == 0
                                   : v && std::find(rule.values.begin(), rule.values.end(), *v) != rule.values.end();
          if (!nothing) {
            skip = false;
            break;
          }
        }
      } else {
        auto v = vb.asInteger();
        bool listed = v && std::find(rule.values.begin(), rule.values.end(), *v) != rule.values.end();
        skip = rule.kind == RowSkip::Kind::kEquals ? listed : !listed;
      }
      if (!skip) continue;
      if (trace) {
        std::string cols;
        for (auto col : rule.columns) cols += (cols.empty() ? "" : ",") + std::to_string(col);
        trace->add(table.name + "." + indexText(index) + ": row skipped (no module): " +
                   (rule.kind == RowSkip::Kind::kAllZero ? "all_zero " + cols
                    : rule.kind == RowSkip::Kind::kAllIn
                        ? "all_in " + cols
                        : "column " + cols + " = " + std::to_string(vb.asInteger().value_or(0))));
      }
      out.emplace_back(index.begin(), index.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The port a table row belongs to; empty when the row names none.
std::string tablePort(const TableSpec& table, const Layout& layout, const VarbindStore& values,
                      std::span<const std::uint32_t> index, std::string& why) {
  auto byIfIndex = [&](std::uint32_t if_index) {
    const std::string* name = layout.ifName(if_index);
    return name ? *name : "ifIndex" + std::to_string(if_index);
  };
  switch (table.port.from) {
    case TablePortSpec::From::kIfIndexArc:
      if (index.size() < table.port_arc) return {};
      return byIfIndex(index[table.port_arc - 1]);
    case TablePortSpec::From::kIfIndexColumn: {
      const auto* vb = values.column(table.entry, table.port.column).find(index);
      auto v = vb ? vb->asInteger() : std::nullopt;
      if (!v || *v <= 0 || *v > 0xFFFFFFFFll) {
        why = "no ifIndex in column " + std::to_string(table.port.column);
        return {};
      }
      return byIfIndex(static_cast<std::uint32_t>(*v));
    }
    case TablePortSpec::From::kNameColumn: {
      const auto* vb = values.column(table.entry, table.port.column).find(index);
      auto text = vb ? vb->asText() : std::nullopt;
      if (!text || text->empty()) {
        why = "no name in column " + std::to_string(table.port.column);
        return {};
      }
      if (!table.port.pattern) return *text;
      std::smatch m;
      if (!std::regex_search(*text, m, *table.port.pattern)) {
        why = "name '" + *text + "' does not match '" + table.port.pattern_text + "'";
        return {};
      }
      return m[1].str();
    }
    case TablePortSpec::From::kIndexTemplate: {
      std::string name = table.port.template_pieces.front();
      for (std::size_t i = 0; i < table.port.template_arcs.size(); ++i) {
        const std::uint32_t arc = table.port.template_arcs[i];
        if (index.size() < arc) {
          why = "index has no arc " + std::to_string(arc) + " for port.index_template";
          return {};
        }
        name += std::to_string(index[arc - 1]);
        name += table.port.template_pieces[i + 1];
      }
      return name;
    }
    case TablePortSpec::From::kEntityArc: {
      if (index.size() < table.port_arc) return {};
      const std::string* name = layout.entityName(index[table.port_arc - 1]);
      if (!name) why = "entity " + std::to_string(index[table.port_arc - 1]) + " has no alias mapping or name";
      return name ? *name : std::string();
    }
  }
  return {};
}

void applyTable(const TableSpec& table, const Layout& layout, const VarbindStore& values, SampleSet& samples,
                IssueList& issues, Trace* trace) {
  const std::vector<RowIndex> skipped =
      table.skip_rows.empty() ? std::vector<RowIndex>{} : skippedRows(table, values, trace);
  auto isSkipped = [&](std::span<const std::uint32_t> index) {
    return std::binary_search(skipped.begin(), skipped.end(), index, [](const auto& a, const auto& b) {
      return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    });
  };
  // Readings of the columns a cross_check compares, by (column, port).
  std::map<std::pair<std::uint32_t, std::string>, std::vector<double>> check_values;
  for (const auto& rule : table.columns) {
    std::set<std::pair<std::string, int>> given;  // (port, lane or 0) this column has set, for row_wins
    const bool checked =
        !rule.threshold && std::any_of(table.cross_checks.begin(), table.cross_checks.end(), [&](const CrossCheck& x) {
          return x.first == rule.column || x.second == rule.column;
        });
    auto column = values.column(table.entry, rule.column);
    auto precision_col = rule.precision_column ? values.column(table.entry, rule.precision_column) : Column();
    auto scale_col = rule.scale_column ? values.column(table.entry, rule.scale_column) : Column();
    auto exponent_col = rule.exponent_column ? values.column(table.entry, rule.exponent_column) : Column();
    for (const auto& vb : column.rows()) {
      auto index = column.indexOf(vb);
      if (index.size() < table.port_arc || index.size() < table.lane_arc) continue;
      if (!skipped.empty() && isSkipped(index)) continue;
      const std::string cell_name =
          trace ? table.name + "." + std::to_string(rule.column) + "." + indexText(index) : std::string();
      std::string why;
      std::string port = tablePort(table, layout, values, index, why);
      if (port.empty()) {
        if (trace) trace->add(cell_name + ": skipped, " + (why.empty() ? "index too short for port_arc" : why));
        continue;
      }
      int lane = rule.lane        ? rule.lane
                 : table.lane_arc ? static_cast<int>(index[table.lane_arc - 1]) + (1 - table.lane_base)
                                  : 1;
      if (lane < 1 || lane > kMaxLane) {
        issues.add(table.name + "." + indexText(index) + ": lane out of range");
        continue;
      }
      Sample& sample = samples.port(port, nullptr);
      if (rule.metric.isCounter()) {
        auto v = vb.asCounter();
        if (!v) {
          issues.add(table.name + "." + std::to_string(rule.column) + "." + indexText(index) + ": " +
                     std::string(toString(vb.type)) + " is not a counter");
          continue;
        }
        setCounter(sample, rule.metric.kind, *v);
        if (trace)
          trace->add(cell_name + ": " + std::string(metricName(rule.metric)) + " port " + port + " = " +
                     std::to_string(*v));
        continue;
      }
      const std::vector<Cell> cells = rowCells(vb, rule.format);
      for (std::size_t item = 0; item < cells.size(); ++item) {
        const Cell& cell = cells[item];
        const int cell_lane = lane + static_cast<int>(item);
        if (cell_lane > kMaxLane) {
          issues.add(table.name + "." + std::to_string(rule.column) + "." + indexText(index) + ": more lanes than " +
                     std::to_string(kMaxLane));
          break;
        }
        if (cell.kind == Cell::Kind::kBad) {
          issues.add(table.name + "." + std::to_string(rule.column) + "." + indexText(index) + ": " + cell.why);
          continue;
        }
        if (cell.kind == Cell::Kind::kAbsent || rule.absent.matches(cell.raw)) {
          if (trace) {
            trace->add(cell_name + ": not reported (" +
                       (cell.kind == Cell::Kind::kAbsent ? cell.why : "sentinel " + std::to_string(cell.raw)) + ")");
          }
          continue;
        }
        double v = cell.raw / rule.divisor;
        if (rule.precision_column) {
          const auto* p = precision_col.find(index);
          auto digits = p && p->asInteger() ? precisionFactor(*p->asInteger()) : std::nullopt;
          if (!digits) {
            issues.add(table.name + "." + indexText(index) + ": precision missing or out of range");
            continue;
          }
          v *= *digits;
        }
        if (rule.scale_column) {
          const auto* sc = scale_col.find(index);
          auto scale = sc && sc->asInteger() ? scaleFactor(*sc->asInteger()) : std::nullopt;
          if (!scale) {
            issues.add(table.name + "." + indexText(index) + ": scale missing or out of range");
            continue;
          }
          v *= *scale;
        }
        if (rule.exponent_column) {
          // No BER or ratio a module reports needs more than 10^+-40; anything
          // beyond is a broken agent, not a value.
          constexpr std::int64_t kMaxExponent = 40;
          const auto* e = exponent_col.find(index);
          auto exponent = e ? e->asInteger() : std::nullopt;
          if (!exponent || *exponent < -kMaxExponent || *exponent > kMaxExponent) {
            issues.add(table.name + "." + indexText(index) + ": exponent missing or out of range");
            continue;
          }
          v *= std::pow(10.0, static_cast<double>(rule.exponent_sign * *exponent));
        }
        if (rule.threshold) {
          if (auto t = convertThreshold(rule.metric, rule.unit, v))
            setThreshold(sample, rule.metric, *rule.threshold, *t);
          continue;
        }
        auto c = convert(rule.metric, rule.unit, v);
        if (!c) {
          issues.add(table.name + "." + indexText(index) + ": " + c.error().message);
          continue;
        }
        // A module value has one slot per port, whatever lane the row is on.
        // `last` (the default) needs no bookkeeping: every row simply replaces.
        const bool repeat =
            rule.row_wins != RowWins::kLast &&
            !given.emplace(port, rule.metric.kind == MetricTarget::Kind::kModule ? 0 : cell_lane).second;
        if (repeat &&
            !rowReplaces(rule.row_wins, currentValue(sample, rule.metric, static_cast<std::uint16_t>(cell_lane)),
                         c->value)) {
          if (trace)
            trace->add(cell_name + ": " + std::to_string(c->value) + " not kept, an earlier row wins (row_wins)");
          continue;
        }
        setValue(sample, rule.metric, static_cast<std::uint16_t>(cell_lane), *c);
        if (checked) check_values[{rule.column, port}].push_back(c->value);
        if (trace) {
          trace->add(cell_name + ": " + std::string(metricName(rule.metric)) + " port " + port + " lane " +
                     std::to_string(cell_lane) + " = " + std::to_string(c->value) + " (raw " +
                     std::to_string(cell.raw) + ")");
        }
      }
    }
  }
  if (!table.cross_checks.empty()) crossCheck(table, check_values, samples, issues, trace);
}

// A laser that is off draws no bias current and emits nothing: a lane with
// 0 mA bias and exactly 0 dBm (1 mW) Tx power is a port whose agent writes 0
// for "no reading" (NX-OS on an admin-down port gives Tx and Rx as dBm raw 0,
// bias 0). 0 dBm would read as a healthy link, so the lane's powers that are
// exactly 0 dBm are not reported; a receiver the device calls dark keeps its
// -40 dBm floor and flag.
void dropDarkLaserPower(Sample& sample, Trace* trace) {
  for (Lane& lane : sample.lanes) {
    const Reading* bias = lane.values.find(LaneMetric::kTxBiasMilliamperes);
    const Reading* tx = lane.values.find(LaneMetric::kTxPowerDbm);
    if (!bias || !*bias || **bias != 0.0 || !tx || !*tx || **tx != 0.0) continue;
    for (LaneMetric m : {LaneMetric::kTxPowerDbm, LaneMetric::kRxPowerDbm}) {
      Reading* v = lane.values.find(m);
      if (v && *v && **v == 0.0) v->reset();
    }
    if (trace) {
      trace->add("port " + sample.port + " lane " + std::to_string(lane.number) +
                 ": laser off (bias 0 mA), its 0 dBm power readings not reported");
    }
  }
  // No module runs at 0 V: a supply of exactly 0 is an agent's "no reading"
  // (a module without monitors, IOS-XR and NX-OS give every sensor 0), and a
  // temperature of exactly 0 beside it is the same, not 0 degC.
  Reading& vcc = sample.module[ModuleMetric::kSupplyVoltageVolts];
  if (!vcc || *vcc != 0.0) return;
  vcc.reset();
  Reading& temperature = sample.module[ModuleMetric::kTemperatureCelsius];
  const bool no_monitors = temperature && *temperature == 0.0;
  if (no_monitors) temperature.reset();
  if (trace) {
    trace->add("port " + sample.port + ": supply 0 V is no reading" +
               (no_monitors ? ", and so is its 0 degC temperature: not reported" : ": not reported"));
  }
}

}  // namespace

const std::string* Layout::ifName(std::uint32_t if_index) const {
  auto it = std::lower_bound(if_names.begin(), if_names.end(), if_index,
                             [](const auto& p, std::uint32_t k) { return p.first < k; });
  if (it == if_names.end() || it->first != if_index) return nullptr;
  return &it->second;
}

const std::string* Layout::entityName(std::uint32_t entity) const {
  auto it = std::lower_bound(entity_names.begin(), entity_names.end(), entity,
                             [](const auto& p, std::uint32_t k) { return p.first < k; });
  if (it == entity_names.end() || it->first != entity) return nullptr;
  return &it->second;
}

WalkPlan planWalks(const Profile& profile) {
  WalkPlan plan;
  bool need_if_names = !profile.tables.empty();
  if (const auto& spec = profile.entity_sensors) {
    for (std::uint32_t col : {1u, 2u, 3u}) plan.static_roots.push_back(spec->sensor_entry.child(col));
    plan.static_roots.push_back(oids::kEntPhysicalEntry.child(spec->text_column));
    if (spec->ancestorTextColumn() != spec->text_column) {
      plan.static_roots.push_back(oids::kEntPhysicalEntry.child(spec->ancestorTextColumn()));
    }
    bool need_containment = spec->port_method == EntitySensorSpec::PortMethod::kContainedIn ||
                            spec->identity != EntitySensorSpec::IdentityFrom::kNone || spec->port_name_from_alias;
    if (need_containment) plan.static_roots.push_back(oids::kEntPhysicalEntry.child(4));
    if (spec->identity != EntitySensorSpec::IdentityFrom::kNone) {
      for (std::uint32_t col : {8u, 11u, 12u, 13u}) plan.static_roots.push_back(oids::kEntPhysicalEntry.child(col));
    }
    if (spec->port_name_from_alias) {
      plan.static_roots.push_back(oids::kEntAliasMappingIdentifier);
      need_if_names = true;
    }
    if (spec->threshold_style == EntitySensorSpec::ThresholdStyle::kColumns) {
      for (auto col : spec->threshold_columns) {
        if (col) plan.static_roots.push_back(spec->threshold_entry.child(col));
      }
    } else if (spec->threshold_style == EntitySensorSpec::ThresholdStyle::kCiscoRelation) {
      plan.static_roots.push_back(spec->threshold_entry);
    }
    plan.dynamic_roots.push_back(spec->sensor_entry.child(4));
    plan.dynamic_roots.push_back(spec->sensor_entry.child(5));
  }
  for (const auto& table : profile.tables) {
    plan.dynamic_roots.push_back(table.entry);
    if (table.port.from == TablePortSpec::From::kEntityArc) {
      plan.static_roots.push_back(oids::kEntAliasMappingIdentifier);
      plan.static_roots.push_back(oids::kEntPhysicalEntry.child(7));  // entPhysicalName
    }
  }
  if (need_if_names) {
    plan.static_roots.push_back(oids::kIfName);
    plan.static_roots.push_back(oids::kIfDescr);  // agents without ifXTable
  }
  std::sort(plan.static_roots.begin(), plan.static_roots.end());
  plan.static_roots.erase(std::unique(plan.static_roots.begin(), plan.static_roots.end()), plan.static_roots.end());
  return plan;
}

Layout resolve(const Profile& profile, const VarbindStore& slow, Trace* trace) {
  Layout layout;
  layout.if_names = readIfNames(slow);
  if (profile.entity_sensors) resolveEntitySensors(*profile.entity_sensors, slow, layout, trace);
  const bool entity_tables = std::any_of(profile.tables.begin(), profile.tables.end(), [](const TableSpec& t) {
    return t.port.from == TablePortSpec::From::kEntityArc;
  });
  if (entity_tables) {
    // entAliasMapping to an ifIndex gives the ifName; else the entity's own name.
    auto names = slow.column(oids::kEntPhysicalEntry, 7);
    for (const auto& vb : names.rows()) {
      auto index = names.indexOf(vb);
      if (index.size() != 1) continue;
      std::string name = vb.asText().value_or("");
      if (auto if_index = aliasIfIndex(slow, index[0])) {
        if (const auto* if_name = layout.ifName(*if_index)) name = *if_name;
      }
      if (!name.empty()) layout.entity_names.emplace_back(index[0], std::move(name));
    }
    for (const auto& vb : slow.subtree(oids::kEntAliasMappingIdentifier)) {
      // Entities with an alias but no entPhysicalName row.
      if (vb.oid.size() != oids::kEntAliasMappingIdentifier.size() + 2) continue;
      std::uint32_t entity = vb.oid.arcs()[oids::kEntAliasMappingIdentifier.size()];
      if (names.find(entity)) continue;
      if (auto if_index = aliasIfIndex(slow, entity)) {
        if (const auto* if_name = layout.ifName(*if_index)) layout.entity_names.emplace_back(entity, *if_name);
      }
    }
    std::sort(layout.entity_names.begin(), layout.entity_names.end());
  }
  return layout;
}

PollResult apply(const Profile& profile, const Layout& layout, const VarbindStore& values, const std::string& target,
                 std::int64_t timestamp_ms, Trace* trace) {
  PollResult result;
  SampleSet samples(target, timestamp_ms);
  {
    IssueList issues(result.errors);
    for (const auto& issue : layout.issues) issues.add(issue);
    if (const auto& spec = profile.entity_sensors) {
      auto value_col = values.column(spec->sensor_entry, 4);
      auto status_col = values.column(spec->sensor_entry, 5);
      for (const auto& b : layout.sensors) {
        const auto* vb = value_col.find(b.index);
        if (!vb) continue;  // not reported this time
        // entPhySensorOperStatus ok(1); unavailable(2)/nonoperational(3) values mean nothing.
        if (const auto* st = status_col.find(b.index); st && st->asInteger() && *st->asInteger() != 1) {
          if (trace)
            trace->add("sensor " + indexText(b.index) + ": not reported (status " + std::to_string(*st->asInteger()) +
                       ")");
          continue;
        }
        auto raw = vb->type == VarType::kInteger ? std::optional<std::int64_t>(vb->integer) : std::nullopt;
        if (!raw) {
          issues.add("sensor " + indexText(b.index) + ": value is " + std::string(toString(vb->type)) +
                     ", expected INTEGER");
          continue;
        }
        if (b.absent && b.absent->matches(static_cast<double>(*raw))) {
          if (trace)
            trace->add("sensor " + indexText(b.index) + ": not reported (sentinel " + std::to_string(*raw) + ")");
          continue;
        }
        auto c = convert(b.metric, b.unit, static_cast<double>(*raw) * b.factor);
        if (!c) {
          issues.add("sensor " + indexText(b.index) + ": " + c.error().message);
          continue;
        }
        const auto& port = layout.ports[b.port];
        Sample& sample = samples.port(port.name, &port.identity);
        setValue(sample, b.metric, b.lane, *c);
        for (std::size_t k = 0; k < 4; ++k) {
          if (b.thresholds[k]) setThreshold(sample, b.metric, static_cast<ThresholdKind>(k), *b.thresholds[k]);
        }
      }
    }
    for (const auto& table : profile.tables) applyTable(table, layout, values, samples, issues, trace);
  }
  result.samples = samples.take();
  for (auto& sample : result.samples) dropDarkLaserPower(sample, trace);
  return result;
}

PollResult decode(const Profile& profile, const VarbindStore& all, const std::string& target,
                  std::int64_t timestamp_ms) {
  return apply(profile, resolve(profile, all), all, target, timestamp_ms);
}

}  // namespace opticsd::snmp
