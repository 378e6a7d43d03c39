#pragma once
// A poll as `opticsd poll-once` prints it: the target, its driver, whether it
// succeeded, how long it took, its errors, its prepared Samples (what /metrics
// serves and the rules judge) and its LLDP neighbours. Pure functions.

#include <nlohmann/json.hpp>

#include "daemon/pipeline/published_poll.hpp"

namespace opticsd {

nlohmann::json pollToJson(const PublishedPoll& poll);
nlohmann::json pollToJson(const FailedPoll& poll);

}  // namespace opticsd
