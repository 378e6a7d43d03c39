#include "daemon/cli/history_command.hpp"

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "daemon/cli/history_database.hpp"
#include "daemon/config/config.hpp"
#include "daemon/exporter/sample_series.hpp"
#include "daemon/output/time_text.hpp"
#include "daemon/store/history_format.hpp"
#include "daemon/store/history_query.hpp"

namespace opticsd::cli {
namespace {

struct HistoryArgs {
  std::string db;
  std::string config;
  std::string target;
  std::string port;
  std::optional<int> lane;
  std::string metric;
  std::string since;
  std::string until;
  std::string format = "table";
};

// The store's column for a metric named as /metrics (and so Grafana) shows
// it: opticsd_lane_tx_bias_amperes is tx_bias_milliamperes. Other names are
// the store's own and pass through.
std::string storeMetricName(const std::string& name) {
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (name == "opticsd_module_" + exporter_detail::moduleKeys()[i].key) return std::string(kModuleMetricInfo[i].key);
  }
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (name == "opticsd_lane_" + exporter_detail::laneKeys()[i].key) return std::string(kLaneMetricInfo[i].key);
  }
  return name;
}

int runHistory(const HistoryArgs& args) {
  auto error = [](const std::string& message) {
    std::fprintf(stderr, "opticsd history: %s\n", message.c_str());
    return 1;
  };
  auto format = parseHistoryFormat(args.format);
  if (!format) return error(format.error().message);

  auto database = historyDatabasePath(args.db, args.config);
  if (!database) return error(database.error().message);
  const std::string& path = *database;

  HistoryFilter filter;
  filter.target = args.target;
  filter.port = args.port;
  filter.lane = args.lane;
  if (!args.metric.empty()) filter.metric = storeMetricName(args.metric);
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  if (!args.since.empty()) {
    auto t = parseTimeBound(args.since, now);
    if (!t) return error("--since: " + t.error().message);
    filter.since_ms = *t;
  }
  if (!args.until.empty()) {
    auto t = parseTimeBound(args.until, now);
    if (!t) return error("--until: " + t.error().message);
    filter.until_ms = *t;
  }
  if (filter.since_ms && filter.until_ms && *filter.since_ms > *filter.until_ms) {
    return error("--since is later than --until");
  }

  auto query = HistoryQuery::open(path);
  if (!query) return error(query.error().message);
  auto result = query->query(filter);
  if (!result) return error(result.error().message);
  const std::string text = formatHistory(*result, *format);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

void addHistoryCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<HistoryArgs>();
  CLI::App* cmd = app.add_subcommand("history", "Print the stored history of one module (module and lane samples).");
  auto* db = cmd->add_option("--db", args->db, "History database file");
  cmd->add_option("--config", args->config, "Read the database path from this config file's storage.path")
      ->excludes(db);
  cmd->add_option("--target", args->target, "Target name as configured")->required();
  cmd->add_option("--port", args->port, "Port name, e.g. Ethernet12")->required();
  cmd->add_option("--lane", args->lane, "Only this lane (1-based); leaves out module-level rows")
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--metric", args->metric,
                  "Only this metric: a store column (rx_power_dbm, tx_bias_milliamperes) or its exported name "
                  "(opticsd_lane_tx_bias_amperes)");
  cmd->add_option("--since", args->since, "Start (inclusive): RFC 3339 time or a duration back from now, e.g. 1h");
  cmd->add_option("--until", args->until, "End (inclusive): RFC 3339 time or a duration back from now");
  cmd->add_option("--format", args->format, "table, csv or json")->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->footer("Without --db or --config, reads history.db in the default state directory.");
  cmd->callback([args, &exit_code] { exit_code = runHistory(*args); });
}

}  // namespace opticsd::cli
