#pragma once
// `opticsd history`: prints what the SQLite store kept for one module.

#include "daemon/cli/command.hpp"

namespace opticsd::cli {

void addHistoryCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
