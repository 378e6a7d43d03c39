#pragma once
#include "daemon/cli/command.hpp"

namespace opticsd::cli {
// `opticsd check-config FILE`: validates a config the way `run` and SIGHUP do.
void addCheckConfigCommand(CLI::App& app, int& exit_code);
}  // namespace opticsd::cli
