#pragma once
// `opticsd backtest`: the stored history replayed through the rules (the
// running ones or a candidate file), judged against the events it holds
// (daemon/backtest/README.md).

#include <CLI/CLI.hpp>

namespace opticsd::cli {

void addBacktestCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
