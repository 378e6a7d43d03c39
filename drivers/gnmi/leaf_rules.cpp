#include "drivers/gnmi/leaf_rules.hpp"

#include <charconv>

namespace opticsd::gnmi {

Result<LeafRules> LeafRules::compile(std::span<const LeafRule> rules, std::span<const std::string_view> origins) {
  LeafRules out;
  for (auto o : origins) out.origins_.emplace_back(o);
  out.rules_.reserve(rules.size());
  for (const auto& rule : rules) {
    auto pattern = parsePath(rule.pattern);
    if (!pattern) return fail("bad rule path '" + std::string(rule.pattern) + "': " + pattern.error().message);
    if (pattern->elems.empty()) return fail("empty rule path");
    if (pattern->elems.back().name.starts_with('$')) {
      return fail("rule path '" + std::string(rule.pattern) + "' must end in a leaf name");
    }
    for (const auto& elem : pattern->elems) {
      if (!elem.keys.empty() && !elem.name.starts_with('$')) {
        auto& names = out.list_keys_[std::string(localName(elem.name))];
        if (names.empty()) {
          for (const auto& [k, v] : elem.keys) names.push_back(k);
        }
      }
      for (const auto& [k, v] : elem.keys) {
        if (!v.empty() && v[0] == '$' && v != "$component" && v != "$port" && v != "$lane" && v != "$severity") {
          return fail("rule path '" + std::string(rule.pattern) + "' binds unknown role " + v);
        }
      }
    }
    out.by_leaf_name_[std::string(localName(pattern->elems.back().name))].push_back(out.rules_.size());
    out.rules_.push_back(Compiled{&rule, std::move(*pattern)});
  }
  return out;
}

const std::vector<std::string>* LeafRules::listKeys(std::string_view name) const {
  auto it = list_keys_.find(name);
  return it == list_keys_.end() ? nullptr : &it->second;
}

bool LeafRules::acceptsOrigin(std::string_view origin) const {
  if (origins_.empty()) return true;
  for (const auto& o : origins_) {
    if (o == origin) return true;
  }
  return false;
}

std::optional<Binding> LeafRules::match(const GnmiPath& path) const {
  if (path.elems.empty() || !acceptsOrigin(path.origin)) return std::nullopt;
  auto candidates = by_leaf_name_.find(localName(path.elems.back().name));
  if (candidates == by_leaf_name_.end()) return std::nullopt;
  for (std::size_t index : candidates->second) {
    const Compiled& c = rules_[index];
    if (c.pattern.elems.size() != path.elems.size()) continue;
    Binding b;
    b.rule = c.rule;
    bool ok = true;
    for (std::size_t i = 0; ok && i < path.elems.size(); ++i) {
      const PathElement& want = c.pattern.elems[i];
      const PathElement& got = path.elems[i];
      if (want.name == "$port") {
        b.port = got.name;
      } else if (want.name == "$component") {
        b.component = got.name;
      } else if (!sameNode(want.name, got.name)) {
        ok = false;
        break;
      }
      for (const auto& [key, role] : want.keys) {
        const std::string* value = got.key(key);
        if (!value) {
          ok = false;
          break;
        }
        if (role == "$component") {
          b.component = *value;
        } else if (role == "$port") {
          b.port = *value;
        } else if (role == "$severity") {
          b.severity = *value;
        } else if (role == "$lane") {
          long lane = 0;
          auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), lane);
          if (ec != std::errc() || end != value->data() + value->size()) {
            ok = false;
            break;
          }
          b.lane = lane;
        } else if (role != "*" && role != *value) {
          ok = false;
          break;
        }
      }
    }
    if (!ok) continue;
    if (c.rule->lane != 0) b.lane = c.rule->lane;
    if (!c.rule->severity.empty()) b.severity = c.rule->severity;
    return b;
  }
  return std::nullopt;
}

}  // namespace opticsd::gnmi

namespace opticsd::gnmi {

std::string LeafRules::explainMiss(const GnmiPath& path) const {
  if (path.elems.empty()) return "empty path";
  if (!acceptsOrigin(path.origin)) {
    std::string known;
    for (const auto& o : origins_) known += (known.empty() ? "'" : ", '") + o + "'";
    return "origin '" + path.origin + "' is not one this variant's model is served under (" + known + ")";
  }
  auto candidates = by_leaf_name_.find(localName(path.elems.back().name));
  if (candidates == by_leaf_name_.end()) {
    return "no rule for leaf '" + std::string(localName(path.elems.back().name)) + "'";
  }
  // The candidate that agrees longest with the path says what differs.
  std::string best = "the " + std::to_string(candidates->second.size()) + " rules for leaf '" +
                     std::string(localName(path.elems.back().name)) + "' have other depths than " +
                     std::to_string(path.elems.size()) + ", e.g. " +
                     std::string(rules_[candidates->second.front()].rule->pattern);
  std::size_t best_depth = 0;
  for (std::size_t index : candidates->second) {
    const Compiled& c = rules_[index];
    if (c.pattern.elems.size() != path.elems.size()) continue;
    for (std::size_t i = 0; i < path.elems.size(); ++i) {
      const PathElement& want = c.pattern.elems[i];
      const PathElement& got = path.elems[i];
      std::string differs;
      if (!want.name.starts_with('$') && !sameNode(want.name, got.name)) {
        differs = "element " + std::to_string(i + 1) + " is '" + got.name + "', rule " + std::string(c.rule->pattern) +
                  " wants '" + want.name + "'";
      }
      for (const auto& [key, role] : want.keys) {
        if (!differs.empty()) break;
        const std::string* value = got.key(key);
        if (!value) {
          differs = "element '" + got.name + "' has no key '" + key + "' (rule " + std::string(c.rule->pattern) + ")";
        } else if (role == "$lane") {
          long lane = 0;
          auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), lane);
          if (ec != std::errc() || end != value->data() + value->size()) {
            differs = "channel key '" + key + "=" + *value + "' is not a number";
          }
        } else if (!role.starts_with('$') && role != "*" && role != *value) {
          differs = "key '" + key + "=" + *value + "', rule " + std::string(c.rule->pattern) + " wants '" + role + "'";
        }
      }
      if (differs.empty()) continue;
      if (i + 1 > best_depth) {
        best_depth = i + 1;
        best = differs;
      }
      break;
    }
  }
  return best;
}

}  // namespace opticsd::gnmi
