#include "daemon/cli/history_database.hpp"

#include "daemon/config/config.hpp"

namespace opticsd::cli {

Result<std::string> historyDatabasePath(const std::string& db_flag, const std::string& config_flag) {
  if (!db_flag.empty()) return db_flag;
  if (!config_flag.empty()) {
    auto config = loadConfigFile(config_flag);
    if (!config) return fail(config.error().format());
    return config->storage.path.string();
  }
  return (defaultStateDirectory() / "history.db").string();
}

}  // namespace opticsd::cli
