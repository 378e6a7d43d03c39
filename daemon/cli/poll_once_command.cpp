#include "daemon/cli/poll_once_command.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <iostream>
#include <map>

#include "daemon/config/config.hpp"
#include "daemon/log/log.hpp"
#include "daemon/output/poll_json.hpp"
#include "daemon/pipeline/pipeline.hpp"
#include "daemon/service/target_plans.hpp"
#include "drivers/explain_sink.hpp"
#if OPTICSD_WITH_SNMP
#include "drivers/snmp/explain.hpp"
#endif

namespace opticsd::cli {
namespace {

struct PollOnceArgs {
  std::string config_path;
  std::vector<std::string> targets;
  bool compact = false;
  bool explain = false;
};

// Each target's poll, prepared the daemon's way (the same Pipeline), as JSON:
// what /metrics would serve of it.
class PolledTargets : public PollSink {
 public:
  void onPoll(const PublishedPoll& poll) override { add(poll.target, pollToJson(poll), poll.errors, true); }
  void onPollFailed(const FailedPoll& poll) override { add(poll.target, pollToJson(poll), poll.errors, false); }

  std::map<std::string, nlohmann::json> json;  // by target, so printed sorted
  bool all_ok = true;

 private:
  void add(const std::string& target, nlohmann::json out, const std::vector<std::string>& errors, bool ok) {
    json[target] = std::move(out);
    all_ok = all_ok && ok;
    for (const auto& error : errors) std::fprintf(stderr, "target %s: %s\n", target.c_str(), error.c_str());
  }
};

int pollOnce(const PollOnceArgs& args) {
  auto config = args.config_path.empty() ? loadDemoConfig() : loadConfigFile(args.config_path);
  if (!config) {
    std::fprintf(stderr, "invalid config:\n%s", config.error().format().c_str());
    return 2;
  }
  // Driver logs go to stderr (spdlog's default logger writes to stdout, into the JSON).
  if (!configureLogging(config->log_level)) configureLogging("info");
  if (!args.targets.empty()) {
    // Named targets are polled whatever shard this host would give them.
    for (const auto& name : args.targets) {
      const bool known = std::any_of(config->targets.begin(), config->targets.end(),
                                     [&](const TargetConfig& t) { return t.name == name; });
      if (!known) {
        std::fprintf(stderr, "no target named '%s' in %s\n", name.c_str(), config->source.c_str());
        return 2;
      }
    }
    std::erase_if(config->targets, [&](const TargetConfig& t) {
      return std::find(args.targets.begin(), args.targets.end(), t.name) == args.targets.end();
    });
    config->shard = ShardConfig{};
  }

  // --explain: SNMP drivers trace each row (rule matched, row skipped and why),
  // other drivers (gNMI) each received path, through the drivers' own sink.
  std::map<std::string, std::vector<std::string>> explained;
  if (args.explain) {
    setExplainSink([&](const std::string& target, std::vector<std::string> lines) {
      auto& all = explained[target];
      all.insert(all.end(), lines.begin(), lines.end());
    });
  }
#if OPTICSD_WITH_SNMP
  if (args.explain) {
    snmp::setExplainSink(
        [&](const std::string& target, std::vector<std::string> lines) { explained[target] = std::move(lines); });
  }
#endif
  boost::asio::io_context io;
  std::vector<std::string> errors;
  auto plans = buildTargetPlans(*config, io, errors);
  for (const auto& error : errors) std::fprintf(stderr, "%s\n", error.c_str());
  auto options = schedulerOptions(*config);
  options.single_round = true;
  PolledTargets polled;
  Pipeline pipeline;
  pipeline.addSink(polled);
  pipeline.setMaintenanceMarker([list = config->maintenance](const std::string& target, std::vector<Sample>& samples) {
    list.apply(target, samples);
  });
  std::vector<std::string> names;
  for (const auto& plan : plans) names.push_back(plan.name);
  pipeline.setTargets(names);
  Scheduler scheduler(io, options, [&](PollReport& report) { pipeline.onReport(report); });
  scheduler.onRoundComplete([&] { io.stop(); });
  if (!plans.empty()) {
    scheduler.setTargets(std::move(plans));
    io.run();
  }

  nlohmann::json out{{"config", config->source}, {"targets", nlohmann::json::array()}};
  if (args.explain) setExplainSink(nullptr);
#if OPTICSD_WITH_SNMP
  if (args.explain) snmp::setExplainSink(nullptr);
#endif
  for (auto& [target, json] : polled.json) {
    out["targets"].push_back(std::move(json));
    if (auto it = explained.find(target); it != explained.end()) {
      out["targets"].back()["explain"] = it->second;
      for (const auto& line : it->second) std::fprintf(stderr, "explain %s: %s\n", target.c_str(), line.c_str());
    }
  }
  const bool all_ok = errors.empty() && polled.all_ok;
  std::cout << out.dump(args.compact ? -1 : 2) << "\n";
  return all_ok ? 0 : 1;
}

}  // namespace

void addPollOnceCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "poll-once",
      "Poll every target (or the named ones) once; Samples as JSON on stdout, prepared as /metrics serves them");
  auto args = std::make_shared<PollOnceArgs>();
  command->add_option("-c,--config", args->config_path, "YAML config file (default: the embedded demo)")
      ->check(CLI::ExistingFile);
  command->add_option("-t,--target", args->targets, "only this target (repeatable)");
  command->add_flag("--compact", args->compact, "one line of JSON instead of indented output");
  command->add_flag("--explain", args->explain,
                    "SNMP targets: show per row which profile rule matched and why a row was skipped "
                    "(stderr, and \"explain\" in the JSON)");
  command->callback([args, &exit_code] { exit_code = pollOnce(*args); });
}

}  // namespace opticsd::cli
