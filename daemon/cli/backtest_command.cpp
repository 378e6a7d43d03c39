#include "daemon/cli/backtest_command.hpp"

#include <cstdio>
#include <memory>
#include <string>

#include "daemon/backtest/backtest.hpp"
#include "daemon/backtest/backtest_format.hpp"
#include "daemon/backtest/candidate_rules.hpp"
#include "daemon/cli/history_database.hpp"
#include "daemon/config/config.hpp"
#include "daemon/log/log.hpp"
#include "daemon/output/time_text.hpp"
#include "drivers/options/duration.hpp"

namespace opticsd::cli {
namespace {

struct BacktestArgs {
  std::string db;
  std::string config;
  std::string since;
  std::string rules;
  std::string horizon = "24h";
  std::string format = "table";
  bool compare = false;
};

int runBacktestCommand(const BacktestArgs& args) {
  auto error = [](const std::string& message) {
    std::fprintf(stderr, "opticsd backtest: %s\n", message.c_str());
    return 1;
  };
  // The replayed engine logs each finding as it raises and clears it, as the
  // daemon does; here those are the report's rows, and spdlog's default logger
  // writes to stdout, into the report (`--format json` stopped parsing at the
  // first finding). Errors only, on stderr.
  configureLogging("error");
  BacktestOptions options;
  options.running = defaultRuleSet();
  if (!args.config.empty()) {
    auto config = loadConfigFile(args.config);
    if (!config) return error(config.error().format());
    options.running = config->rules;
    options.running_source = "running rules of " + args.config;
    options.topology = config->topology;
    options.deadband = config->storage.deadband;
  }
  auto database = historyDatabasePath(args.db, args.config);
  if (!database) return error(database.error().message);
  options.db = *database;
  if (!args.since.empty()) {
    if (auto back = parseDuration(args.since)) {
      options.since_back_ms = back->count();
    } else if (auto at = parseRfc3339(args.since)) {
      options.since_ms = *at;
    } else {
      return error("--since: expected a duration back from the last stored row (30d) or RFC 3339, got '" + args.since +
                   "'");
    }
  }
  auto horizon = parseDuration(args.horizon);
  if (!horizon || horizon->count() <= 0) return error("--horizon: expected a positive duration such as 24h");
  options.horizon_ms = horizon->count();
  if (!args.rules.empty()) {
    auto candidate = loadCandidateRules(args.rules);
    if (!candidate) return error(candidate.error().message);
    options.candidate = std::move(*candidate);
    options.candidate_source = "candidate " + args.rules;
  }
  if (args.compare && !options.candidate) return error("--compare needs --rules FILE (the candidate)");
  auto report = runBacktest(options, args.compare);
  if (!report) return error(report.error().message);
  const std::string text = args.format == "json" ? formatBacktestJson(*report) : formatBacktestTable(*report);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

void addBacktestCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BacktestArgs>();
  CLI::App* cmd = app.add_subcommand(
      "backtest", "Replay the stored history through the rules and report their precision, recall and lead times.");
  auto* db = cmd->add_option("--db", args->db, "History database file");
  cmd->add_option("--config", args->config,
                  "The daemon's config: its database (storage.path), running rules, topology and deadband")
      ->excludes(db);
  cmd->add_option("--since", args->since,
                  "Replay from this long before the last stored row (e.g. 30d), or from an RFC 3339 time");
  cmd->add_option("--rules", args->rules, "A candidate rules file (a top-level `rules:` section as in the config)");
  cmd->add_option("--horizon", args->horizon, "How long after a finding an event still counts as its outcome")
      ->capture_default_str();
  cmd->add_option("--format", args->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_flag("--compare", args->compare,
                "With --rules: rule by rule, what the candidate raised that the running "
                "rules did not, and the other way round");
  cmd->callback([args, &exit_code] { exit_code = runBacktestCommand(*args); });
}

}  // namespace opticsd::cli
