#include "drivers/snmp/profile.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include "drivers/lane_limit.hpp"
#include "drivers/options/duplicate_keys.hpp"
#include "drivers/options/option_reader.hpp"

namespace opticsd::snmp {
namespace {

// "cmmTrans{1}.{2}" -> pieces {"cmmTrans", ".", ""}, arcs {1, 2}. Braces only
// as placeholders of an index arc 1..16; at least one placeholder, so that two
// rows never share a name by accident.
tl::expected<std::pair<std::vector<std::string>, std::vector<std::uint32_t>>, std::string> parseIndexTemplate(
    const std::string& text) {
  std::vector<std::string> pieces{std::string()};
  std::vector<std::uint32_t> arcs;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '}') return tl::unexpected(std::string("'}' without '{'"));
    if (c != '{') {
      pieces.back() += c;
      continue;
    }
    const auto close = text.find('}', i);
    if (close == std::string::npos) return tl::unexpected(std::string("'{' without '}'"));
    const std::string digits = text.substr(i + 1, close - i - 1);
    if (digits.empty() || digits.size() > 2 || digits.find_first_not_of("0123456789") != std::string::npos) {
      return tl::unexpected("'{" + digits + "}' is not an index arc number");
    }
    const auto arc = static_cast<std::uint32_t>(std::stoul(digits));
    if (arc < 1 || arc > 16) return tl::unexpected("index arc " + digits + " is outside 1..16");
    arcs.push_back(arc);
    pieces.emplace_back();
    i = close;
  }
  if (arcs.empty()) return tl::unexpected(std::string("needs at least one {N} (an index arc)"));
  return std::make_pair(std::move(pieces), std::move(arcs));
}

constexpr MetricTarget moduleMetric(ModuleMetric m) { return {MetricTarget::Kind::kModule, m, {}}; }
constexpr MetricTarget laneMetric(LaneMetric m) { return {MetricTarget::Kind::kLane, {}, m}; }
constexpr MetricTarget counter(MetricTarget::Kind k) { return {k, {}, {}}; }

struct NamedTarget {
  std::string_view name;
  MetricTarget target;
};

// Port counters are not in the module/lane catalogue: they take the name they
// are exported under (opticsd_<name>).
constexpr std::array kCounterNames{
    NamedTarget{"fec_corrected_blocks_total", counter(MetricTarget::Kind::kFecCorrectedBlocks)},
    NamedTarget{"fec_uncorrectable_blocks_total", counter(MetricTarget::Kind::kFecUncorrectableBlocks)},
    NamedTarget{"fec_corrected_bit_errors_total", counter(MetricTarget::Kind::kFecCorrectedBits)},
};

// The names profiles used before they took the catalogue's. Still read (with
// a warning) so that a user's own profile directory survives an upgrade.
constexpr std::array kOldMetricNames{
    NamedTarget{"temperature", moduleMetric(ModuleMetric::kTemperatureCelsius)},
    NamedTarget{"supply_voltage", moduleMetric(ModuleMetric::kSupplyVoltageVolts)},
    NamedTarget{"laser_temperature", moduleMetric(ModuleMetric::kLaserTemperatureCelsius)},
    NamedTarget{"pre_fec_ber", moduleMetric(ModuleMetric::kPreFecBerRatio)},
    NamedTarget{"post_fec_ber", moduleMetric(ModuleMetric::kPostFecBerRatio)},
    NamedTarget{"tx_bias", laneMetric(LaneMetric::kTxBiasMilliamperes)},
    NamedTarget{"tx_power", laneMetric(LaneMetric::kTxPowerDbm)},
    NamedTarget{"rx_power", laneMetric(LaneMetric::kRxPowerDbm)},
    NamedTarget{"lane_pre_fec_ber", laneMetric(LaneMetric::kPreFecBerRatio)},
    NamedTarget{"fec_corrected_blocks", counter(MetricTarget::Kind::kFecCorrectedBlocks)},
    NamedTarget{"fec_uncorrectable_blocks", counter(MetricTarget::Kind::kFecUncorrectableBlocks)},
    NamedTarget{"fec_corrected_bits", counter(MetricTarget::Kind::kFecCorrectedBits)},
};

// A catalogue key that names both a module and a lane value (pre_fec_ber_ratio)
// takes the exported family's prefix: module_pre_fec_ber_ratio, lane_pre_fec_ber_ratio.
constexpr std::string_view kModulePrefix = "module_";
constexpr std::string_view kLanePrefix = "lane_";

std::optional<MetricTarget> moduleByKey(std::string_view key) {
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (kModuleMetricInfo[i].key == key) return moduleMetric(static_cast<ModuleMetric>(i));
  }
  return std::nullopt;
}

std::optional<MetricTarget> laneByKey(std::string_view key) {
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (kLaneMetricInfo[i].key == key) return laneMetric(static_cast<LaneMetric>(i));
  }
  return std::nullopt;
}

std::optional<MetricTarget> oldMetricName(std::string_view name) {
  for (const auto& row : kOldMetricNames) {
    if (row.name == name) return row.target;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<std::string_view, ValueUnit>, 9> kUnits{{
    {"auto", ValueUnit::kAuto},
    {"dbm", ValueUnit::kDbm},
    {"mw", ValueUnit::kMilliwatts},
    {"w", ValueUnit::kWatts},
    {"uw", ValueUnit::kMicrowatts},
    {"ma", ValueUnit::kMilliamperes},
    {"ua", ValueUnit::kMicroamperes},
    {"a", ValueUnit::kAmperes},
    {"native", ValueUnit::kNative},
}};

bool sameTarget(const MetricTarget& a, const MetricTarget& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == MetricTarget::Kind::kModule) return a.module == b.module;
  if (a.kind == MetricTarget::Kind::kLane) return a.lane == b.lane;
  return true;
}

// ---- Value readers on top of OptionReader: each records its problem at the
// key (file:line:col) and returns nullopt, so that one load reports them all.

constexpr std::int64_t kMaxColumn = 100000;

std::string itemPath(const OptionReader& r, std::string_view key, std::size_t i) {
  return (r.path().empty() ? "" : r.path() + ".") + std::string(key) + "[" + std::to_string(i) + "]";
}

// The items of the list under `key`, each read as a mapping of its own
// ("tables[2].columns[0]"), with its unknown keys refused.
template <typename ReadItem>
void forEachItem(OptionReader& r, std::string_view key, bool required, ReadItem&& read) {
  auto node = r.raw(key);
  if (!node) {
    if (required) r.error("", "missing required key '" + std::string(key) + "' (a non-empty list)");
    return;
  }
  if (!node->IsSequence() || (required && node->size() == 0)) {
    r.error(key, required ? "expected a non-empty list" : "expected a list");
    return;
  }
  for (std::size_t i = 0; i < node->size(); ++i) {
    OptionReader item((*node)[i], r.file(), itemPath(r, key, i), r.issues());
    if (!(*node)[i].IsMap()) continue;  // the reader has reported it
    read(item);
    item.rejectUnknownKeys();
  }
}

std::optional<std::int64_t> requiredInt(OptionReader& r, std::string_view key, std::int64_t min, std::int64_t max) {
  if (!r.has(key)) {
    r.raw(key);
    r.error("", "missing required key '" + std::string(key) + "'");
    return std::nullopt;
  }
  return r.optionalInt(key, min, max);
}

std::optional<std::uint32_t> optionalColumn(OptionReader& r, std::string_view key) {
  auto v = r.optionalInt(key, 1, kMaxColumn);
  if (!v) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

std::optional<Oid> readOid(OptionReader& r, std::string_view key) {
  const std::string text = r.requiredString(key);
  if (text.empty()) return std::nullopt;
  auto parsed = Oid::parse(text);
  if (!parsed) {
    r.error(key, parsed.error().message);
    return std::nullopt;
  }
  return std::move(*parsed);
}

// One of a fixed set of words, as its value.
template <typename T, std::size_t N>
std::optional<T> readChoice(OptionReader& r, std::string_view key,
                            const std::array<std::pair<std::string_view, T>, N>& choices, bool required = false) {
  if (required && !r.has(key)) {
    r.raw(key);
    r.error("", "missing required key '" + std::string(key) + "'");
    return std::nullopt;
  }
  auto text = r.optionalString(key);
  if (!text) return std::nullopt;
  std::string expected;
  for (const auto& [name, value] : choices) {
    if (name == *text) return value;
    expected += (expected.empty() ? "" : ", ") + std::string(name);
  }
  r.error(key, "expected one of " + expected + ", got '" + *text + "'");
  return std::nullopt;
}

struct Pattern {
  std::string text;
  std::regex regex;
};

// A regular expression with at least `groups` capture groups (`meaning` says what group 1 is).
std::optional<Pattern> readPattern(OptionReader& r, std::string_view key, bool required, unsigned groups = 0,
                                   std::string_view meaning = "") {
  std::optional<std::string> text = required ? std::optional(r.requiredString(key)) : r.optionalString(key);
  if (!text || (required && text->empty())) return std::nullopt;
  if (text->size() > 512) {
    r.error(key, "pattern longer than 512 characters");
    return std::nullopt;
  }
  try {
    std::regex regex(*text, std::regex::ECMAScript | std::regex::optimize);
    if (regex.mark_count() < groups) {
      r.error(key, "needs a capture group for " + std::string(meaning));
      return std::nullopt;
    }
    return Pattern{*text, std::move(regex)};
  } catch (const std::regex_error& e) {
    r.error(key, std::string("bad regular expression: ") + e.what());
    return std::nullopt;
  }
}

// A scalar or a list of scalars, each decoded as T and accepted by `accept`;
// null when any item is not.
template <typename T, typename Accept>
std::optional<std::vector<T>> scalarOrList(const YAML::Node& node, Accept accept) {
  std::vector<T> out;
  bool ok = true;
  auto one = [&](const YAML::Node& item) {
    T v{};
    if (item.IsScalar() && YAML::convert<T>::decode(item, v) && accept(v)) {
      out.push_back(v);
    } else {
      ok = false;
    }
  };
  if (node.IsSequence()) {
    for (const auto& item : node) one(item);
  } else {
    one(node);
  }
  if (!ok) return std::nullopt;
  return out;
}

// `key: 3` or `key: [3, 4]`, each in min..max.
std::optional<std::vector<std::int64_t>> readIntegers(OptionReader& r, std::string_view key, std::int64_t min,
                                                      std::int64_t max) {
  auto node = r.raw(key);
  if (!node) return std::nullopt;
  auto out = scalarOrList<std::int64_t>(*node, [&](std::int64_t v) { return v >= min && v <= max; });
  if (!out || out->empty()) {
    r.error(key, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                     " or a non-empty list of them");
    return std::nullopt;
  }
  return out;
}

// `absent: -1000.01` or `absent: [-1000.01, 65535]`
std::optional<Sentinels> readSentinels(OptionReader& r) {
  auto node = r.raw("absent");
  if (!node) return std::nullopt;
  auto values = scalarOrList<double>(*node, [](double v) { return std::isfinite(v); });
  if (!values) {
    r.error("absent", "expected a number or a list of numbers");
    return std::nullopt;
  }
  Sentinels out;
  out.values = std::move(*values);
  return out;
}

std::optional<ValueUnit> readUnit(OptionReader& r) {
  auto text = r.optionalString("unit");
  if (!text) return std::nullopt;
  auto unit = parseValueUnit(*text);
  if (!unit) {
    r.error("unit", unit.error().message);
    return std::nullopt;
  }
  return *unit;
}

// Where a warning points: "file:line:col: path.key: message", like an error.
std::string warningAt(OptionReader& r, std::string_view key, std::string message) {
  ConfigIssue where{r.file(), 0, 0, (r.path().empty() ? "" : r.path() + ".") + std::string(key), std::move(message)};
  if (auto node = r.raw(key); node && !node->Mark().is_null()) {
    where.line = node->Mark().line + 1;
    where.column = node->Mark().column + 1;
  }
  return where.format();
}

std::optional<MetricTarget> readMetric(OptionReader& r, std::vector<std::string>& warnings) {
  const std::string name = r.requiredString("metric");
  if (name.empty()) return std::nullopt;
  auto parsed = parseMetricName(name);
  if (parsed) return *parsed;
  if (auto old = oldMetricName(name)) {
    warnings.push_back(warningAt(r, "metric",
                                 "'" + name + "' is the old name of '" + metricName(*old) +
                                     "'; it is still read, but rename it (the catalogue's names are the only ones "
                                     "documented, see schemas/snmp-profiles/README.md)"));
    return old;
  }
  r.error("metric", parsed.error().message);
  return std::nullopt;
}

constexpr std::array<std::pair<std::string_view, ThresholdKind>, 4> kThresholdKinds{{
    {"high_alarm", ThresholdKind::kHighAlarm},
    {"high_warning", ThresholdKind::kHighWarning},
    {"low_warning", ThresholdKind::kLowWarning},
    {"low_alarm", ThresholdKind::kLowAlarm},
}};

// ---- entity_sensors

constexpr std::array<std::pair<std::string_view, std::uint32_t>, 2> kSensorTextColumns{{{"descr", 2}, {"name", 7}}};

std::optional<SensorRule> readSensorRule(OptionReader& r, std::vector<std::string>& warnings) {
  auto pattern = readPattern(r, "match", true);
  auto text_column = readChoice(r, "text", kSensorTextColumns);
  auto metric = readMetric(r, warnings);
  if (metric && metric->isCounter()) r.error("metric", "counters come from tables, not sensors");
  auto type = r.optionalInt("type", 1, 14);
  auto unit = readUnit(r);
  auto absent = readSentinels(r);
  if (!pattern || !metric) return std::nullopt;
  SensorRule rule;
  rule.pattern = std::move(pattern->text);
  rule.match = std::move(pattern->regex);
  rule.metric = *metric;
  if (type) rule.sensor_type = static_cast<int>(*type);
  if (unit) rule.unit = *unit;
  if (absent) rule.absent = std::move(*absent);
  if (text_column) rule.text_column = *text_column;
  return rule;
}

constexpr std::array<std::pair<std::string_view, EntitySensorSpec::PortMethod>, 2> kPortMethods{{
    {"description", EntitySensorSpec::PortMethod::kDescription},
    {"contained_in", EntitySensorSpec::PortMethod::kContainedIn},
}};
constexpr std::array<std::pair<std::string_view, bool>, 2> kPortNameFrom{{{"pattern", false}, {"alias", true}}};

// entity_sensors.port: how a sensor row finds its port and lane.
void readSensorPort(OptionReader r, EntitySensorSpec& spec) {
  if (auto method = readChoice(r, "method", kPortMethods, true)) spec.port_method = *method;
  if (auto column = readChoice(r, "text", kSensorTextColumns)) spec.text_column = *column;
  if (auto column = readChoice(r, "ancestor_text", kSensorTextColumns)) {
    if (spec.port_method != EntitySensorSpec::PortMethod::kContainedIn) {
      r.error("ancestor_text", "only with method: contained_in");
    } else {
      spec.ancestor_text_column = *column;
    }
  }
  if (auto port = readPattern(r, "pattern", true, 1, "the port")) {
    spec.port_pattern = std::move(port->text);
    spec.port_regex = std::move(port->regex);
  }
  if (auto lane = readPattern(r, "lane_pattern", false, 1, "the lane")) {
    spec.lane_pattern = std::move(lane->text);
    spec.lane_regex = std::move(lane->regex);
  }
  if (auto fallback = readPattern(r, "fallback_pattern", false, 1, "the port")) {
    spec.fallback_regex = std::move(fallback->regex);
  }
  if (auto lane = readPattern(r, "sensor_lane_pattern", false, 1, "the lane")) {
    spec.sensor_lane_regex = std::move(lane->regex);
  }
  if (auto base = r.optionalInt("lane_base", 0, 1)) spec.lane_base = static_cast<int>(*base);
  if (auto alias = readChoice(r, "name_from", kPortNameFrom)) spec.port_name_from_alias = *alias;
  r.rejectUnknownKeys();
}

constexpr std::array<std::pair<std::string_view, EntitySensorSpec::ThresholdStyle>, 2> kThresholdStyles{{
    {"columns", EntitySensorSpec::ThresholdStyle::kColumns},
    {"cisco_relation", EntitySensorSpec::ThresholdStyle::kCiscoRelation},
}};

// entity_sensors.thresholds: a threshold table beside the sensor table.
void readSensorThresholds(OptionReader r, EntitySensorSpec& spec) {
  if (auto style = readChoice(r, "style", kThresholdStyles, true)) spec.threshold_style = *style;
  if (auto entry = readOid(r, "entry")) spec.threshold_entry = std::move(*entry);
  for (const auto& [key, kind] : kThresholdKinds) {
    auto column = r.optionalInt(key, 1, 1000);
    if (!column) continue;
    if (spec.threshold_style != EntitySensorSpec::ThresholdStyle::kColumns) {
      r.error(key, "a threshold column only applies with style: columns");
      continue;
    }
    spec.threshold_columns[static_cast<std::size_t>(kind)] = static_cast<std::uint32_t>(*column);
  }
  r.rejectUnknownKeys();
}

constexpr std::array<std::pair<std::string_view, EntitySensorSpec::IdentityFrom>, 3> kIdentityFrom{{
    {"none", EntitySensorSpec::IdentityFrom::kNone},
    {"parent", EntitySensorSpec::IdentityFrom::kParent},
    {"port_entity", EntitySensorSpec::IdentityFrom::kPortEntity},
}};

EntitySensorSpec readEntitySensors(OptionReader r, std::vector<std::string>& warnings) {
  EntitySensorSpec spec;
  if (auto entry = readOid(r, "sensor_entry")) spec.sensor_entry = std::move(*entry);
  forEachItem(r, "sensors", true, [&](OptionReader& item) {
    if (auto rule = readSensorRule(item, warnings)) spec.sensors.push_back(std::move(*rule));
  });
  if (r.has("port")) {
    readSensorPort(r.child("port"), spec);
  } else {
    r.raw("port");
    r.error("", "missing required key 'port' (how a sensor finds its port)");
  }
  // A rule reads the column the slow walk fetches for the sensor or its ancestors.
  for (const auto& rule : spec.sensors) {
    if (rule.text_column && rule.text_column != spec.text_column && rule.text_column != spec.ancestorTextColumn()) {
      r.error("sensors", "rule '" + rule.pattern + "': text must be the port's text or ancestor_text");
    }
  }
  if (auto identity = readChoice(r, "identity", kIdentityFrom)) spec.identity = *identity;
  if (r.has("thresholds")) readSensorThresholds(r.child("thresholds"), spec);
  r.rejectUnknownKeys();
  return spec;
}

// ---- tables

// table.port: exactly one way of naming the row's port.
void readTablePort(OptionReader r, TablePortSpec& port) {
  const int given = (r.has("if_index_column") ? 1 : 0) + (r.has("name_column") ? 1 : 0) +
                    (r.has("entity_index") ? 1 : 0) + (r.has("index_template") ? 1 : 0);
  if (given != 1) r.error("", "give one of if_index_column, name_column, entity_index, index_template");
  if (auto column = optionalColumn(r, "if_index_column")) {
    port.from = TablePortSpec::From::kIfIndexColumn;
    port.column = *column;
  }
  if (auto column = optionalColumn(r, "name_column")) {
    port.from = TablePortSpec::From::kNameColumn;
    port.column = *column;
  }
  if (auto text = r.optionalString("index_template")) {
    auto parsed = parseIndexTemplate(*text);
    if (parsed) {
      port.from = TablePortSpec::From::kIndexTemplate;
      port.template_pieces = std::move(parsed->first);
      port.template_arcs = std::move(parsed->second);
    } else {
      r.error("index_template", parsed.error());
    }
  }
  if (auto flag = r.optionalBool("entity_index")) {
    if (*flag) {
      port.from = TablePortSpec::From::kEntityArc;
    } else {
      r.error("entity_index", "expected true (leave it out for the default)");
    }
  }
  if (auto pattern = readPattern(r, "pattern", false, 1, "the port")) {
    if (port.from != TablePortSpec::From::kNameColumn) {
      r.error("pattern", "only with name_column");
    } else {
      port.pattern = std::move(pattern->regex);
      port.pattern_text = std::move(pattern->text);
    }
  }
  r.rejectUnknownKeys();
}

std::optional<RowSkip> readRowSkip(OptionReader& r) {
  RowSkip skip;
  if (r.has("all_zero")) {
    if (r.has("column") || r.has("equals") || r.has("not_equals")) {
      r.error("", "all_zero stands alone (a list of columns)");
    }
    for (auto key : {"column", "equals", "not_equals"}) r.raw(key);  // reported above, not as unknown
    auto columns = readIntegers(r, "all_zero", 1, kMaxColumn);
    if (!columns) return std::nullopt;
    skip.kind = RowSkip::Kind::kAllZero;
    for (auto c : *columns) skip.columns.push_back(static_cast<std::uint32_t>(c));
    return skip;
  }
  if (r.has("all_in")) {
    if (r.has("column") || r.has("equals") || r.has("not_equals")) {
      r.error("", "all_in takes a list of columns and values, nothing else");
    }
    for (auto key : {"column", "equals", "not_equals"}) r.raw(key);
    auto columns = readIntegers(r, "all_in", 1, kMaxColumn);
    auto values =
        readIntegers(r, "values", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
    if (!values) r.error("", "all_in needs values: the sentinels that mean nothing is there");
    if (!columns || !values) return std::nullopt;
    skip.kind = RowSkip::Kind::kAllIn;
    for (auto c : *columns) skip.columns.push_back(static_cast<std::uint32_t>(c));
    skip.values = std::move(*values);
    return skip;
  }
  auto column = requiredInt(r, "column", 1, kMaxColumn);
  if (r.has("equals") == r.has("not_equals")) {
    r.raw("equals");
    r.raw("not_equals");
    r.error("", "give equals or not_equals");
    return std::nullopt;
  }
  skip.kind = r.has("equals") ? RowSkip::Kind::kEquals : RowSkip::Kind::kNotEquals;
  auto values = readIntegers(r, r.has("equals") ? "equals" : "not_equals", std::numeric_limits<std::int64_t>::min(),
                             std::numeric_limits<std::int64_t>::max());
  if (!column || !values) return std::nullopt;
  skip.columns.push_back(static_cast<std::uint32_t>(*column));
  skip.values = std::move(*values);
  return skip;
}

constexpr std::array<std::pair<std::string_view, RowWins>, 4> kRowWins{{
    {"last", RowWins::kLast},
    {"first", RowWins::kFirst},
    {"max", RowWins::kMax},
    {"min", RowWins::kMin},
}};

constexpr std::array<std::pair<std::string_view, ValueFormat>, 4> kValueFormats{{
    {"integer", ValueFormat::kInteger},
    {"text", ValueFormat::kText},
    {"float32", ValueFormat::kFloat32},
    {"text_list", ValueFormat::kTextList},
}};

// How a cell's raw number becomes the metric's value: divisor, unit, format,
// per-row precision/scale/exponent columns, sentinels.
void readColumnValueForm(OptionReader& r, ColumnRule& rule) {
  // Read as YAML reads numbers, not through optionalDouble: a subnormal divisor
  // (1e-308) is a positive number a profile may give, and the decoder copes
  // with the huge values it makes (tests/integration/86).
  if (auto node = r.raw("divisor")) {
    double divisor = 0;
    if (node->IsScalar() && YAML::convert<double>::decode(*node, divisor) && divisor > 0 && divisor <= 1e18) {
      rule.divisor = divisor;
    } else {
      r.error("divisor", "expected a positive number");
    }
  }
  if (auto unit = readUnit(r)) {
    if (*unit == ValueUnit::kAuto) {
      r.error("unit", "auto only applies to ENTITY-SENSOR rows");
    } else {
      rule.unit = *unit;
    }
  }
  if (rule.metric.isPower() && rule.unit == ValueUnit::kNative) {
    r.error("", "optical power needs a unit (dbm, mw, w or uw)");
  }
  if (auto column = optionalColumn(r, "precision_column")) rule.precision_column = *column;
  if (auto column = optionalColumn(r, "scale_column")) rule.scale_column = *column;
  if (auto column = optionalColumn(r, "exponent_column")) rule.exponent_column = *column;
  if (auto sign = r.optionalInt("exponent_sign", -1, 1)) {
    if (!rule.exponent_column) {
      r.error("exponent_sign", "only with exponent_column");
    } else if (*sign == 0) {
      r.error("exponent_sign", "expected 1 or -1");
    } else {
      rule.exponent_sign = static_cast<int>(*sign);
    }
  }
  if (auto format = readChoice(r, "format", kValueFormats)) {
    rule.format = *format;
    if (rule.metric.isCounter() && rule.format != ValueFormat::kInteger) r.error("format", "counters are integers");
  }
  if (auto absent = readSentinels(r)) rule.absent = std::move(*absent);
}

std::optional<ColumnRule> readColumnRule(OptionReader& r, std::vector<std::string>& warnings) {
  ColumnRule rule;
  auto column = requiredInt(r, "column", 1, kMaxColumn);
  auto metric = readMetric(r, warnings);
  if (metric) rule.metric = *metric;
  if (auto threshold = readChoice(r, "threshold", kThresholdKinds)) {
    if (rule.metric.isCounter()) r.error("threshold", "counters have no thresholds");
    rule.threshold = *threshold;
  }
  readColumnValueForm(r, rule);
  if (auto lane = r.optionalInt("lane", 1, kMaxSampleLanes)) rule.lane = static_cast<std::uint16_t>(*lane);
  if (auto wins = readChoice(r, "row_wins", kRowWins)) {
    if (rule.threshold) {
      r.error("row_wins", "thresholds keep the first row's limit; row_wins is for readings");
    } else if (rule.metric.isCounter()) {
      r.error("row_wins", "counters are per port and not compared; row_wins is for readings");
    } else {
      rule.row_wins = *wins;
    }
  }
  if (rule.format == ValueFormat::kTextList && rule.metric.kind != MetricTarget::Kind::kLane) {
    r.error("format", "text_list gives one value per lane: a lane metric only");
  }
  if (!column || !metric) return std::nullopt;
  rule.column = static_cast<std::uint32_t>(*column);
  return rule;
}

// table.cross_check item: {columns: [A, B], tolerance: T, required: BOOL}.
std::optional<CrossCheck> readCrossCheck(OptionReader& r, const TableSpec& table) {
  auto columns = readIntegers(r, "columns", 1, kMaxColumn);
  double tolerance = 0;
  if (r.has("tolerance")) {
    auto given = r.optionalDouble("tolerance");
    if (given && *given >= 0 && *given <= 1e6) {
      tolerance = *given;
    } else {
      r.error("tolerance", "expected a number from 0 to 1e6");
    }
  }
  const bool required = r.optionalBool("required").value_or(false);
  if (!columns) return std::nullopt;
  if (columns->size() != 2 || (*columns)[0] == (*columns)[1]) {
    r.error("columns", "expected two different columns");
    return std::nullopt;
  }
  CrossCheck check{static_cast<std::uint32_t>((*columns)[0]), static_cast<std::uint32_t>((*columns)[1]), tolerance,
                   required};
  const ColumnRule* rules[2] = {nullptr, nullptr};
  for (const auto& rule : table.columns) {
    if (rule.threshold) continue;
    if (rule.column == check.first) rules[0] = &rule;
    if (rule.column == check.second) rules[1] = &rule;
  }
  if (!rules[0] || !rules[1]) {
    r.error("columns", "both columns must be readings listed under columns");
    return std::nullopt;
  }
  if (metricName(rules[0]->metric) != metricName(rules[1]->metric) ||
      rules[0]->metric.kind != MetricTarget::Kind::kLane) {
    r.error("columns", "the two columns must give the same lane metric");
    return std::nullopt;
  }
  return check;
}

TableSpec readTable(OptionReader& r, std::vector<std::string>& warnings) {
  TableSpec table;
  table.name = r.requiredString("name");
  if (auto entry = readOid(r, "entry")) table.entry = std::move(*entry);
  if (auto arc = r.optionalInt("port_arc", 1, 16)) table.port_arc = static_cast<std::uint32_t>(*arc);
  if (auto arc = r.optionalInt("lane_arc", 1, 16)) table.lane_arc = static_cast<std::uint32_t>(*arc);
  if (auto base = r.optionalInt("lane_base", 0, 1)) table.lane_base = static_cast<int>(*base);
  if (r.has("port")) readTablePort(r.child("port"), table.port);
  forEachItem(r, "skip_rows", false, [&](OptionReader& item) {
    if (auto skip = readRowSkip(item)) table.skip_rows.push_back(std::move(*skip));
  });
  forEachItem(r, "columns", true, [&](OptionReader& item) {
    if (auto rule = readColumnRule(item, warnings)) table.columns.push_back(std::move(*rule));
  });
  forEachItem(r, "cross_check", false, [&](OptionReader& item) {
    if (auto check = readCrossCheck(item, table)) table.cross_checks.push_back(*check);
  });
  return table;
}

// ---- the document

std::vector<Oid> readSysObjectIds(OptionReader& r) {
  std::vector<Oid> out;
  for (const auto& text : r.stringList("sys_object_id")) {
    auto id = Oid::parse(text);
    if (id) {
      out.push_back(std::move(*id));
    } else {
      r.error("sys_object_id", id.error().message);
    }
  }
  return out;
}

Profile readProfile(OptionReader& r) {
  Profile profile;
  profile.name = r.requiredString("name");
  profile.description = r.optionalString("description").value_or("");
  profile.sys_object_ids = readSysObjectIds(r);
  if (auto descr = readPattern(r, "sys_descr", false)) {
    if (profile.sys_object_ids.empty()) r.error("sys_descr", "only with sys_object_id");
    profile.sys_descr = std::move(descr->regex);
    profile.sys_descr_text = std::move(descr->text);
  }
  if (r.has("entity_sensors")) profile.entity_sensors = readEntitySensors(r.child("entity_sensors"), profile.warnings);
  forEachItem(r, "tables", false,
              [&](OptionReader& item) { profile.tables.push_back(readTable(item, profile.warnings)); });
  if (auto base = r.optionalString("extends")) {
    if (base->empty() || *base == profile.name) {
      r.error("extends", "names no other profile");
    } else {
      profile.extends = *base;
    }
  }
  if (!r.has("entity_sensors") && !r.has("tables") && !r.has("extends")) {
    r.error("", "a profile needs entity_sensors or tables (or extends)");
  }
  r.rejectUnknownKeys();
  return profile;
}

std::string joinIssues(const std::vector<ConfigIssue>& issues) {
  std::string out;
  for (const auto& issue : issues) out += (out.empty() ? "" : "\n") + issue.format();
  return out;
}

}  // namespace

Result<MetricTarget> parseMetricName(std::string_view name) {
  for (const auto& row : kCounterNames) {
    if (row.name == name) return row.target;
  }
  if (name.starts_with(kModulePrefix)) {
    if (auto m = moduleByKey(name.substr(kModulePrefix.size()))) return *m;
  }
  if (name.starts_with(kLanePrefix)) {
    if (auto l = laneByKey(name.substr(kLanePrefix.size()))) return *l;
  }
  const auto module = moduleByKey(name);
  const auto lane = laneByKey(name);
  if (module && lane) {
    return fail("metric '" + std::string(name) + "' is both a module and a lane value: write module_" +
                std::string(name) + " or lane_" + std::string(name));
  }
  if (module) return *module;
  if (lane) return *lane;
  return fail("unknown metric '" + std::string(name) +
              "' (the catalogue's names, see schemas/snmp-profiles/README.md)");
}

std::string metricName(const MetricTarget& target) {
  for (const auto& row : kCounterNames) {
    if (sameTarget(row.target, target)) return std::string(row.name);
  }
  if (target.kind == MetricTarget::Kind::kModule) {
    const std::string key(info(target.module).key);
    return laneByKey(key) ? std::string(kModulePrefix) + key : key;
  }
  const std::string key(info(target.lane).key);
  return moduleByKey(key) ? std::string(kLanePrefix) + key : key;
}

Result<ValueUnit> parseValueUnit(std::string_view name) {
  for (const auto& [key, unit] : kUnits) {
    if (key == name) return unit;
  }
  return fail("unknown unit '" + std::string(name) + "' (auto, dbm, mw, w, uw, ma, ua, a, native)");
}

Result<Profile> loadProfile(std::string_view yaml_text, std::string source) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    std::string where = source;
    if (!e.mark.is_null()) where += ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
    return fail(where + ": " + e.msg);
  }
  std::vector<ConfigIssue> issues;
  if (!root.IsMap()) return fail(source + ": a profile is a mapping");
  reportDuplicateKeys(root, source, issues);
  OptionReader reader(root, source, "", issues);
  Profile profile = readProfile(reader);
  if (!issues.empty()) return fail(joinIssues(issues));
  profile.source = std::move(source);
  return profile;
}

Profile extendProfile(const Profile& base, const Profile& child) {
  Profile out = base;
  out.name = child.name;
  out.source = child.source + " (extends " + base.name + " from " + base.source + ")";
  out.extends.clear();
  out.sys_object_ids = child.sys_object_ids;
  out.sys_descr = child.sys_descr;
  out.sys_descr_text = child.sys_descr_text;
  if (!child.description.empty()) out.description = child.description;
  if (child.entity_sensors) out.entity_sensors = child.entity_sensors;
  out.warnings.insert(out.warnings.end(), child.warnings.begin(), child.warnings.end());
  for (const auto& table : child.tables) {
    auto same =
        std::find_if(out.tables.begin(), out.tables.end(), [&](const TableSpec& t) { return t.name == table.name; });
    if (same != out.tables.end()) {
      *same = table;
    } else {
      out.tables.push_back(table);
    }
  }
  return out;
}

Result<Profile> loadProfileFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > (1u << 20)) return fail(path + ": larger than 1 MiB");
  return loadProfile(text.str(), path);
}

}  // namespace opticsd::snmp
