#pragma once
// A subcommand registers itself on the CLI11 app and writes its exit status
// to `exit_code` when it runs. One file per subcommand, one row in main.cpp.

#include <CLI/CLI.hpp>

namespace opticsd::cli {

using CommandRegistrar = void (*)(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
