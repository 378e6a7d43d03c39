#include "daemon/rules/rule_config.hpp"

#include <array>
#include <set>
#include <utility>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace embedded {
extern const char* const default_rules;
}  // namespace embedded

namespace {

std::string typeNames() {
  std::string out;
  for (const RuleType* t : ruleTypes()) out += (out.empty() ? "" : ", ") + std::string(t->name);
  return out;
}

void readPatch(OptionReader& r, RuleParamsPatch& p) {
  if (auto v = r.optionalBool("enabled")) p.enabled = *v;
  if (auto v = r.optionalDouble("warn_above")) p.warn_above = *v;
  if (auto v = r.optionalDouble("crit_above")) p.crit_above = *v;
  if (auto v = r.optionalDouble("warn_below")) p.warn_below = *v;
  if (auto v = r.optionalDouble("crit_below")) p.crit_below = *v;
  if (auto v = r.optionalDouble("limit")) {
    if (*v <= 0) r.error("limit", "must be above 0");
    p.limit = *v;
  }
  if (auto v = r.optionalDouble("min_value")) p.min_value = *v;
  if (auto v = r.optionalBool("module_levels")) p.module_levels = *v;
  if (auto v = r.optionalDuration("window")) {
    if (*v < std::chrono::minutes(1) || *v > std::chrono::hours(24 * 7)) r.error("window", "expected 1m to 7d");
    p.window = *v;
  }
  if (auto v = r.optionalInt("raise_after", 1, 100)) p.raise_after = static_cast<int>(*v);
  if (auto v = r.optionalInt("clear_after", 1, 1000)) p.clear_after = static_cast<int>(*v);
  if (auto v = r.optionalString("severity")) {
    auto s = parseSeverity(*v);
    if (!s) {
      r.error("severity", s.error().message);
    } else {
      p.severity = *s;
    }
  }
}

void readMatch(OptionReader r, RuleMatch& m, const std::set<std::string>& groups) {
  m.media = r.stringList("media");
  m.form_factor = r.stringList("form_factor");
  m.targets = r.stringList("target");
  m.ports = r.stringList("port");
  m.port_groups = r.stringList("port_group");
  for (const auto& g : m.port_groups) {
    if (!groups.contains(g))
      r.error("port_group", "unknown port group '" + g + "' (define it under rules.port_groups)");
  }
  if (auto v = r.optionalString("modulation")) {
    if (*v == "nrz") {
      m.modulation = Modulation::kNrz;
    } else if (*v == "pam4") {
      m.modulation = Modulation::kPam4;
    } else {
      r.error("modulation", "expected nrz or pam4, got '" + *v + "'");
    }
  }
  m.fec = r.optionalBool("fec");
  m.min_speed_gbps = r.optionalDouble("min_speed_gbps");
  m.max_speed_gbps = r.optionalDouble("max_speed_gbps");
  r.rejectUnknownKeys();
}

// Checks the parameters a rule ends up with where no override applies, and
// each override on top of them, so that a bad combination names the rule.
void checkParams(OptionReader& r, const RuleSpec& spec, const RuleParams& p, std::string_view where) {
  const RuleType& type = *spec.type;
  const std::string prefix = where.empty() ? "" : std::string(where) + ": ";
  if (type.needs_levels && !p.warn_above && !p.crit_above && !p.warn_below && !p.crit_below) {
    r.error("", prefix + "rule '" + spec.name + "' (" + std::string(type.name) +
                    ") needs at least one of warn_above, crit_above, warn_below, crit_below");
  }
  if (p.warn_above && p.crit_above && *p.crit_above < *p.warn_above) {
    r.error("crit_above", prefix + "rule '" + spec.name + "': crit_above must not be below warn_above");
  }
  if (p.warn_below && p.crit_below && *p.crit_below > *p.warn_below) {
    r.error("crit_below", prefix + "rule '" + spec.name + "': crit_below must not be above warn_below");
  }
  const auto above = p.warn_above ? p.warn_above : p.crit_above;
  const auto below = p.warn_below ? p.warn_below : p.crit_below;
  if (above && below && *below >= *above) {
    r.error("", prefix + "rule '" + spec.name + "': the below levels must be under the above levels");
  }
}

void resolveMetric(OptionReader& r, RuleSpec& spec) {
  const RuleType& type = *spec.type;
  if (type.metric == RuleMetric::kNone) {
    if (!spec.metric.empty())
      r.error("metric", "rule '" + spec.name + "' (" + std::string(type.name) + ") takes no metric");
    return;
  }
  if (spec.metric.empty()) {
    r.error("", "rule '" + spec.name + "' (" + std::string(type.name) + ") needs a metric");
    return;
  }
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (kModuleMetricInfo[i].key == spec.metric) spec.module_metric = static_cast<ModuleMetric>(i);
  }
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (kLaneMetricInfo[i].key == spec.metric) spec.lane_metric = static_cast<LaneMetric>(i);
  }
  if (type.metric == RuleMetric::kLanePower) {
    spec.module_metric.reset();
    if (spec.lane_metric != LaneMetric::kRxPowerDbm && spec.lane_metric != LaneMetric::kTxPowerDbm) {
      r.error("metric", "rule '" + spec.name + "' (" + std::string(type.name) +
                            ") works on rx_power_dbm or tx_power_dbm, got '" + spec.metric + "'");
      spec.lane_metric.reset();
    }
    return;
  }
  if (!spec.module_metric && !spec.lane_metric) {
    std::string known;
    for (const auto& m : kModuleMetricInfo) known += (known.empty() ? "" : ", ") + std::string(m.key);
    for (const auto& m : kLaneMetricInfo) known += ", " + std::string(m.key);
    r.error("metric",
            "rule '" + spec.name + "': unknown metric '" + spec.metric + "' (expected one of: " + known + ")");
  }
}

// Reads one entry of a rules list into `set`, merging into a rule of the same name.
void readRule(const YAML::Node& node, const std::string& file, const std::string& path,
              std::vector<ConfigIssue>& issues, const std::set<std::string>& groups, RuleSet& set) {
  std::string name;
  if (node.IsMap() && node["name"] && node["name"].IsScalar()) name = node["name"].Scalar();
  OptionReader r(node, file, path + (name.empty() ? "" : " '" + name + "'"), issues);
  name = r.requiredString("name");
  RuleSpec* spec = nullptr;
  for (auto& existing : set.rules) {
    if (existing.name == name) spec = &existing;
  }
  const bool is_new = spec == nullptr;
  RuleSpec fresh;
  if (is_new) {
    fresh.name = name;
    spec = &fresh;
  }
  if (auto type = r.optionalString("type")) {
    if (const RuleType* t = findRuleType(*type)) {
      if (!is_new && t != spec->type) {
        r.error("type", "rule '" + name + "' is a shipped " + std::string(spec->type->name) +
                            " rule; give a new name to add a rule of another type");
      }
      spec->type = t;
    } else {
      r.error("type", "rule '" + name + "': unknown type '" + *type + "' (expected one of: " + typeNames() + ")");
    }
  } else if (is_new) {
    r.error("", "rule '" + name + "' needs a type (one of: " + typeNames() + ")");
  }
  if (auto metric = r.optionalString("metric")) {
    spec->metric = *metric;
    spec->module_metric.reset();
    spec->lane_metric.reset();
  }
  if (auto mode = r.optionalString("mode")) {
    if (*mode == "shadow" || *mode == "live") {
      spec->shadow = *mode == "shadow";
    } else {
      r.error("mode", "rule '" + name + "': mode must be live or shadow, got '" + *mode + "'");
    }
  }
  readPatch(r, spec->base);
  std::vector<RuleOverride> added;
  if (auto list = r.raw("overrides")) {
    if (!list->IsSequence()) {
      r.error("overrides", "rule '" + name + "': expected a list of {match: {...}, <fields>}");
    } else {
      std::size_t i = 0;
      for (const auto& item : *list) {
        OptionReader o(item, file, r.path() + ".overrides[" + std::to_string(i++) + "]", issues);
        RuleOverride ov;
        if (!o.has("match")) o.error("", "rule '" + name + "': an override needs a match");
        readMatch(o.child("match"), ov.match, groups);
        readPatch(o, ov.patch);
        o.rejectUnknownKeys();
        added.push_back(std::move(ov));
      }
    }
  }
  r.rejectUnknownKeys();
  for (auto& ov : added) spec->overrides.push_back(std::move(ov));
  if (!r.valid()) return;
  resolveMetric(r, *spec);
  RuleParams base;
  base.apply(spec->base);
  checkParams(r, *spec, base, "");
  for (std::size_t i = 0; i < spec->overrides.size(); ++i) {
    RuleParams p = base;
    p.apply(spec->overrides[i].patch);
    checkParams(r, *spec, p, "overrides[" + std::to_string(i) + "]");
  }
  if (is_new) set.rules.push_back(std::move(fresh));
}

void readRuleList(const YAML::Node& list, const std::string& file, const std::string& path,
                  std::vector<ConfigIssue>& issues, const std::set<std::string>& groups, RuleSet& set) {
  if (!list || list.IsNull()) return;
  if (!list.IsSequence()) {
    OptionReader(YAML::Node(), file, path, issues).error("", "expected a list of rules");
    return;
  }
  std::size_t i = 0;
  for (const auto& node : list) readRule(node, file, path + "[" + std::to_string(i++) + "]", issues, groups, set);
}

RuleSet parseDefaults(std::vector<ConfigIssue>& issues) {
  RuleSet set;
  YAML::Node root;
  try {
    root = YAML::Load(defaultRulesText());
  } catch (const YAML::Exception& e) {
    issues.push_back(ConfigIssue{"<default rules>", 0, 0, "", std::string("YAML syntax error: ") + e.what()});
    return set;
  }
  readRuleList(root["rules"], "<default rules>", "rules", issues, {}, set);
  return set;
}

}  // namespace

void RuleParams::apply(const RuleParamsPatch& p) {
  if (p.enabled) enabled = *p.enabled;
  if (p.warn_above) warn_above = p.warn_above;
  if (p.crit_above) crit_above = p.crit_above;
  if (p.warn_below) warn_below = p.warn_below;
  if (p.crit_below) crit_below = p.crit_below;
  if (p.limit) limit = p.limit;
  if (p.min_value) min_value = p.min_value;
  if (p.module_levels) module_levels = *p.module_levels;
  if (p.window) window = *p.window;
  if (p.raise_after) raise_after = *p.raise_after;
  if (p.clear_after) clear_after = *p.clear_after;
  if (p.severity) severity = *p.severity;
}

const RuleSpec* RuleSet::find(std::string_view name) const {
  for (const auto& r : rules) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

bool globMatch(std::string_view pattern, std::string_view text) {
  // Iterative '*' / '?' matching with one backtrack point: linear enough for names.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {
bool anyGlob(const std::vector<std::string>& globs, std::string_view text) {
  if (globs.empty()) return true;
  for (const auto& g : globs) {
    if (globMatch(g, text)) return true;
  }
  return false;
}
}  // namespace

bool matches(const RuleMatch& m, const PortFacts& f, const std::vector<PortGroup>& groups) {
  if (!anyGlob(m.media, f.media) || !anyGlob(m.form_factor, f.form_factor) || !anyGlob(m.targets, f.target) ||
      !anyGlob(m.ports, f.port)) {
    return false;
  }
  if (m.modulation && *m.modulation != f.modulation) return false;
  if (m.fec && *m.fec != f.fec) return false;
  if (m.min_speed_gbps && (!f.speed_gbps || *f.speed_gbps < *m.min_speed_gbps)) return false;
  if (m.max_speed_gbps && (!f.speed_gbps || *f.speed_gbps > *m.max_speed_gbps)) return false;
  if (!m.port_groups.empty()) {
    bool in_any = false;
    for (const auto& name : m.port_groups) {
      for (const auto& g : groups) {
        if (g.name == name && anyGlob(g.targets, f.target) && anyGlob(g.ports, f.port)) in_any = true;
      }
    }
    if (!in_any) return false;
  }
  return true;
}

const std::string& defaultRulesText() {
  static const std::string text(embedded::default_rules);
  return text;
}

const RuleSet& defaultRuleSet() {
  static const RuleSet set = [] {
    std::vector<ConfigIssue> issues;
    return parseDefaults(issues);
  }();
  return set;
}

RuleSet parseRules(const YAML::Node& node, const std::string& file, std::vector<ConfigIssue>& issues) {
  OptionReader top(node, file, "rules", issues);
  const bool defaults = top.optionalBool("defaults").value_or(true);
  RuleSet set;
  if (defaults) {
    set = parseDefaults(issues);
  }
  std::set<std::string> group_names;
  if (auto groups = top.raw("port_groups")) {
    if (!groups->IsSequence()) {
      top.error("port_groups", "expected a list of {name, targets, ports}");
    } else {
      std::size_t i = 0;
      for (const auto& g : *groups) {
        OptionReader r(g, file, "rules.port_groups[" + std::to_string(i++) + "]", issues);
        PortGroup group;
        group.name = r.requiredString("name");
        group.targets = r.stringList("targets");
        group.ports = r.stringList("ports");
        r.rejectUnknownKeys();
        if (!group.name.empty() && !group_names.insert(group.name).second) {
          r.error("name", "duplicate port group '" + group.name + "'");
        }
        set.port_groups.push_back(std::move(group));
      }
    }
  }
  readRuleList(top.raw("rules").value_or(YAML::Node()), file, "rules.rules", issues, group_names, set);
  top.rejectUnknownKeys();
  return set;
}

}  // namespace opticsd
