#include "daemon/cli/findings_command.hpp"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "daemon/cli/history_database.hpp"
#include "daemon/config/config.hpp"
#include "daemon/output/time_text.hpp"
#include "daemon/rules/findings_format.hpp"
#include "daemon/store/findings_history.hpp"

namespace opticsd::cli {
namespace {

struct FindingsArgs {
  std::string db;
  std::string config;
  std::string target;
  bool active = false;
  bool shadow = false;
  std::string since;
  std::string format = "table";
};

int runFindings(const FindingsArgs& args) {
  auto error = [](const std::string& message) {
    std::fprintf(stderr, "opticsd findings: %s\n", message.c_str());
    return 1;
  };
  auto database = historyDatabasePath(args.db, args.config);
  if (!database) return error(database.error().message);
  const std::string& path = *database;
  FindingsFilter filter;
  filter.active_only = args.active;
  filter.target = args.target;
  if (!args.since.empty()) {
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    auto t = parseTimeBound(args.since, now);
    if (!t) return error("--since: " + t.error().message);
    filter.since_ms = *t;
  }
  auto findings = loadFindings(path, filter);
  if (!findings) return error(findings.error().message);
  // A finding's mode is its rule's in the config (the findings table keeps no mode).
  if (!args.config.empty()) {
    auto config = loadConfigFile(args.config);
    if (!config) return error(config.error().format());
    for (Finding& f : *findings) {
      const RuleSpec* rule = config->rules.find(f.rule);
      f.shadow = rule != nullptr && rule->shadow;
    }
  }
  if (args.shadow) std::erase_if(*findings, [](const Finding& f) { return !f.shadow; });
  const std::string text = args.format == "json" ? formatFindingsJson(*findings) : formatFindingsTable(*findings);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

void addFindingsCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FindingsArgs>();
  CLI::App* cmd =
      app.add_subcommand("findings", "List rules-engine findings (raised and cleared) from the history database.");
  auto* db = cmd->add_option("--db", args->db, "History database file");
  cmd->add_option("--config", args->config, "Read the database path from this config file's storage.path")
      ->excludes(db);
  cmd->add_flag("--active", args->active, "Only findings still active");
  cmd->add_flag("--shadow", args->shadow, "Only findings of rules in mode: shadow (their modes come from --config)")
      ->needs(cmd->get_option("--config"));
  cmd->add_option("--since", args->since,
                  "Only findings active at or after this time: RFC 3339 or a duration back, e.g. 1h");
  cmd->add_option("--target", args->target, "Only this target");
  cmd->add_option("--format", args->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  cmd->callback([args, &exit_code] { exit_code = runFindings(*args); });
}

}  // namespace opticsd::cli
