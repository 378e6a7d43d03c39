// opticsd: one binary, subcommands. Each subcommand lives in its own file.
#include <cstdio>
#include <exception>
#include <string>

#include "daemon/cli/backtest_command.hpp"
#include "daemon/cli/check_config_command.hpp"
#include "daemon/cli/command.hpp"
#include "daemon/cli/decode_command.hpp"
#include "daemon/cli/explain_command.hpp"
#include "daemon/cli/findings_command.hpp"
#include "daemon/cli/history_command.hpp"
#include "daemon/cli/poll_once_command.hpp"
#include "daemon/cli/run_command.hpp"
#include "daemon/cli/suspects_command.hpp"
#if OPTICSD_WITH_CAPTURE
#include "daemon/cli/capture_command.hpp"
#endif

namespace opticsd::cli {
// One row per subcommand.
constexpr CommandRegistrar kCommands[] = {
    &addRunCommand,      &addCheckConfigCommand, &addPollOnceCommand, &addHistoryCommand, &addFindingsCommand,
    &addSuspectsCommand, &addDecodeCommand,      &addBacktestCommand, &addExplainCommand,
#if OPTICSD_WITH_CAPTURE
    &addCaptureCommand,
#endif
};
}  // namespace opticsd::cli

int main(int argc, char** argv) {
  CLI::App app{
      "opticsd: optical transceiver telemetry for AI training fabrics.\n"
      "Reads module DOM/CMIS/VDM telemetry from switches (SNMP, gNMI) and hosts (ethtool),\n"
      "flags degrading optics as straggler suspects, exports Prometheus metrics and keeps history.",
      "opticsd"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("opticsd ") + OPTICSD_VERSION);
  int exit_code = 0;
  for (auto registrar : opticsd::cli::kCommands) registrar(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2 (as getopt tools do); --help and --version exit 0.
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') {
      std::string known;
      for (const auto* sub : app.get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
      std::fprintf(stderr, "opticsd: unknown subcommand '%s' (expected one of: %s)\nRun 'opticsd --help' for usage.\n",
                   argv[1], known.c_str());
      return 2;
    }
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opticsd: %s\n", e.what());
    return 1;
  }
  return exit_code;
}
