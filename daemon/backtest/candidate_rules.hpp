#pragma once
// A candidate rules file for `opticsd backtest --rules`: the config's `rules:`
// section under a top-level `rules:` key (a whole config file works too).
// Every problem comes back as `file:line:col: key: message`, one a line.

#include <filesystem>

#include "daemon/rules/rule_config.hpp"
#include "drivers/result.hpp"

namespace opticsd {

Result<RuleSet> loadCandidateRules(const std::filesystem::path& path);

}  // namespace opticsd
