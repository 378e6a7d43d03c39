// `promtool check metrics` (Prometheus's own linter) on what we render: the
// hand-built module fleet and a real HTTP scrape of the exporter.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "daemon/exporter/metrics_exporter.hpp"
#include "daemon/exporter/sample_collector.hpp"
#include "exposition.hpp"

namespace opticsd {
namespace {

bool havePromtool() { return std::system("command -v promtool >/dev/null 2>&1") == 0; }

struct PromtoolResult {
  int exit_code = -1;
  std::string output;
};

PromtoolResult promtoolCheck(const std::string& exposition) {
  const auto path =
      std::filesystem::temp_directory_path() / ("opticsd-promtool-" + std::to_string(::getpid()) + ".prom");
  std::ofstream(path, std::ios::binary) << exposition;
  PromtoolResult r;
  const std::string cmd = "promtool check metrics < '" + path.string() + "' 2>&1";
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
    const int status = ::pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::filesystem::remove(path);
  return r;
}

// Every kind of series the collector can produce, including hostile identity bytes.
std::vector<Sample> fullModules() {
  std::vector<Sample> out;
  for (int p = 1; p <= 3; ++p) {
    Sample s;
    s.port = "Ethernet" + std::to_string(p);
    s.module_present = p != 3;
    s.mutableIdentity().family = ModuleFamily::kCmis;
    s.mutableIdentity().vendor = "V\xFF\x01ndor\"\\";
    s.mutableIdentity().serial = std::string(300, '\xE9');
    for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
      s.module.set(static_cast<ModuleMetric>(i), 1e-9 * (i + 1));
      s.shared_thresholds.mutate().module[i] = Thresholds{4, 3, 2, 1};
      s.module_flags[i] = AlarmFlags{true, false, true, false};
    }
    for (std::uint16_t n = 1; n <= 8; ++n) {
      Lane lane;
      lane.number = n;
      for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
        lane.values.set(static_cast<LaneMetric>(i), -40.0 + i);
        lane.flags[i] = AlarmFlags{};
      }
      lane.status = LaneStatus{false, false, true, false, false, true, false, 4};
      s.lanes.push_back(lane);
      s.fec.lane_corrected_bits_total.push_back(n * 10u);
    }
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) s.shared_thresholds.mutate().lane[i] = Thresholds{1, 2, 3, 4};
    s.fec.corrected_blocks_total = 1;
    s.fec.uncorrectable_blocks_total = 2;
    s.fec.corrected_bits_total = 3;
    s.link = LinkState{true, 4, 400, 8, 53.125, std::nullopt, LinkDownReason{3, 1}};
    // The FEC histogram, its tail and margin, a link down with its reason and
    // a module in maintenance: every family issue 30 added, through promtool.
    s.fec.histogram = {{0, 0, 100, {50, 50}}, {1, 3, 5, {2, 3}}, {4, 15, std::nullopt, {0, 1}}};
    s.fec.correctable_symbols = 15;
    s.fec.tail.symbols = 15;
    s.fec.tail.lane_symbols = {std::uint16_t{3}, std::uint16_t{15}};
    if (out.size() % 2 == 1) {
      s.link.up = false;
      s.link.down_reason = LinkDownReason{3, 4};
      s.maintenance = Maintenance{"firmware_flashing"};
    }
    out.push_back(s);
  }
  return out;
}

TEST(Promtool, RenderedSamplesPassCheckMetrics) {
  if (!havePromtool()) GTEST_SKIP() << "promtool not installed";
  LatestSamples cache;
  cache.replaceTarget("leaf-1", fullModules());
  cache.replaceTarget("spine\xFF", fullModules());
  const std::string text = test::serialize(SampleCollector::render(cache.snapshot()));
  ASSERT_GT(test::parseSeries(text).size(), 500u);
  const PromtoolResult r = promtoolCheck(text);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << r.output;
}

TEST(Promtool, RealScrapeIncludingSelfMetricsPassesCheckMetrics) {
  if (!havePromtool()) GTEST_SKIP() << "promtool not installed";
  ExporterOptions o;
  o.listen = "127.0.0.1:0";
  auto exporter = MetricsExporter::start(o, "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  (*exporter)->samples().replaceTarget("leaf-1", fullModules());
  SelfMetrics& self = (*exporter)->self();
  self.observePoll("leaf-1", "sim", 0.5, true, 3);
  self.setTargetUp("leaf-1", "sim", true);
  self.setStoreStats(
      {.written_total = 10, .dropped_total = 0, .write_errors_total = 0, .queue_length = 1, .lag_seconds = 0.1});
  self.recordConfigLoad(true, 1700000000);
  const auto scrape = test::httpGet((*exporter)->port(), "/metrics");
  ASSERT_EQ(scrape.status, 200);
  const PromtoolResult r = promtoolCheck(scrape.body);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace opticsd
