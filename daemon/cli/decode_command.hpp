#pragma once
// `opticsd decode FILE [--json]`: decodes a module EEPROM dump (ethtool `hex
// on` / `raw on` output, a bare hex string, or the page-addressed format of
// schemas/module-dump.md) like `ethtool -m` does, plus CMIS VDM.

#include "daemon/cli/command.hpp"

namespace opticsd::cli {

void addDecodeCommand(CLI::App& app, int& exit_code);

}  // namespace opticsd::cli
