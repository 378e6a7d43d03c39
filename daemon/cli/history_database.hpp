#pragma once
// Which SQLite file the read-side commands (history, findings, suspects)
// open: --db, else the one the config names, else the default state dir.

#include <string>

#include "drivers/result.hpp"

namespace opticsd::cli {

Result<std::string> historyDatabasePath(const std::string& db_flag, const std::string& config_flag);

}  // namespace opticsd::cli
