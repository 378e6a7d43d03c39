#pragma once
// `opticsd explain TARGET PORT`: one optic's story in the terminal, for
// people on SSH: what it is, its lanes, its findings with what to do, its
// history summarised, swaps and the far end; read from the history file
// (the same story as the optic's page, daemon/web/optic_story.hpp).

#include <CLI/CLI.hpp>

namespace opticsd::cli {

void addExplainCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
