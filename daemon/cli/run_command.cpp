#include "daemon/cli/run_command.hpp"

#include "daemon/service/daemon_service.hpp"

namespace opticsd::cli {

void addRunCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("run", "Run the daemon (the embedded demo fleet when no --config is given)");
  auto path = std::make_shared<std::string>();
  command->add_option("-c,--config", *path, "YAML config file")->check(CLI::ExistingFile);
  command->callback([path, &exit_code] {
    RunOptions options;
    if (!path->empty()) options.config_path = *path;
    exit_code = runDaemon(options);
  });
}

}  // namespace opticsd::cli
