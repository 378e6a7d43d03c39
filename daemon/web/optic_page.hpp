#pragma once
// The optic's page (HTML): what the module is, each lane against its own
// thresholds, plots per lane over the chosen range with thresholds,
// baselines and findings on the time axis, findings with evidence and the
// next action, swaps, and the link's other end.

#include <string>

#include "daemon/web/optic_story.hpp"

namespace opticsd::web {

std::string renderOpticPage(const OpticStory& story);

}  // namespace opticsd::web
