#pragma once
// The fleet at a glance, as the `/` page and its JSON tell it: each target's
// polling state, modules by health, the ranked suspects with a one-line
// reason and what sits behind each, and the active findings, newest first.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/web/page_data.hpp"

namespace opticsd::web {

struct SuspectRow {
  std::string target;
  std::string port;
  double score = 0;
  std::string reason;
  Endpoint endpoint;
};

struct FleetOverview {
  std::int64_t now_ms = 0;
  std::vector<TargetState> targets;
  std::size_t modules = 0;
  std::size_t modules_warning = 0;   // worst active finding is a warning
  std::size_t modules_critical = 0;  // worst active finding is critical
  std::vector<SuspectRow> suspects;  // highest score first, at most kMaxSuspects
  std::size_t suspects_total = 0;
  std::vector<Finding> findings;  // active, newest first (start 0: time unknown, no history)
  std::string history_error;
};

inline constexpr std::size_t kMaxSuspects = 50;
inline constexpr std::size_t kMaxFindings = 200;

FleetOverview buildFleetOverview(const PageData& data);

// "pre_fec_ber (critical) on lane 3" for a port without a stored reason.
std::string findingsReason(const TargetRulesView& view, std::string_view port);

}  // namespace opticsd::web
