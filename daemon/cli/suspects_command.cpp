#include "daemon/cli/suspects_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "daemon/cli/history_database.hpp"
#include "daemon/config/config.hpp"
#include "daemon/rules/findings_format.hpp"
#include "daemon/store/findings_history.hpp"
#include "daemon/web/triage.hpp"

namespace opticsd::cli {
namespace {

struct SuspectsArgs {
  std::string db;
  std::string config;
  std::size_t limit = 20;
  std::string format = "table";
  std::vector<std::string> hosts;  // only suspects behind these hosts (commas or repeats)
  std::string gpu;
  std::string rail;
};

int runSuspects(const SuspectsArgs& args) {
  auto error = [](const std::string& message) {
    std::fprintf(stderr, "opticsd suspects: %s\n", message.c_str());
    return 1;
  };
  auto database = historyDatabasePath(args.db, args.config);
  if (!database) return error(database.error().message);
  const std::string& path = *database;
  auto suspects = loadSuspects(path);
  if (!suspects) return error(suspects.error().message);
  web::TriageQuery query;
  for (const auto& h : args.hosts) {
    for (auto& name : web::splitNames(h)) query.hosts.push_back(std::move(name));
  }
  query.gpu = args.gpu;
  query.rail = args.rail;
  if (!query.empty()) {
    std::erase_if(*suspects, [&](const Suspect& s) { return !web::matches(query, s.target, s.endpoint); });
  }
  if (args.limit > 0 && suspects->size() > args.limit) suspects->resize(args.limit);
  const std::string text = args.format == "json" ? formatSuspectsJson(*suspects) : formatSuspectsTable(*suspects);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

void addSuspectsCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SuspectsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "suspects", "Rank the modules most likely to slow training traffic, with what sits behind each port.");
  auto* db = cmd->add_option("--db", args->db, "History database file (written by the running daemon)");
  cmd->add_option("--config", args->config, "Read the database path from this config file's storage.path")
      ->excludes(db);
  cmd->add_option("--limit", args->limit, "At most this many (0: all)");
  cmd->add_option("--host", args->hosts,
                  "Only the optics behind these hosts (straggling ones; repeat or comma-separate)");
  cmd->add_option("--gpu", args->gpu, "Only the optics behind this GPU index");
  cmd->add_option("--rail", args->rail, "Only the optics on this rail");
  cmd->add_option("--format", args->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  cmd->callback([args, &exit_code] { exit_code = runSuspects(*args); });
}

}  // namespace opticsd::cli
