#pragma once
#include "daemon/cli/command.hpp"

namespace opticsd::cli {
// `opticsd run [--config FILE]`: the daemon; the embedded demo without a config.
void addRunCommand(CLI::App& app, int& exit_code);
}  // namespace opticsd::cli
