#pragma once
// The pages' data as JSON (`Accept: application/json` on the same URL), for
// scripts and for other opticsd instances (the far end across instances).
// Absent values are left out, never 0 or null-as-number.

#include <string>

#include "daemon/web/fleet_overview.hpp"
#include "daemon/web/optic_story.hpp"
#include "daemon/web/triage.hpp"

namespace opticsd::web {

std::string fleetJson(const FleetOverview& fleet);
std::string opticJson(const OpticStory& story);
std::string triageJson(const Triage& triage);

}  // namespace opticsd::web
