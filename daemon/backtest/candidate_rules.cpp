#include "daemon/backtest/candidate_rules.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>
#include <string>

namespace opticsd {

Result<RuleSet> loadCandidateRules(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path);
  if (!in) return fail(name + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    return fail(name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                ": YAML syntax error: " + e.msg);
  }
  if (!root.IsMap() || !root["rules"]) return fail(name + ":1:1: expected a top-level `rules:` section");
  std::vector<ConfigIssue> issues;
  RuleSet set = parseRules(root["rules"], name, issues);
  if (!issues.empty()) {
    std::string all;
    for (const auto& issue : issues) all += (all.empty() ? "" : "\n") + issue.format();
    return fail(all);
  }
  return set;
}

}  // namespace opticsd
