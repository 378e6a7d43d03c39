#include "drivers/gnmi/leaf_rules.hpp"

#include <charconv>

namespace opticsd::gnmi {

Result<LeafRules> LeafRules::compile(std::span<const LeafRule> rules) {
  LeafRules out;
  out.rules_.reserve(rules.size());
  for (const auto& rule : rules) {
    auto pattern = parsePath(rule.pattern);
    if (!pattern) return fail("bad rule path '" + std::string(rule.pattern) + "': " + pattern.error().message);
    if (pattern->elems.empty()) return fail("empty rule path");
    if (pattern->elems.back().name.starts_with('$')) {
      return fail("rule path '" + std::string(rule.pattern) + "' must end in a leaf name");
    }
    for (const auto& elem : pattern->elems) {
      for (const auto& [k, v] : elem.keys) {
        if (!v.empty() && v[0] == '$' && v != "$component" && v != "$port" && v != "$lane" && v != "$severity") {
          return fail("rule path '" + std::string(rule.pattern) + "' binds unknown role " + v);
        }
      }
    }
    out.by_leaf_name_[pattern->elems.back().name].push_back(out.rules_.size());
    out.rules_.push_back(Compiled{&rule, std::move(*pattern)});
  }
  return out;
}

std::optional<Binding> LeafRules::match(const GnmiPath& path) const {
  if (path.elems.empty()) return std::nullopt;
  auto candidates = by_leaf_name_.find(path.elems.back().name);
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
      } else if (want.name != got.name) {
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
    return b;
  }
  return std::nullopt;
}

}  // namespace opticsd::gnmi
