#pragma once
// YAML mappings that give a key twice. yaml-cpp keeps both entries and a
// lookup finds the first, so a second `listen:` section would be silently
// ignored; the config refuses it instead, naming both lines.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "drivers/options/option_reader.hpp"

namespace opticsd {

// Adds one issue per repeated key, anywhere under `root`, at the repeat.
void reportDuplicateKeys(const YAML::Node& root, const std::string& file, std::vector<ConfigIssue>& issues);

}  // namespace opticsd
