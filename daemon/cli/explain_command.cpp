#include "daemon/cli/explain_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <set>
#include <string>

#include "daemon/web/page_json.hpp"
#include "daemon/web/remote_far_end.hpp"
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

// The history, plus what the config's topology knows of the optic's port:
// the daemon's rules view, which carries the endpoint on the page, is not at
// hand here.
class TopologyPageData : public web::PageData {
 public:
  TopologyPageData(const web::PageData& history, const Topology& topology, const web::StoryRequest& request)
      : history_(history), target_(request.target) {
    auto endpoint = topology.find(request.target, request.port);
    if (!endpoint) return;
    auto view = std::make_shared<TargetRulesView>();
    TargetRulesView::PortRow row;
    row.port = request.port;
    row.endpoint = std::make_unique<const Endpoint>(std::move(*endpoint));
    view->ports.push_back(std::move(row));
    view_ = std::move(view);
  }

  std::int64_t nowMs() const override { return history_.nowMs(); }
  std::vector<web::TargetState> targets() const override { return history_.targets(); }
  std::shared_ptr<const std::vector<Sample>> samples(std::string_view target) const override {
    return history_.samples(target);
  }
  std::shared_ptr<const TargetRulesView> rules(std::string_view target) const override {
    return target == target_ ? view_ : history_.rules(target);
  }
  Result<std::vector<Finding>> findings(const FindingsFilter& filter) const override {
    return history_.findings(filter);
  }
  Result<std::vector<Suspect>> storedSuspects() const override { return history_.storedSuspects(); }
  Result<HistoryResult> history(const HistoryFilter& filter) const override { return history_.history(filter); }
  Result<std::vector<BiasBaseline>> baselines(const std::string& target, const std::string& port) const override {
    return history_.baselines(target, port);
  }
  Result<std::vector<SerialSighting>> sightings(const std::string& serial) const override {
    return history_.sightings(serial);
  }
  std::string historyWarning() const override { return history_.historyWarning(); }

 private:
  const web::PageData& history_;
  std::string target_;
  std::shared_ptr<const TargetRulesView> view_;
};

// Where this instance's pages are: listen.external_url, else the listen
// address (a wildcard one named by the host's name).
std::string ownBaseUrl(const ListenConfig& listen) {
  if (!listen.external_url.empty()) return listen.external_url;
  const auto colon = listen.address.rfind(':');
  std::string host = listen.address.substr(0, colon);
  if (host == "0.0.0.0" || host == "[::]") {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0 && name[0] != '\0') host = name;
  }
  return (listen.tls_cert_file.empty() ? "http://" : "https://") + host + listen.address.substr(colon);
}

// A far end this instance polls is read from the same history file; any
// other is fetched from the instance that serves it, as the page does.
class ExplainFarEnd : public web::FarEndResolver {
 public:
  ExplainFarEnd(const web::PageData& history, const Config& config, web::FetchOptions fetch)
      : history_(history), own_base_(ownBaseUrl(config.listen)), remote_(config.instances, std::move(fetch)) {
    for (const auto* target : config.targetsForThisShard()) polled_.insert(target->name);
  }

  void resolve(web::FarEnd& far, const web::OpticStory& near) const override {
    if (!polled_.contains(far.target)) {
      remote_.resolve(far, near);
      return;
    }
    far.where = "this instance";
    far.page_url = own_base_ + web::opticPath(far.target, far.port);
    const auto story = web::buildOpticStory(history_, {far.target, far.port, near.range_name});
    if (!story) {
      far.error = "no history of it in the last " + near.range_name;
      return;
    }
    // Read back as another instance's answer is: the same pairing of lanes.
    std::string error;
    far.reachable = web::fillFromOpticJson(far, near, web::opticJson(*story), error);
    if (!far.reachable) far.error = error;
  }

 private:
  const web::PageData& history_;
  std::string own_base_;
  std::set<std::string, std::less<>> polled_;
  web::RemoteFarEnd remote_;
};

int runExplain(const ExplainArgs& args) {
  auto error = [](const std::string& message) {
    std::fprintf(stderr, "opticsd explain: %s\n", message.c_str());
    return 1;
  };
  std::optional<Config> config;
  if (!args.config.empty()) {
    auto loaded = loadConfigFile(args.config);
    if (!loaded) return error(loaded.error().format());
    config = std::move(*loaded);
  }
  // --db, else the config's storage.path, else where the daemon keeps it by default.
  const std::string database = !args.db.empty() ? args.db
                               : config         ? config->storage.path.string()
                                                : (defaultStateDirectory() / "history.db").string();
  const web::StorePageData data{std::filesystem::path(database)};
  web::StoryRequest request{args.target, args.port, args.range};
  auto story = explainStory(data, config ? &*config : nullptr, request);
  if (!story) {
    auto probe = data.history(HistoryFilter{args.target, args.port, {}, {}, {}, {}});
    return error(probe ? "no history of " + args.target + " " + args.port + " in " + database : probe.error().message);
  }
  const std::string text = args.format == "json" ? web::opticJson(*story) : web::storyText(*story);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

std::optional<web::OpticStory> explainStory(const web::PageData& history, const Config* config,
                                            const web::StoryRequest& request, const web::FetchOptions& fetch) {
  if (config == nullptr) return web::buildOpticStory(history, request);
  const TopologyPageData data(history, config->topology, request);
  const ExplainFarEnd far_end(history, *config, fetch);
  return web::buildOpticStory(data, request, &far_end);
}

void addExplainCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "Tell one optic's story: identity, lanes, findings with what to do, history, swaps, far end.");
  cmd->add_option("target", args->target, "Target name (the switch or host)")->required();
  cmd->add_option("port", args->port, "Port name, as the target reports it")->required();
  cmd->add_option("--db", args->db, "History database file (written by the running daemon; default: the config's)");
  cmd->add_option("--config", args->config,
                  "The daemon's config: its storage.path, and the far end from its topology: (fetched from the "
                  "instance that serves it, per instances:)");
  cmd->add_option("--range", args->range, "History to summarise: 1h, 24h or 14d")
      ->check(CLI::IsMember({"1h", "24h", "14d"}));
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] { exit_code = runExplain(*args); });
}

}  // namespace opticsd::cli
