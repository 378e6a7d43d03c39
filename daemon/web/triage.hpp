#pragma once
// Straggler-first triage: from slow hosts (or a GPU, a rail, a switch) to
// every link on their paths the topology knows, both ends' optics ranked by
// suspect score. The page, its JSON and `opticsd suspects --host/--rail`
// share the selection.

#include <optional>
#include <string>
#include <vector>

#include "daemon/web/fleet_overview.hpp"

namespace opticsd::web {

struct TriageQuery {
  std::vector<std::string> hosts;  // any of them
  std::string gpu;
  std::string rail;
  std::string target;  // every port of one switch or host target
  bool empty() const { return hosts.empty() && gpu.empty() && rail.empty() && target.empty(); }
};

// "gpu-node-1, gpu-node-7 gpu-node-9" into names (commas or spaces).
std::vector<std::string> splitNames(std::string_view text);

// Whether a port with this endpoint is on the query's paths.
bool matches(const TriageQuery& query, std::string_view target, const Endpoint& endpoint);

struct TriageRow {
  SuspectRow near;                // the port that matched
  std::optional<SuspectRow> far;  // its link's other end, where known and polled here
};

struct Triage {
  TriageQuery query;
  std::vector<TriageRow> rows;  // by the worse end's score, highest first
};

Triage buildTriage(const PageData& data, const TriageQuery& query);
std::string renderTriagePage(const Triage& triage);

}  // namespace opticsd::web
