#pragma once
// `opticsd findings`: findings from the history database, newest last.

#include <CLI/CLI.hpp>

namespace opticsd::cli {

void addFindingsCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
