#include "drivers/gnmi/variant_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "drivers/sample.hpp"

namespace opticsd::gnmi {
namespace {

struct Failure {
  std::string message;
};

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
    std::string where = file_;
    if (at && !at.Mark().is_null()) {
      where += ":" + std::to_string(at.Mark().line + 1) + ":" + std::to_string(at.Mark().column + 1);
    }
    throw Failure{where + ": " + message};
  }
  std::string scalar(const YAML::Node& node, const char* what) const {
    if (!node.IsScalar()) fail(node, std::string(what) + " must be a text");
    return node.Scalar();
  }
  void onlyKeys(const YAML::Node& map, std::initializer_list<std::string_view> known) const {
    for (const auto& kv : map) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (std::find(known.begin(), known.end(), key) == known.end()) fail(kv.first, "unknown key '" + key + "'");
    }
  }

 private:
  const std::string& file_;
};

template <std::size_t N>
std::optional<std::uint8_t> catalogueIndex(const std::array<MetricInfo, N>& table, std::string_view key) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].key == key) return static_cast<std::uint8_t>(i);
  }
  return std::nullopt;
}

// The leaves a rule may name with `field:` (identity, presence, interface state, counters).
constexpr std::pair<std::string_view, Leaf> kFields[] = {
    {"present", Leaf::kPresent},
    {"form_factor", Leaf::kFormFactor},
    {"vendor", Leaf::kVendor},
    {"part_number", Leaf::kPartNumber},
    {"serial", Leaf::kSerial},
    {"revision", Leaf::kRevision},
    {"firmware_version", Leaf::kFirmware},
    {"media", Leaf::kMedia},
    {"date_code", Leaf::kDateCode},
    {"connector", Leaf::kConnector},
    {"fec_corrected_bits_total", Leaf::kFecCorrectedBits},
    {"fec_corrected_blocks_total", Leaf::kFecCorrectedBlocks},
    {"fec_uncorrectable_blocks_total", Leaf::kFecUncorrectableBlocks},
    {"interface_transceiver", Leaf::kInterfaceTransceiver},
    {"interface_channels", Leaf::kInterfaceChannels},
    {"interface_oper_status", Leaf::kInterfaceOperStatus},
    {"interface_fec_corrected_bits_total", Leaf::kInterfaceFecCorrectedBits},
    {"interface_fec_corrected_blocks_total", Leaf::kInterfaceFecCorrectedBlocks},
    {"interface_fec_uncorrectable_blocks_total", Leaf::kInterfaceFecUncorrectableBlocks},
    {"interface_fec_codewords_total", Leaf::kInterfaceFecCodewords},
    {"interface_fec_mode", Leaf::kInterfaceFecMode},
    {"interface_speed_mbps", Leaf::kInterfaceSpeedMbps},
};

// `fec_bin: N` (codewords with N symbol errors) or `fec_bin: [low, high]`.
void parseFecBin(const Reader& r, const YAML::Node& n, LeafRule& rule) {
  auto bound = [&](const YAML::Node& b) {
    int v = -1;
    try {
      v = b.as<int>();
    } catch (const YAML::Exception&) {
      r.fail(b, "a fec_bin bound must be a number");
    }
    if (v < 0 || v > 1024) r.fail(b, "a fec_bin bound must be 0..1024 (symbol errors in a codeword)");
    return static_cast<std::uint16_t>(v);
  };
  if (n.IsSequence() && n.size() == 2) {
    rule.bin_low = bound(n[0]);
    rule.bin_high = bound(n[1]);
    if (rule.bin_high < rule.bin_low) r.fail(n, "fec_bin [low, high] needs low <= high");
  } else if (n.IsScalar()) {
    rule.bin_low = rule.bin_high = bound(n);
  } else {
    r.fail(n, "fec_bin is N or [low, high] (symbol errors in a codeword)");
  }
}

LeafRule parseRule(const Reader& r, const YAML::Node& node, LoadedVariant& out) {
  if (!node.IsMap()) r.fail(node, "a rule is a mapping (path: and one of module:, lane:, status:, threshold:, field:)");
  r.onlyKeys(node, {"path", "module", "lane", "status", "threshold", "field", "scale", "unit", "fixed_lane",
                    "any_component", "fec_bin"});
  LeafRule rule{};
  if (!node["path"]) r.fail(node, "a rule needs path:");
  const std::string& pattern = out.text.emplace_back(r.scalar(node["path"], "path"));
  if (auto parsed = parsePath(pattern); !parsed || parsed->elems.empty()) {
    r.fail(node["path"], "bad path '" + pattern + "'" + (parsed ? "" : ": " + parsed.error().message));
  }
  rule.pattern = pattern;
  int targets = 0;
  if (auto n = node["module"]) {
    ++targets;
    auto index = catalogueIndex(kModuleMetricInfo, r.scalar(n, "module"));
    if (!index) r.fail(n, "no module metric '" + n.Scalar() + "' in the catalogue (drivers/measurement.hpp)");
    rule.leaf = Leaf::kModuleValue;
    rule.metric = *index;
  }
  if (auto n = node["lane"]) {
    ++targets;
    auto index = catalogueIndex(kLaneMetricInfo, r.scalar(n, "lane"));
    if (!index) r.fail(n, "no lane metric '" + n.Scalar() + "' in the catalogue (drivers/measurement.hpp)");
    rule.leaf = Leaf::kLaneValue;
    rule.metric = *index;
  }
  if (auto n = node["status"]) {
    ++targets;
    const std::string key = r.scalar(n, "status");
    bool found = false;
    for (std::size_t i = 0; i < kLaneFlagInfo.size(); ++i) {
      if (kLaneFlagInfo[i].key == key) {
        rule.leaf = Leaf::kLaneStatus;
        rule.metric = static_cast<std::uint8_t>(i);
        found = true;
      }
    }
    if (!found) r.fail(n, "no lane status '" + key + "' (rx_los, tx_los, rx_lol, tx_lol, tx_fault)");
  }
  if (auto n = node["threshold"]) {
    ++targets;
    if (!n.IsMap()) r.fail(n, "threshold: {module: KEY or lane: KEY, bound: upper|lower, severity: S}");
    r.onlyKeys(n, {"module", "lane", "bound", "severity"});
    const bool upper = n["bound"] && r.scalar(n["bound"], "bound") == "upper";
    if (!n["bound"] || (!upper && n["bound"].Scalar() != "lower")) r.fail(n, "threshold bound: upper or lower");
    if (n["module"]) {
      auto index = catalogueIndex(kModuleMetricInfo, r.scalar(n["module"], "module"));
      if (!index) r.fail(n["module"], "no module metric '" + n["module"].Scalar() + "' in the catalogue");
      rule.leaf = upper ? Leaf::kModuleThresholdUpper : Leaf::kModuleThresholdLower;
      rule.metric = *index;
    } else if (n["lane"]) {
      auto index = catalogueIndex(kLaneMetricInfo, r.scalar(n["lane"], "lane"));
      if (!index) r.fail(n["lane"], "no lane metric '" + n["lane"].Scalar() + "' in the catalogue");
      rule.leaf = upper ? Leaf::kLaneThresholdUpper : Leaf::kLaneThresholdLower;
      rule.metric = *index;
    } else {
      r.fail(n, "threshold needs module: or lane:");
    }
    if (n["severity"]) rule.severity = out.text.emplace_back(r.scalar(n["severity"], "severity"));
  }
  if (auto n = node["field"]) {
    ++targets;
    const std::string key = r.scalar(n, "field");
    auto it = std::find_if(std::begin(kFields), std::end(kFields), [&](const auto& f) { return f.first == key; });
    if (it == std::end(kFields)) r.fail(n, "unknown field '" + key + "'");
    rule.leaf = it->second;
  }
  if (targets != 1) r.fail(node, "a rule names exactly one of module:, lane:, status:, threshold:, field:");
  if (auto n = node["scale"]) {
    try {
      rule.scale = n.as<double>();
    } catch (const YAML::Exception&) {
      r.fail(n, "scale must be a number");
    }
    if (!std::isfinite(rule.scale) || rule.scale == 0) r.fail(n, "scale must be a finite, non-zero number");
  }
  if (auto n = node["unit"]) {
    // The SNMP profiles' power units: the scaled number is in this unit.
    const std::string unit = r.scalar(n, "unit");
    const bool power_metric = rule.leaf == Leaf::kModuleValue ? kModuleMetricInfo[rule.metric].key.ends_with("_dbm")
                              : rule.leaf == Leaf::kLaneValue ? kLaneMetricInfo[rule.metric].key.ends_with("_dbm")
                              : rule.leaf == Leaf::kModuleThresholdUpper || rule.leaf == Leaf::kModuleThresholdLower
                                  ? kModuleMetricInfo[rule.metric].key.ends_with("_dbm")
                              : rule.leaf == Leaf::kLaneThresholdUpper || rule.leaf == Leaf::kLaneThresholdLower
                                  ? kLaneMetricInfo[rule.metric].key.ends_with("_dbm")
                                  : false;
    if (unit != "dbm" && unit != "mw" && unit != "uw" && unit != "w") r.fail(n, "unit must be dbm, mw, uw or w");
    if (!power_metric) r.fail(n, "unit: " + unit + " needs an optical power metric (a catalogue key in _dbm)");
    rule.milliwatts = unit != "dbm";
    if (unit == "uw") rule.scale *= 0.001;
    if (unit == "w") rule.scale *= 1000;
  }
  if (auto n = node["fixed_lane"]) {
    int lane = 0;
    try {
      lane = n.as<int>();
    } catch (const YAML::Exception&) {
      r.fail(n, "fixed_lane must be a number");
    }
    if (lane < 1 || lane > 64) r.fail(n, "fixed_lane must be 1..64");
    rule.lane = static_cast<std::uint8_t>(lane);
  }
  if (auto n = node["fec_bin"]) {
    if (rule.leaf != Leaf::kInterfaceFecCodewords) r.fail(n, "fec_bin: goes with field: interface_fec_codewords_total");
    parseFecBin(r, n, rule);
  } else if (rule.leaf == Leaf::kInterfaceFecCodewords) {
    r.fail(node, "field: interface_fec_codewords_total needs fec_bin: N or [low, high]");
  }
  if (auto n = node["any_component"]) rule.any_component = n.IsScalar() && n.Scalar() == "true";
  return rule;
}

void parseInto(const Reader& r, const YAML::Node& root, LoadedVariant& out, const VariantLookup& lookup, bool shipped) {
  if (!root.IsMap()) r.fail(root, "a variant file is a mapping");
  r.onlyKeys(root, {"name", "summary", "extends", "origin", "target", "origins", "channel_base", "subscribe", "rules",
                    "zero_power_when_down_is_dark"});
  if (!root["name"]) r.fail(root, "a variant needs name:");
  VendorVariant& v = out.variant;
  v.name = out.text.emplace_back(r.scalar(root["name"], "name"));
  if (!shipped && lookup(v.name)) r.fail(root["name"], "'" + std::string(v.name) + "' is a shipped variant's name");
  const VendorVariant* base = nullptr;
  if (auto n = root["extends"]) {
    base = lookup(r.scalar(n, "extends"));
    if (!base) r.fail(n, "extends an unknown variant '" + n.Scalar() + "'");
  }
  v.summary = root["summary"] ? std::string_view(out.text.emplace_back(r.scalar(root["summary"], "summary")))
                              : std::string_view();
  v.origin = root["origin"] ? std::string_view(out.text.emplace_back(r.scalar(root["origin"], "origin")))
             : base         ? base->origin
                            : std::string_view();
  v.target = root["target"] ? std::string_view(out.text.emplace_back(r.scalar(root["target"], "target")))
             : base         ? base->target
                            : std::string_view();
  if (auto n = root["origins"]) {
    if (!n.IsSequence()) r.fail(n, "origins is a list of texts (\"\" for none)");
    for (const auto& o : n) out.origins.push_back(out.text.emplace_back(r.scalar(o, "origin")));
  } else if (base) {
    out.origins.assign(base->origins.begin(), base->origins.end());
  }
  v.first_channel_index = base ? base->first_channel_index : 0;
  v.detect_channel_base = base ? base->detect_channel_base : true;
  if (auto n = root["channel_base"]) {
    if (!n.IsMap()) r.fail(n, "channel_base: {default: 0 or 1, detect: true or false}");
    r.onlyKeys(n, {"default", "detect"});
    if (auto d = n["default"]) {
      const std::string text = r.scalar(d, "default");
      if (text != "0" && text != "1") r.fail(d, "channel_base default must be 0 or 1");
      v.first_channel_index = text == "1" ? 1 : 0;
    }
    if (auto d = n["detect"]) v.detect_channel_base = r.scalar(d, "detect") == "true";
  }
  v.zero_power_when_down_is_dark = base && base->zero_power_when_down_is_dark;
  if (auto n = root["zero_power_when_down_is_dark"]) v.zero_power_when_down_is_dark = r.scalar(n, "flag") == "true";
  if (auto n = root["subscribe"]) {
    if (!n.IsSequence()) r.fail(n, "subscribe is a list of {path:, mode: sample|on_change, target: T}");
    for (const auto& s : n) {
      if (!s.IsMap() || !s["path"] || !s["mode"]) r.fail(s, "a subscription is {path:, mode: sample|on_change}");
      r.onlyKeys(s, {"path", "mode", "target"});
      const std::string& p = out.text.emplace_back(r.scalar(s["path"], "path"));
      if (!parsePath(p)) r.fail(s["path"], "bad path '" + p + "'");
      // A path's own prefix target (SONiC's COUNTERS_DB beside STATE_DB), else the variant's.
      const std::string_view target =
          s["target"] ? std::string_view(out.text.emplace_back(r.scalar(s["target"], "target"))) : v.target;
      const std::string mode = r.scalar(s["mode"], "mode");
      if (mode == "sample") {
        out.sample_paths.push_back(p);
        out.sample_path_targets.push_back(target);
      } else if (mode == "on_change") {
        out.on_change_paths.push_back(p);
        out.on_change_path_targets.push_back(target);
      } else {
        r.fail(s["mode"], "mode must be sample or on_change");
      }
    }
  } else if (base) {
    out.sample_paths.assign(base->sample_paths.begin(), base->sample_paths.end());
    out.on_change_paths.assign(base->on_change_paths.begin(), base->on_change_paths.end());
    // The base's own targets, unless this file sets another for the whole variant.
    auto targets = [&](std::span<const std::string_view> base_targets, std::size_t count) {
      std::vector<std::string_view> t(count, v.target);
      if (!root["target"]) {
        for (std::size_t i = 0; i < base_targets.size() && i < count; ++i) t[i] = base_targets[i];
      }
      return t;
    };
    out.sample_path_targets = targets(base->sample_path_targets, out.sample_paths.size());
    out.on_change_path_targets = targets(base->on_change_path_targets, out.on_change_paths.size());
  }
  if (auto n = root["rules"]) {
    if (!n.IsSequence()) r.fail(n, "rules is a list");
    for (const auto& rule : n) out.rules.push_back(parseRule(r, rule, out));
  }
  if (base) out.rules.insert(out.rules.end(), base->rules.begin(), base->rules.end());
  if (out.rules.empty()) r.fail(root, "a variant needs rules: (or extends:)");
  if (out.sample_paths.empty() && out.on_change_paths.empty()) r.fail(root, "a variant needs subscribe: (or extends:)");
  v.sample_paths = out.sample_paths;
  v.on_change_paths = out.on_change_paths;
  v.sample_path_targets = out.sample_path_targets;
  v.on_change_path_targets = out.on_change_path_targets;
  v.origins = out.origins;
  v.rules = out.rules;
  if (auto compiled = LeafRules::compile(v.rules, v.origins); !compiled) r.fail(root, compiled.error().message);
}

Result<std::shared_ptr<const LoadedVariant>> parse(std::string_view yaml, const std::string& file,
                                                   const VariantLookup& lookup, bool shipped) {
  auto out = std::make_shared<LoadedVariant>();
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    parseInto(Reader(file), root, *out, lookup, shipped);
  } catch (const Failure& f) {
    return fail(f.message);
  } catch (const YAML::Exception& e) {
    std::string where = file;
    if (!e.mark.is_null()) where += ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
    return fail(where + ": " + e.msg);
  }
  return std::shared_ptr<const LoadedVariant>(std::move(out));
}

}  // namespace

Result<std::shared_ptr<const LoadedVariant>> parseVariantFile(std::string_view yaml, const std::string& file) {
  return parse(yaml, file, findVendorVariant, false);
}

Result<std::shared_ptr<const LoadedVariant>> parseShippedVariantFile(std::string_view yaml, const std::string& file,
                                                                     const VariantLookup& lookup) {
  return parse(yaml, file, lookup, true);
}

Result<std::shared_ptr<const LoadedVariant>> loadVariantFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail("cannot read gNMI variant file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return parseVariantFile(text.str(), path);
}

const VendorVariant* VariantSet::find(std::string_view name) const {
  for (const auto& v : variants) {
    if (v && v->variant.name == name) return &v->variant;
  }
  return nullptr;
}

VariantSet loadVariantSet(std::span<const VariantSource> sources, const VariantLookup& fallback) {
  enum class State { kNotLoaded, kLoading, kLoaded };
  VariantSet out;
  out.variants.resize(sources.size());
  std::vector<State> state(sources.size(), State::kNotLoaded);
  std::function<const VendorVariant*(std::size_t)> load = [&](std::size_t i) -> const VendorVariant* {
    if (state[i] == State::kLoading) return nullptr;  // an extends: cycle: "unknown variant"
    if (state[i] == State::kNotLoaded) {
      state[i] = State::kLoading;
      // `extends: X` in file i: another file of the set named X.yaml, else the fallback's.
      auto lookup = [&](std::string_view name) -> const VendorVariant* {
        for (std::size_t j = 0; j < sources.size(); ++j) {
          if (j != i && sources[j].file_name == std::string(name) + ".yaml") return load(j);
        }
        return fallback ? fallback(name) : nullptr;
      };
      auto parsed = parseShippedVariantFile(sources[i].text, sources[i].label, lookup);
      if (!parsed) {
        out.errors.push_back(parsed.error().message);
      } else if (std::string((*parsed)->variant.name) + ".yaml" != sources[i].file_name) {
        out.errors.push_back(sources[i].label + ": name '" + std::string((*parsed)->variant.name) +
                             "' must be the file's name without .yaml");
      } else {
        out.variants[i] = *parsed;
      }
      state[i] = State::kLoaded;
    }
    return out.variants[i] ? &out.variants[i]->variant : nullptr;
  };
  for (const auto& s : sources) out.labels.push_back(s.label);
  for (std::size_t i = 0; i < sources.size(); ++i) load(i);
  return out;
}

Result<std::vector<VariantSource>> readVariantDirectories(std::span<const std::string> dirs) {
  std::map<std::string, VariantSource> by_name;
  for (const auto& dir : dirs) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    }
    if (ec) return fail("cannot list gNMI variant directory " + dir + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      std::ifstream in(path);
      if (!in) return fail("cannot read gNMI variant file " + path.string());
      std::ostringstream text;
      text << in.rdbuf();
      by_name[path.filename().string()] = VariantSource{path.string(), path.filename().string(), text.str()};
    }
  }
  std::vector<VariantSource> out;
  for (auto& [name, source] : by_name) out.push_back(std::move(source));
  return out;
}

}  // namespace opticsd::gnmi
