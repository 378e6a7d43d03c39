#include "drivers/snmp/profile.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

#include <yaml-cpp/yaml.h>

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

struct MetricNameRow {
  std::string_view name;
  MetricTarget target;
};

constexpr MetricTarget moduleMetric(ModuleMetric m) { return {MetricTarget::Kind::kModule, m, {}}; }
constexpr MetricTarget laneMetric(LaneMetric m) { return {MetricTarget::Kind::kLane, {}, m}; }
constexpr MetricTarget counter(MetricTarget::Kind k) { return {k, {}, {}}; }

constexpr std::array kMetricNames{
    MetricNameRow{"temperature", moduleMetric(ModuleMetric::kTemperatureCelsius)},
    MetricNameRow{"supply_voltage", moduleMetric(ModuleMetric::kSupplyVoltageVolts)},
    MetricNameRow{"laser_temperature", moduleMetric(ModuleMetric::kLaserTemperatureCelsius)},
    MetricNameRow{"pre_fec_ber", moduleMetric(ModuleMetric::kPreFecBerRatio)},
    MetricNameRow{"post_fec_ber", moduleMetric(ModuleMetric::kPostFecBerRatio)},
    MetricNameRow{"tx_bias", laneMetric(LaneMetric::kTxBiasMilliamperes)},
    MetricNameRow{"tx_power", laneMetric(LaneMetric::kTxPowerDbm)},
    MetricNameRow{"rx_power", laneMetric(LaneMetric::kRxPowerDbm)},
    MetricNameRow{"lane_pre_fec_ber", laneMetric(LaneMetric::kPreFecBerRatio)},
    MetricNameRow{"fec_corrected_blocks", counter(MetricTarget::Kind::kFecCorrectedBlocks)},
    MetricNameRow{"fec_uncorrectable_blocks", counter(MetricTarget::Kind::kFecUncorrectableBlocks)},
    MetricNameRow{"fec_corrected_bits", counter(MetricTarget::Kind::kFecCorrectedBits)},
};

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

// Collects the first problem with its location; a profile either loads whole or not at all.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  tl::unexpected<Error> failAt(const YAML::Node& node, const std::string& message) const {
    std::string where = source_;
    if (node && !node.Mark().is_null()) {
      where += ":" + std::to_string(node.Mark().line + 1) + ":" + std::to_string(node.Mark().column + 1);
    }
    return fail(where + ": " + message);
  }

  Result<void> onlyKeys(const YAML::Node& map, std::initializer_list<std::string_view> allowed) const {
    if (!map.IsMap()) return failAt(map, "expected a mapping");
    for (const auto& kv : map) {
      auto key = kv.first.as<std::string>();
      bool ok = false;
      for (auto a : allowed) ok = ok || a == key;
      if (!ok) return failAt(kv.first, "unknown key '" + key + "'");
    }
    return {};
  }

  Result<std::string> string(const YAML::Node& node, std::string_view what) const {
    if (!node || !node.IsScalar()) return failAt(node, std::string(what) + ": expected a string");
    return node.Scalar();
  }

  Result<Oid> oid(const YAML::Node& node, std::string_view what) const {
    auto text = string(node, what);
    if (!text) return tl::unexpected(text.error());
    auto parsed = Oid::parse(*text);
    if (!parsed) return failAt(node, std::string(what) + ": " + parsed.error().message);
    return parsed;
  }

  Result<std::int64_t> integer(const YAML::Node& node, std::string_view what, std::int64_t lo, std::int64_t hi) const {
    if (!node || !node.IsScalar()) return failAt(node, std::string(what) + ": expected an integer");
    std::int64_t v = 0;
    if (!YAML::convert<std::int64_t>::decode(node, v)) return failAt(node, std::string(what) + ": expected an integer");
    if (v < lo || v > hi) {
      return failAt(node, std::string(what) + ": " + std::to_string(v) + " outside " + std::to_string(lo) + ".." +
                              std::to_string(hi));
    }
    return v;
  }

  Result<double> number(const YAML::Node& node, std::string_view what) const {
    double v = 0;
    if (!node || !node.IsScalar() || !YAML::convert<double>::decode(node, v) || !(v > 0) || v > 1e18) {
      return failAt(node, std::string(what) + ": expected a positive number");
    }
    return v;
  }

  Result<std::regex> regex(const YAML::Node& node, std::string_view what) const {
    auto text = string(node, what);
    if (!text) return tl::unexpected(text.error());
    if (text->size() > 512) return failAt(node, std::string(what) + ": pattern longer than 512 characters");
    try {
      return std::regex(*text, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
      return failAt(node, std::string(what) + ": bad regular expression: " + e.what());
    }
  }

  // `absent: -1000.01` or `absent: [-1000.01, 65535]`
  Result<Sentinels> sentinels(const YAML::Node& node) const {
    Sentinels out;
    auto one = [&](const YAML::Node& item) -> Result<void> {
      double v = 0;
      if (!item.IsScalar() || !YAML::convert<double>::decode(item, v) || !std::isfinite(v)) {
        return failAt(item, "absent: expected a number or a list of numbers");
      }
      out.values.push_back(v);
      return {};
    };
    if (node.IsSequence()) {
      for (const auto& item : node) {
        auto ok = one(item);
        if (!ok) return tl::unexpected(ok.error());
      }
    } else {
      auto ok = one(node);
      if (!ok) return tl::unexpected(ok.error());
    }
    return out;
  }

  Result<std::vector<std::int64_t>> integers(const YAML::Node& node, std::string_view what, std::int64_t lo,
                                             std::int64_t hi) const {
    std::vector<std::int64_t> out;
    if (node && node.IsSequence()) {
      for (const auto& item : node) {
        auto v = integer(item, what, lo, hi);
        if (!v) return tl::unexpected(v.error());
        out.push_back(*v);
      }
    } else {
      auto v = integer(node, what, lo, hi);
      if (!v) return tl::unexpected(v.error());
      out.push_back(*v);
    }
    if (out.empty()) return failAt(node, std::string(what) + ": empty list");
    return out;
  }

  Result<MetricTarget> metric(const YAML::Node& node) const {
    auto text = string(node, "metric");
    if (!text) return tl::unexpected(text.error());
    auto parsed = parseMetricName(*text);
    if (!parsed) return failAt(node, parsed.error().message);
    return parsed;
  }

  Result<ValueUnit> unit(const YAML::Node& node) const {
    auto text = string(node, "unit");
    if (!text) return tl::unexpected(text.error());
    auto parsed = parseValueUnit(*text);
    if (!parsed) return failAt(node, parsed.error().message);
    return parsed;
  }

 private:
  std::string source_;
};

#define OPTICSD_TRY(var, expr)                   \
  auto var##_result = (expr);                    \
  if (!var##_result) return tl::unexpected(var##_result.error()); \
  auto var = std::move(*var##_result)

Result<std::optional<ThresholdKind>> parseThresholdKind(const Reader& r, const YAML::Node& node) {
  OPTICSD_TRY(text, r.string(node, "threshold"));
  if (text == "high_alarm") return ThresholdKind::kHighAlarm;
  if (text == "high_warning") return ThresholdKind::kHighWarning;
  if (text == "low_warning") return ThresholdKind::kLowWarning;
  if (text == "low_alarm") return ThresholdKind::kLowAlarm;
  return r.failAt(node, "threshold: expected high_alarm, high_warning, low_warning or low_alarm");
}

Result<EntitySensorSpec> parseEntitySensors(const Reader& r, const YAML::Node& node) {
  auto keys = r.onlyKeys(node, {"sensor_entry", "sensors", "port", "identity", "thresholds"});
  if (!keys) return tl::unexpected(keys.error());
  EntitySensorSpec spec;
  OPTICSD_TRY(entry, r.oid(node["sensor_entry"], "sensor_entry"));
  spec.sensor_entry = std::move(entry);

  const auto sensors = node["sensors"];
  if (!sensors || !sensors.IsSequence() || sensors.size() == 0) return r.failAt(node, "sensors: expected a list");
  for (const auto& s : sensors) {
    auto ok = r.onlyKeys(s, {"match", "metric", "type", "unit", "absent"});
    if (!ok) return tl::unexpected(ok.error());
    SensorRule rule;
    OPTICSD_TRY(pattern, r.string(s["match"], "match"));
    OPTICSD_TRY(re, r.regex(s["match"], "match"));
    rule.pattern = pattern;
    rule.match = std::move(re);
    OPTICSD_TRY(metric, r.metric(s["metric"]));
    if (metric.isCounter()) return r.failAt(s["metric"], "counters come from tables, not sensors");
    rule.metric = metric;
    if (s["type"]) {
      OPTICSD_TRY(type, r.integer(s["type"], "type", 1, 14));
      rule.sensor_type = static_cast<int>(type);
    }
    if (s["unit"]) {
      OPTICSD_TRY(unit, r.unit(s["unit"]));
      rule.unit = unit;
    }
    if (s["absent"]) {
      OPTICSD_TRY(absent, r.sentinels(s["absent"]));
      rule.absent = std::move(absent);
    }
    spec.sensors.push_back(std::move(rule));
  }

  const auto port = node["port"];
  if (!port) return r.failAt(node, "port: missing (how a sensor finds its port)");
  auto port_keys = r.onlyKeys(port, {"method", "text", "pattern", "lane_pattern", "lane_base", "name_from", "fallback_pattern"});
  if (!port_keys) return tl::unexpected(port_keys.error());
  OPTICSD_TRY(method, r.string(port["method"], "port.method"));
  if (method == "description") {
    spec.port_method = EntitySensorSpec::PortMethod::kDescription;
  } else if (method == "contained_in") {
    spec.port_method = EntitySensorSpec::PortMethod::kContainedIn;
  } else {
    return r.failAt(port["method"], "port.method: expected description or contained_in");
  }
  if (port["text"]) {
    OPTICSD_TRY(text, r.string(port["text"], "port.text"));
    if (text == "descr") {
      spec.text_column = 2;
    } else if (text == "name") {
      spec.text_column = 7;
    } else {
      return r.failAt(port["text"], "port.text: expected descr or name");
    }
  }
  OPTICSD_TRY(port_pattern, r.string(port["pattern"], "port.pattern"));
  OPTICSD_TRY(port_re, r.regex(port["pattern"], "port.pattern"));
  if (port_re.mark_count() < 1) return r.failAt(port["pattern"], "port.pattern: needs a capture group for the port");
  spec.port_pattern = port_pattern;
  spec.port_regex = std::move(port_re);
  if (port["lane_pattern"]) {
    OPTICSD_TRY(lane_pattern, r.string(port["lane_pattern"], "port.lane_pattern"));
    OPTICSD_TRY(lane_re, r.regex(port["lane_pattern"], "port.lane_pattern"));
    if (lane_re.mark_count() < 1) {
      return r.failAt(port["lane_pattern"], "port.lane_pattern: needs a capture group for the lane");
    }
    spec.lane_pattern = lane_pattern;
    spec.lane_regex = std::move(lane_re);
  }
  if (port["fallback_pattern"]) {
    OPTICSD_TRY(fallback, r.regex(port["fallback_pattern"], "port.fallback_pattern"));
    if (fallback.mark_count() < 1) return r.failAt(port["fallback_pattern"], "port.fallback_pattern: needs a group");
    spec.fallback_regex = std::move(fallback);
  }
  if (port["lane_base"]) {
    OPTICSD_TRY(base, r.integer(port["lane_base"], "port.lane_base", 0, 1));
    spec.lane_base = static_cast<int>(base);
  }
  if (port["name_from"]) {
    OPTICSD_TRY(from, r.string(port["name_from"], "port.name_from"));
    if (from == "alias") {
      spec.port_name_from_alias = true;
    } else if (from != "pattern") {
      return r.failAt(port["name_from"], "port.name_from: expected pattern or alias");
    }
  }

  if (node["identity"]) {
    OPTICSD_TRY(identity, r.string(node["identity"], "identity"));
    if (identity == "parent") {
      spec.identity = EntitySensorSpec::IdentityFrom::kParent;
    } else if (identity == "port_entity") {
      spec.identity = EntitySensorSpec::IdentityFrom::kPortEntity;
    } else if (identity != "none") {
      return r.failAt(node["identity"], "identity: expected none, parent or port_entity");
    }
  }

  if (const auto th = node["thresholds"]) {
    auto th_keys = r.onlyKeys(th, {"style", "entry", "high_alarm", "high_warning", "low_warning", "low_alarm"});
    if (!th_keys) return tl::unexpected(th_keys.error());
    OPTICSD_TRY(style, r.string(th["style"], "thresholds.style"));
    OPTICSD_TRY(th_entry, r.oid(th["entry"], "thresholds.entry"));
    spec.threshold_entry = std::move(th_entry);
    if (style == "columns") {
      spec.threshold_style = EntitySensorSpec::ThresholdStyle::kColumns;
      constexpr std::array<std::string_view, 4> kKeys{"high_alarm", "high_warning", "low_warning", "low_alarm"};
      for (std::size_t i = 0; i < kKeys.size(); ++i) {
        if (!th[std::string(kKeys[i])]) continue;
        OPTICSD_TRY(col, r.integer(th[std::string(kKeys[i])], kKeys[i], 1, 1000));
        spec.threshold_columns[i] = static_cast<std::uint32_t>(col);
      }
    } else if (style == "cisco_relation") {
      spec.threshold_style = EntitySensorSpec::ThresholdStyle::kCiscoRelation;
    } else {
      return r.failAt(th["style"], "thresholds.style: expected columns or cisco_relation");
    }
  }
  return spec;
}

Result<TableSpec> parseTable(const Reader& r, const YAML::Node& node) {
  auto keys = r.onlyKeys(node, {"name", "entry", "port_arc", "lane_arc", "lane_base", "skip_rows", "port", "columns"});
  if (!keys) return tl::unexpected(keys.error());
  TableSpec table;
  OPTICSD_TRY(name, r.string(node["name"], "name"));
  table.name = name;
  OPTICSD_TRY(entry, r.oid(node["entry"], "entry"));
  table.entry = std::move(entry);
  if (node["port_arc"]) {
    OPTICSD_TRY(arc, r.integer(node["port_arc"], "port_arc", 1, 16));
    table.port_arc = static_cast<std::uint32_t>(arc);
  }
  if (node["lane_arc"]) {
    OPTICSD_TRY(arc, r.integer(node["lane_arc"], "lane_arc", 1, 16));
    table.lane_arc = static_cast<std::uint32_t>(arc);
  }
  if (node["lane_base"]) {
    OPTICSD_TRY(base, r.integer(node["lane_base"], "lane_base", 0, 1));
    table.lane_base = static_cast<int>(base);
  }
  if (const auto port = node["port"]) {
    auto ok = r.onlyKeys(port, {"if_index_column", "name_column", "entity_index", "index_template", "pattern"});
    if (!ok) return tl::unexpected(ok.error());
    int given = (port["if_index_column"] ? 1 : 0) + (port["name_column"] ? 1 : 0) + (port["entity_index"] ? 1 : 0) +
                (port["index_template"] ? 1 : 0);
    if (given != 1) {
      return r.failAt(port, "port: give one of if_index_column, name_column, entity_index, index_template");
    }
    if (port["if_index_column"]) {
      OPTICSD_TRY(col, r.integer(port["if_index_column"], "port.if_index_column", 1, 100000));
      table.port.from = TablePortSpec::From::kIfIndexColumn;
      table.port.column = static_cast<std::uint32_t>(col);
    } else if (port["name_column"]) {
      OPTICSD_TRY(col, r.integer(port["name_column"], "port.name_column", 1, 100000));
      table.port.from = TablePortSpec::From::kNameColumn;
      table.port.column = static_cast<std::uint32_t>(col);
    } else if (port["index_template"]) {
      OPTICSD_TRY(text, r.string(port["index_template"], "port.index_template"));
      auto parsed = parseIndexTemplate(text);
      if (!parsed) return r.failAt(port["index_template"], "port.index_template: " + parsed.error());
      table.port.from = TablePortSpec::From::kIndexTemplate;
      table.port.template_pieces = std::move(parsed->first);
      table.port.template_arcs = std::move(parsed->second);
    } else {
      OPTICSD_TRY(flag, r.string(port["entity_index"], "port.entity_index"));
      if (flag != "true") return r.failAt(port["entity_index"], "port.entity_index: expected true");
      table.port.from = TablePortSpec::From::kEntityArc;
    }
    if (port["pattern"]) {
      if (table.port.from != TablePortSpec::From::kNameColumn) {
        return r.failAt(port["pattern"], "port.pattern: only with name_column");
      }
      OPTICSD_TRY(text, r.string(port["pattern"], "port.pattern"));
      OPTICSD_TRY(re, r.regex(port["pattern"], "port.pattern"));
      if (re.mark_count() < 1) return r.failAt(port["pattern"], "port.pattern: needs a capture group for the port");
      table.port.pattern = std::move(re);
      table.port.pattern_text = text;
    }
  }
  if (const auto skips = node["skip_rows"]) {
    if (!skips.IsSequence()) return r.failAt(skips, "skip_rows: expected a list");
    for (const auto& k : skips) {
      auto ok = r.onlyKeys(k, {"all_zero", "column", "equals", "not_equals"});
      if (!ok) return tl::unexpected(ok.error());
      RowSkip skip;
      if (k["all_zero"]) {
        if (k["column"] || k["equals"] || k["not_equals"]) {
          return r.failAt(k, "skip_rows: all_zero stands alone (a list of columns)");
        }
        OPTICSD_TRY(cols, r.integers(k["all_zero"], "all_zero", 1, 100000));
        for (auto c : cols) skip.columns.push_back(static_cast<std::uint32_t>(c));
        skip.kind = RowSkip::Kind::kAllZero;
      } else {
        OPTICSD_TRY(col, r.integer(k["column"], "skip_rows.column", 1, 100000));
        skip.columns.push_back(static_cast<std::uint32_t>(col));
        if (!!k["equals"] == !!k["not_equals"]) return r.failAt(k, "skip_rows: give equals or not_equals");
        skip.kind = k["equals"] ? RowSkip::Kind::kEquals : RowSkip::Kind::kNotEquals;
        OPTICSD_TRY(values, r.integers(k["equals"] ? k["equals"] : k["not_equals"], "skip_rows value",
                                       std::numeric_limits<std::int64_t>::min(),
                                       std::numeric_limits<std::int64_t>::max()));
        skip.values = std::move(values);
      }
      table.skip_rows.push_back(std::move(skip));
    }
  }
  const auto columns = node["columns"];
  if (!columns || !columns.IsSequence() || columns.size() == 0) return r.failAt(node, "columns: expected a list");
  for (const auto& c : columns) {
    auto ok = r.onlyKeys(c, {"column", "metric", "threshold", "divisor", "unit", "precision_column", "scale_column",
                             "exponent_column", "exponent_sign", "format", "absent", "lane"});
    if (!ok) return tl::unexpected(ok.error());
    ColumnRule rule;
    OPTICSD_TRY(col, r.integer(c["column"], "column", 1, 100000));
    rule.column = static_cast<std::uint32_t>(col);
    OPTICSD_TRY(metric, r.metric(c["metric"]));
    rule.metric = metric;
    if (c["threshold"]) {
      if (metric.isCounter()) return r.failAt(c["threshold"], "threshold: counters have no thresholds");
      OPTICSD_TRY(kind, parseThresholdKind(r, c["threshold"]));
      rule.threshold = kind;
    }
    if (c["divisor"]) {
      OPTICSD_TRY(divisor, r.number(c["divisor"], "divisor"));
      rule.divisor = divisor;
    }
    if (c["unit"]) {
      OPTICSD_TRY(unit, r.unit(c["unit"]));
      if (unit == ValueUnit::kAuto) return r.failAt(c["unit"], "unit: auto only applies to ENTITY-SENSOR rows");
      rule.unit = unit;
    }
    if (metric.isPower() && rule.unit == ValueUnit::kNative) {
      return r.failAt(c, "optical power needs a unit (dbm, mw, w or uw)");
    }
    if (c["precision_column"]) {
      OPTICSD_TRY(pc, r.integer(c["precision_column"], "precision_column", 1, 100000));
      rule.precision_column = static_cast<std::uint32_t>(pc);
    }
    if (c["scale_column"]) {
      OPTICSD_TRY(sc, r.integer(c["scale_column"], "scale_column", 1, 100000));
      rule.scale_column = static_cast<std::uint32_t>(sc);
    }
    if (c["exponent_column"]) {
      OPTICSD_TRY(ec, r.integer(c["exponent_column"], "exponent_column", 1, 100000));
      rule.exponent_column = static_cast<std::uint32_t>(ec);
    }
    if (c["exponent_sign"]) {
      if (!rule.exponent_column) return r.failAt(c["exponent_sign"], "exponent_sign: only with exponent_column");
      OPTICSD_TRY(sign, r.integer(c["exponent_sign"], "exponent_sign", -1, 1));
      if (sign == 0) return r.failAt(c["exponent_sign"], "exponent_sign: expected 1 or -1");
      rule.exponent_sign = static_cast<int>(sign);
    }
    if (c["format"]) {
      OPTICSD_TRY(format, r.string(c["format"], "format"));
      if (format == "integer") {
        rule.format = ValueFormat::kInteger;
      } else if (format == "text") {
        rule.format = ValueFormat::kText;
      } else if (format == "float32") {
        rule.format = ValueFormat::kFloat32;
      } else {
        return r.failAt(c["format"], "format: expected integer, text or float32");
      }
      if (metric.isCounter() && rule.format != ValueFormat::kInteger) {
        return r.failAt(c["format"], "format: counters are integers");
      }
    }
    if (c["absent"]) {
      OPTICSD_TRY(absent, r.sentinels(c["absent"]));
      rule.absent = std::move(absent);
    }
    if (c["lane"]) {
      OPTICSD_TRY(lane, r.integer(c["lane"], "lane", 1, 64));
      rule.lane = static_cast<std::uint16_t>(lane);
    }
    table.columns.push_back(rule);
  }
  return table;
}

}  // namespace

Result<MetricTarget> parseMetricName(std::string_view name) {
  for (const auto& row : kMetricNames) {
    if (row.name == name) return row.target;
  }
  // Every other catalogue value by its full name (drivers/measurement.hpp),
  // e.g. q_factor_decibels or osnr_decibels: module values first, then lane.
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (kModuleMetricInfo[i].key == name) return moduleMetric(static_cast<ModuleMetric>(i));
  }
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (kLaneMetricInfo[i].key == name) return laneMetric(static_cast<LaneMetric>(i));
  }
  return fail("unknown metric '" + std::string(name) + "' (see schemas/snmp-profiles/README.md)");
}

std::string_view metricName(const MetricTarget& target) {
  for (const auto& row : kMetricNames) {
    if (sameTarget(row.target, target)) return row.name;
  }
  if (target.kind == MetricTarget::Kind::kModule) return info(target.module).key;
  if (target.kind == MetricTarget::Kind::kLane) return info(target.lane).key;
  return "unknown";
}

Result<ValueUnit> parseValueUnit(std::string_view name) {
  for (const auto& [key, unit] : kUnits) {
    if (key == name) return unit;
  }
  return fail("unknown unit '" + std::string(name) + "' (auto, dbm, mw, w, uw, ma, ua, a, native)");
}

Result<Profile> loadProfile(std::string_view yaml_text, std::string source) {
  Reader r(source);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    return fail(source + ": " + e.what());
  }
  try {
    if (!root.IsMap()) return r.failAt(root, "a profile is a mapping");
    auto keys = r.onlyKeys(root, {"name", "description", "extends", "sys_object_id", "entity_sensors", "tables"});
    if (!keys) return tl::unexpected(keys.error());
    Profile profile;
    profile.source = source;
    OPTICSD_TRY(name, r.string(root["name"], "name"));
    if (name.empty()) return r.failAt(root["name"], "name: empty");
    profile.name = name;
    if (root["description"]) {
      OPTICSD_TRY(description, r.string(root["description"], "description"));
      profile.description = description;
    }
    if (const auto ids = root["sys_object_id"]) {
      if (ids.IsScalar()) {
        OPTICSD_TRY(id, r.oid(ids, "sys_object_id"));
        profile.sys_object_ids.push_back(std::move(id));
      } else if (ids.IsSequence()) {
        for (const auto& item : ids) {
          OPTICSD_TRY(id, r.oid(item, "sys_object_id"));
          profile.sys_object_ids.push_back(std::move(id));
        }
      } else {
        return r.failAt(ids, "sys_object_id: expected an OID or a list of OIDs");
      }
    }
    if (root["entity_sensors"]) {
      OPTICSD_TRY(spec, parseEntitySensors(r, root["entity_sensors"]));
      profile.entity_sensors = std::move(spec);
    }
    if (const auto tables = root["tables"]) {
      if (!tables.IsSequence()) return r.failAt(tables, "tables: expected a list");
      for (const auto& t : tables) {
        OPTICSD_TRY(table, parseTable(r, t));
        profile.tables.push_back(std::move(table));
      }
    }
    if (root["extends"]) {
      OPTICSD_TRY(base, r.string(root["extends"], "extends"));
      if (base.empty() || base == profile.name) return r.failAt(root["extends"], "extends: names no other profile");
      profile.extends = base;
    }
    if (!profile.entity_sensors && profile.tables.empty() && profile.extends.empty()) {
      return r.failAt(root, "a profile needs entity_sensors or tables (or extends)");
    }
    return profile;
  } catch (const YAML::Exception& e) {
    return fail(source + ": " + e.what());
  }
}

Profile extendProfile(const Profile& base, const Profile& child) {
  Profile out = base;
  out.name = child.name;
  out.source = child.source + " (extends " + base.name + " from " + base.source + ")";
  out.extends.clear();
  out.sys_object_ids = child.sys_object_ids;
  if (!child.description.empty()) out.description = child.description;
  if (child.entity_sensors) out.entity_sensors = child.entity_sensors;
  for (const auto& table : child.tables) {
    auto same = std::find_if(out.tables.begin(), out.tables.end(), [&](const TableSpec& t) { return t.name == table.name; });
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
