#include "drivers/options/option_reader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "drivers/options/byte_size.hpp"
#include "drivers/options/duration.hpp"

namespace opticsd {
namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The known key a typo most likely meant: at most 2 edits away (1 for short keys).
std::optional<std::string> closestKey(std::string_view typo, const std::set<std::string, std::less<>>& known) {
  const std::size_t allowed = typo.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const auto& key : known) {
    const std::size_t d = editDistance(typo, key);
    if (d < best_distance) {
      best = key;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace

std::string ConfigIssue::format() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  out += ": ";
  if (!key.empty()) out += key + ": ";
  return out + message;
}

OptionReader::OptionReader(YAML::Node map, std::string file, std::string path, std::vector<ConfigIssue>& issues)
    : map_(std::move(map)), file_(std::move(file)), path_(std::move(path)), issues_(issues) {
  if (map_ && !map_.IsNull() && !map_.IsMap()) {
    errorAt(map_, "", "expected a mapping of keys to values");
    map_ = YAML::Node();
  }
}

std::string OptionReader::keyPath(std::string_view key) const {
  if (key.empty()) return path_;
  if (path_.empty()) return std::string(key);
  return path_ + "." + std::string(key);
}

void OptionReader::errorAt(const YAML::Node& node, std::string_view key, std::string message) {
  ConfigIssue issue{file_, 0, 0, keyPath(key), std::move(message)};
  if (node && !node.Mark().is_null()) {
    issue.line = node.Mark().line + 1;
    issue.column = node.Mark().column + 1;
  } else if (map_ && !map_.Mark().is_null()) {
    issue.line = map_.Mark().line + 1;
    issue.column = map_.Mark().column + 1;
  }
  issues_.push_back(std::move(issue));
  valid_ = false;
}

void OptionReader::error(std::string_view key, std::string message) {
  YAML::Node node;
  if (!key.empty() && map_ && map_.IsMap()) node = map_[std::string(key)];
  errorAt(node, key, std::move(message));
}

bool OptionReader::has(std::string_view key) const {
  return map_ && map_.IsMap() && map_[std::string(key)] && !map_[std::string(key)].IsNull();
}

std::optional<YAML::Node> OptionReader::raw(std::string_view key) {
  read_.emplace(key);
  if (!has(key)) return std::nullopt;
  return map_[std::string(key)];
}

std::optional<YAML::Node> OptionReader::scalar(std::string_view key, std::string_view expected) {
  auto node = raw(key);
  if (!node) return std::nullopt;
  if (!node->IsScalar()) {
    errorAt(*node, key, "expected " + std::string(expected));
    return std::nullopt;
  }
  return node;
}

std::optional<std::string> OptionReader::optionalString(std::string_view key) {
  auto node = scalar(key, "a string");
  if (!node) return std::nullopt;
  return node->Scalar();
}

std::string OptionReader::requiredString(std::string_view key) {
  if (!has(key)) {
    read_.emplace(key);
    error("", "missing required key '" + std::string(key) + "'");
    return {};
  }
  auto value = optionalString(key);
  if (value && value->empty()) error(key, "must not be empty");
  return value.value_or("");
}

std::optional<std::int64_t> OptionReader::optionalInt(std::string_view key, std::int64_t min, std::int64_t max) {
  const std::string range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  auto node = scalar(key, range);
  if (!node) return std::nullopt;
  const std::string& text = node->Scalar();
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < min || value > max) {
    errorAt(*node, key, "expected " + range + ", got '" + text + "'");
    return std::nullopt;
  }
  return value;
}

std::optional<double> OptionReader::optionalDouble(std::string_view key) {
  auto node = scalar(key, "a number");
  if (!node) return std::nullopt;
  const std::string& text = node->Scalar();
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value)) {
    errorAt(*node, key, "expected a finite number, got '" + text + "'");
    return std::nullopt;
  }
  return value;
}

std::optional<bool> OptionReader::optionalBool(std::string_view key) {
  auto node = scalar(key, "true or false");
  if (!node) return std::nullopt;
  const std::string& text = node->Scalar();
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  errorAt(*node, key, "expected true or false, got '" + text + "'");
  return std::nullopt;
}

template <typename T>
std::optional<T> OptionReader::parsedScalar(std::string_view key, std::string_view expected,
                                            Result<T> (*parse)(std::string_view)) {
  auto node = scalar(key, expected);
  if (!node) return std::nullopt;
  auto parsed = parse(node->Scalar());
  if (!parsed) {
    errorAt(*node, key, parsed.error().message);
    return std::nullopt;
  }
  return *parsed;
}

std::optional<std::chrono::milliseconds> OptionReader::optionalDuration(std::string_view key) {
  return parsedScalar(key, "a duration such as 30s or 5m", &parseDuration);
}

std::optional<std::uint64_t> OptionReader::optionalByteSize(std::string_view key) {
  return parsedScalar(key, "a size such as 20GiB or 500MB", &parseByteSize);
}

std::vector<std::string> OptionReader::stringList(std::string_view key) {
  auto node = raw(key);
  if (!node) return {};
  if (node->IsScalar()) return {node->Scalar()};
  std::vector<std::string> out;
  if (!node->IsSequence()) {
    errorAt(*node, key, "expected a string or a list of strings");
    return out;
  }
  for (const auto& item : *node) {
    if (!item.IsScalar()) {
      errorAt(item, key, "expected a list of strings");
      continue;
    }
    out.push_back(item.Scalar());
  }
  return out;
}

std::vector<std::string> OptionReader::directoryList(std::string_view key) {
  std::vector<std::string> dirs = stringList(key);
  std::erase_if(dirs, [&](const std::string& dir) {
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec)) return false;
    error(key, "'" + dir + "' is not a directory" + (std::filesystem::exists(dir, ec) ? "" : " (it does not exist)"));
    return true;
  });
  return dirs;
}

OptionReader OptionReader::child(std::string_view key) {
  auto node = raw(key);
  return OptionReader(node.value_or(YAML::Node()), file_, keyPath(key), issues_);
}

void OptionReader::rejectUnknownKeys() {
  if (!map_ || !map_.IsMap()) return;
  for (const auto& entry : map_) {
    const std::string key = entry.first.Scalar();
    if (read_.find(key) == read_.end()) {
      if (auto meant = closestKey(key, read_)) {
        errorAt(entry.first, key,
                "unknown key '" + key + "': did you mean '" + *meant + "'?" +
                    (has(*meant) ? "" : " ('" + *meant + "' is not set)"));
        continue;
      }
      std::string known;
      for (const auto& k : read_) known += (known.empty() ? "" : ", ") + k;
      errorAt(entry.first, key, "unknown key '" + key + "' (expected one of: " + known + ")");
    }
  }
}

}  // namespace opticsd
