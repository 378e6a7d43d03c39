#pragma once
// The read side of findings and suspects in the history database, for the CLI
// (`opticsd findings`, `opticsd suspects`) and for the daemon at start (the
// active findings the rules engine adopts). Each call opens its own read-only
// connection; SqliteStore is the only writer.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/rules/bias_baseline.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/rules/suspect.hpp"
#include "drivers/result.hpp"

namespace opticsd {

struct FindingsFilter {
  bool active_only = false;
  std::optional<std::int64_t> since_ms;  // findings active at or after this time
  std::string target;
};

Result<std::vector<Finding>> loadFindings(const std::filesystem::path& path, const FindingsFilter& filter);
Result<std::vector<Suspect>> loadSuspects(const std::filesystem::path& path);
// One port's stored suspect row (nullopt: none).
Result<std::optional<Suspect>> loadSuspect(const std::filesystem::path& path, const std::string& target,
                                           const std::string& port);

// The baselines learned at one port (one per serial it has held).
Result<std::vector<BiasBaseline>> loadBaselines(const std::filesystem::path& path, const std::string& target,
                                                const std::string& port);

// Where a module with this serial has been seen: each port it sat in, with when.
struct SerialSighting {
  std::string target;
  std::string port;
  std::int64_t first_seen_ms = 0;
  std::int64_t last_seen_ms = 0;
};
Result<std::vector<SerialSighting>> loadSerialSightings(const std::filesystem::path& path, const std::string& serial);

}  // namespace opticsd
