#pragma once
// `opticsd capture --interface X --out DIR [--count N] [--interval D]`: reads
// live interfaces with the ethtool driver and writes a replay directory
// (drivers/replay/README.md) that a bug report can carry and a `replay`
// target reproduces: the module's pages once, the FEC counters and link
// state once per step.

#include "daemon/cli/command.hpp"

namespace opticsd::cli {

void addCaptureCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
