// The demo's first poll as /metrics shows it, byte for byte, against a file
// in the tree (tests/fixtures/metrics/demo-first-poll.prom): any change to the
// exposition (a family, a label, a value, the order) shows up as a diff of
// that file in review.
//
// The run is the daemon's wiring without its clocks: the embedded demo config,
// its sim drivers polled once at a fixed instant, the pipeline (its one
// preparation) and the daemon's sinks (PollSinks: rules engine, exporter). Poll durations and the config-load time are
// fixed values; there is no history store (its counters follow the writer thread's timing), so no opticsd_store_* or
// findings-store series.
//
// After an intended change, regenerate the file (one command) and review its diff:
//   OPTICSD_UPDATE_GOLDEN=1 build/tests/unit/service/opticsd_service_test --gtest_filter='DemoMetricsGolden.*'

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/config/config.hpp"
#include "daemon/exporter/metrics_exporter.hpp"
#include "daemon/pipeline/pipeline.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "daemon/service/poll_sinks.hpp"
#include "daemon/service/target_plans.hpp"

namespace opticsd {
namespace {

// 2027-01-15 08:00:00 UTC: any fixed instant. The sim's epoch is its first
// poll, but its room temperature and job load follow the time of day, so the
// instant is part of what the file pins.
constexpr std::int64_t kFirstPollMs = 1'800'000'000'000;
constexpr double kConfigLoadSeconds = 1'800'000'000;
constexpr double kPollSeconds = 0.002;
// Not OPTICSD_VERSION: a release must not move the golden file.
constexpr const char* kVersion = "golden";

const std::filesystem::path kGoldenPath =
    std::filesystem::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/metrics/demo-first-poll.prom";

// /metrics after every demo target has been polled once at `first_poll_ms`,
// the results handed to the pipeline in config order (the self-metrics list a
// target's series in the order targets were first seen).
std::string demoFirstPollMetrics(std::int64_t first_poll_ms) {
  auto config = loadDemoConfig();
  if (!config) {
    ADD_FAILURE() << config.error().format();
    return {};
  }
  ExporterOptions listen;
  listen.listen = "127.0.0.1:0";
  auto exporter = MetricsExporter::start(listen, kVersion);
  if (!exporter) {
    ADD_FAILURE() << exporter.error().message;
    return {};
  }
  (*exporter)->self().recordConfigLoad(true, kConfigLoadSeconds);
  (*exporter)->setExportPolicy(config->export_policy);

  RulesEngine rules(config->rules, config->topology);
  (*exporter)->registerCollectable(rules.view());
  // The daemon's sinks, in the daemon's order, without history or remote write.
  PollSinks sinks(**exporter, &rules, nullptr, nullptr);
  Pipeline pipeline;
  sinks.attach(pipeline);

  boost::asio::io_context io;
  std::vector<std::string> errors;
  auto plans = buildTargetPlans(*config, io, errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(plans.size(), config->targets.size());
  std::vector<std::string> names;
  for (const auto& plan : plans) names.push_back(plan.name);
  pipeline.setTargets(names);

  std::vector<PollReport> reports(plans.size());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    reports[i].target = plans[i].name;
    reports[i].driver = plans[i].driver_name;
    reports[i].started_ms = first_poll_ms;
    reports[i].seconds = kPollSeconds;
    plans[i].driver->poll(first_poll_ms, [&report = reports[i]](PollResult result) {
      report.ok = !result.samples.empty();
      report.result = std::move(result);
    });
  }
  io.run();
  for (auto& report : reports) pipeline.onReport(report);
  return (*exporter)->render();
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `diff -u` of the golden file and what was rendered, cut to its first lines.
std::string unifiedDiff(const std::filesystem::path& expected, const std::string& actual) {
  const auto actual_path =
      std::filesystem::temp_directory_path() / ("opticsd-demo-first-poll-" + std::to_string(::getpid()) + ".prom");
  std::ofstream(actual_path, std::ios::binary) << actual;
  std::string diff;
  const std::string command = "diff -u '" + expected.string() + "' '" + actual_path.string() + "' | head -n 80";
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) diff.append(buffer, n);
    ::pclose(pipe);
  }
  std::filesystem::remove(actual_path);
  return diff;
}

TEST(DemoMetricsGolden, FirstPollMatchesTheFileInTheTree) {
  const std::string actual = demoFirstPollMetrics(kFirstPollMs);
  ASSERT_FALSE(actual.empty());
  if (std::getenv("OPTICSD_UPDATE_GOLDEN") != nullptr) {
    std::filesystem::create_directories(kGoldenPath.parent_path());
    std::ofstream(kGoldenPath, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << kGoldenPath << ": review its diff before committing";
  }
  ASSERT_TRUE(std::filesystem::exists(kGoldenPath)) << kGoldenPath << " is missing";
  const std::string expected = readFile(kGoldenPath);
  EXPECT_TRUE(actual == expected) << "/metrics of the demo's first poll differs from " << kGoldenPath
                                  << " (- file in the tree, + rendered now). If the change is intended:\n"
                                  << "  OPTICSD_UPDATE_GOLDEN=1 build/tests/unit/service/opticsd_service_test "
                                     "--gtest_filter='DemoMetricsGolden.*'\nand review the file's diff.\n"
                                  << unifiedDiff(kGoldenPath, actual);
}

}  // namespace
}  // namespace opticsd
