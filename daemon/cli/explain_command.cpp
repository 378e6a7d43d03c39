#include "daemon/cli/explain_command.hpp"

#include <cstdio>
#include <memory>
#include <string>

#include "daemon/cli/history_database.hpp"
#include "daemon/web/page_json.hpp"
#include "daemon/web/store_page_data.hpp"
#include "daemon/web/story_text.hpp"

namespace opticsd::cli {
namespace {

struct ExplainArgs {
  std::string target;
  std::string port;
  std::string db;
  std::string config;
  std::string range = "24h";
  std::string format = "text";
};

int runExplain(const ExplainArgs& args) {
  auto error = [](const std::string& message) {
    std::fprintf(stderr, "opticsd explain: %s\n", message.c_str());
    return 1;
  };
  auto database = historyDatabasePath(args.db, args.config);
  if (!database) return error(database.error().message);
  const web::StorePageData data{std::filesystem::path(*database)};
  web::StoryRequest request{args.target, args.port, args.range};
  auto story = web::buildOpticStory(data, request);
  if (!story) {
    auto probe = data.history(HistoryFilter{args.target, args.port, {}, {}, {}, {}});
    return error(probe ? "no history of " + args.target + " " + args.port + " in " + *database : probe.error().message);
  }
  const std::string text = args.format == "json" ? web::opticJson(*story) : web::storyText(*story);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

void addExplainCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "Tell one optic's story: identity, lanes, findings with what to do, history, swaps, far end.");
  cmd->add_option("target", args->target, "Target name (the switch or host)")->required();
  cmd->add_option("port", args->port, "Port name, as the target reports it")->required();
  auto* db = cmd->add_option("--db", args->db, "History database file (written by the running daemon)");
  cmd->add_option("--config", args->config, "Read the database path from this config file's storage.path")
      ->excludes(db);
  cmd->add_option("--range", args->range, "History to summarise: 1h, 24h or 14d")
      ->check(CLI::IsMember({"1h", "24h", "14d"}));
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] { exit_code = runExplain(*args); });
}

}  // namespace opticsd::cli
