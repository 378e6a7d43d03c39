#include "daemon/cli/check_config_command.hpp"

#include <cstdio>
#include <map>

#include "daemon/config/config.hpp"
#include "daemon/config/listen_address.hpp"

namespace opticsd::cli {

void addCheckConfigCommand(CLI::App& app, int& exit_code) {
  auto* command =
      app.add_subcommand("check-config", "Validate a config file; every problem is named with file:line:column");
  auto path = std::make_shared<std::string>();
  command->add_option("file", *path, "YAML config file (omit to check the embedded demo)");
  command->callback([path, &exit_code] {
    auto config = path->empty() ? loadDemoConfig() : loadConfigFile(*path);
    if (!config) {
      std::fprintf(stderr, "%s", config.error().format().c_str());
      std::fprintf(stderr, "config invalid: %zu problem(s)\n", config.error().issues.size());
      exit_code = 1;
      return;
    }
    if (auto open = openMetricsWarning(config->listen.address, !config->listen.tls_cert_file.empty(),
                                       !config->listen.basic_auth_user.empty())) {
      std::fprintf(stderr, "warning: %s\n", open->c_str());
    }
    std::map<std::string, int> drivers;
    for (const auto& target : config->targets) ++drivers[target.driver];
    std::string by_driver;
    for (const auto& [driver, count] : drivers) by_driver += " " + driver + "=" + std::to_string(count);
    std::printf("config ok: %s\n  targets: %zu (%zu in shard %u/%u),%s\n  listen: %s\n  history: %s\n",
                config->source.c_str(), config->targets.size(), config->targetsForThisShard().size(),
                config->shard.index, config->shard.total, by_driver.c_str(), config->listen.address.c_str(),
                config->storage.enabled ? config->storage.path.c_str() : "(disabled)");
    exit_code = 0;
  });
}

}  // namespace opticsd::cli
