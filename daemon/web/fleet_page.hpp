#pragma once
// The `/` page (HTML): targets, modules by health, ranked suspects, active findings.

#include <string>

#include "daemon/web/fleet_overview.hpp"

namespace opticsd::web {

std::string renderFleetPage(const FleetOverview& fleet);

}  // namespace opticsd::web
