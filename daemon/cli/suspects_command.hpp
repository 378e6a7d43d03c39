#pragma once
// `opticsd suspects`: the latest straggler suspects, ranked, with what sits
// behind each port.

#include <CLI/CLI.hpp>

namespace opticsd::cli {

void addSuspectsCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
