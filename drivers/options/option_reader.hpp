#pragma once
// Typed reads from one YAML mapping of the config, collecting every problem
// with the file, line, column and key path, so that an operator sees all of
// them at once and knows where to look. Keys that nobody read are reported
// as unknown (typos are the most common config bug).
//
// Not thread-safe; used while loading a config.

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/result.hpp"

namespace opticsd {

struct ConfigIssue {
  std::string file;
  int line = 0;     // 1-based; 0 when unknown
  int column = 0;   // 1-based; 0 when unknown
  std::string key;  // "targets[2].community"
  std::string message;
  std::string format() const;  // "file:line:col: key: message"
};

class OptionReader {
 public:
  OptionReader(YAML::Node map, std::string file, std::string path, std::vector<ConfigIssue>& issues);

  bool has(std::string_view key) const;
  std::optional<std::string> optionalString(std::string_view key);
  std::string requiredString(std::string_view key);
  std::optional<std::int64_t> optionalInt(std::string_view key, std::int64_t min, std::int64_t max);
  std::optional<double> optionalDouble(std::string_view key);
  std::optional<bool> optionalBool(std::string_view key);
  std::optional<std::chrono::milliseconds> optionalDuration(std::string_view key);
  std::optional<std::uint64_t> optionalByteSize(std::string_view key);  // "20GiB", "500MB"
  std::vector<std::string> stringList(std::string_view key);            // a string or a list of strings
  // stringList, each an existing directory (a missing one is an error here,
  // not an empty directory at run time).
  std::vector<std::string> directoryList(std::string_view key);
  // Marks the key read and hands back the raw node (for nested sections).
  std::optional<YAML::Node> raw(std::string_view key);
  OptionReader child(std::string_view key);  // a nested mapping (empty when absent)

  // Records a problem with `key` (or with the mapping itself when key is empty).
  void error(std::string_view key, std::string message);
  void rejectUnknownKeys();

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  std::vector<ConfigIssue>& issues() { return issues_; }
  bool valid() const { return valid_; }

 private:
  std::optional<YAML::Node> scalar(std::string_view key, std::string_view expected);
  // A scalar turned into a T by `parse`, whose error is reported at the key.
  template <typename T>
  std::optional<T> parsedScalar(std::string_view key, std::string_view expected, Result<T> (*parse)(std::string_view));
  std::string keyPath(std::string_view key) const;
  void errorAt(const YAML::Node& node, std::string_view key, std::string message);

  YAML::Node map_;
  std::string file_;
  std::string path_;
  std::vector<ConfigIssue>& issues_;
  std::set<std::string, std::less<>> read_;
  bool valid_ = true;
};

}  // namespace opticsd
