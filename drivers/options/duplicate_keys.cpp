#include "drivers/options/duplicate_keys.hpp"

#include <map>
#include <set>
#include <utility>

namespace opticsd {
namespace {

struct Walk {
  const std::string& file;
  std::vector<ConfigIssue>& issues;
  // Aliases share one node: each collection is checked once, by where it is.
  std::set<std::pair<int, int>> visited;

  void node(const YAML::Node& n, const std::string& path) {
    if (!n.IsMap() && !n.IsSequence()) return;
    if (!n.Mark().is_null() && !visited.insert({n.Mark().line, n.Mark().column}).second) return;
    if (n.IsSequence()) {
      for (std::size_t i = 0; i < n.size(); ++i) node(n[i], path + "[" + std::to_string(i) + "]");
      return;
    }
    std::map<std::string, int> first_line;
    for (const auto& entry : n) {
      if (!entry.first.IsScalar()) continue;
      const std::string& key = entry.first.Scalar();
      const std::string key_path = path.empty() ? key : path + "." + key;
      const YAML::Mark mark = entry.first.Mark();
      const int line = mark.is_null() ? 0 : mark.line + 1;
      if (const auto [it, inserted] = first_line.emplace(key, line); !inserted) {
        issues.push_back(ConfigIssue{file, line, mark.is_null() ? 0 : mark.column + 1, key_path,
                                     "duplicate key: given on line " + std::to_string(it->second) +
                                         " and again on line " + std::to_string(line) +
                                         " (YAML keeps only one; remove the other)"});
        continue;
      }
      node(entry.second, key_path);
    }
  }
};

}  // namespace

void reportDuplicateKeys(const YAML::Node& root, const std::string& file, std::vector<ConfigIssue>& issues) {
  Walk{file, issues, {}}.node(root, "");
}

}  // namespace opticsd
