#pragma once
#include "daemon/cli/command.hpp"

namespace opticsd::cli {
// `opticsd poll-once [--config FILE] [--target NAME]...`: one poll of each
// target, Samples as JSON on stdout. What operators run to check a new
// target or SNMP profile before putting it in the fleet.
void addPollOnceCommand(CLI::App& app, int& exit_code);
}  // namespace opticsd::cli
