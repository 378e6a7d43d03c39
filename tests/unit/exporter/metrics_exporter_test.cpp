#include "daemon/exporter/metrics_exporter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>
#include <set>
#include <thread>

#include "daemon/exporter/exposition_text.hpp"
#include "daemon/exporter/slice_plan.hpp"
#include "exposition.hpp"

namespace opticsd {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ExporterOptions ephemeral() {
  ExporterOptions o;
  o.listen = "127.0.0.1:0";
  return o;
}

std::vector<Sample> oneModule() {
  Sample s;
  s.target = "leaf-1";
  s.port = "Ethernet1";
  Lane lane;
  lane.values.set(LaneMetric::kRxPowerDbm, -3.5);
  s.lanes.push_back(lane);
  return {s};
}

TEST(MetricsExporter, ServesSamplesAndSelfMetricsOverHttp) {
  auto exporter = MetricsExporter::start(ephemeral(), "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  const std::uint16_t port = (*exporter)->port();
  ASSERT_NE(port, 0);
  (*exporter)->samples().replaceTarget("leaf-1", oneModule());
  (*exporter)->self().setTargetUp("leaf-1", "sim", true);

  const auto r = test::httpGet(port, "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.headers, HasSubstr("text/plain"));
  EXPECT_EQ(test::valueOf(r.body, R"(opticsd_lane_rx_power_dbm{target="leaf-1",port="Ethernet1",lane="1"})"), -3.5);
  EXPECT_EQ(test::valueOf(r.body, R"(opticsd_target_up{driver="sim",target="leaf-1"})"), 1);
  EXPECT_EQ(test::valueOf(r.body, R"(opticsd_build_info{version="0.1.0"})"), 1);

  (*exporter)->samples().removeTarget("leaf-1");
  EXPECT_THAT(test::httpGet(port, "/metrics").body, Not(HasSubstr("opticsd_lane_rx_power_dbm")));
}

TEST(MetricsExporter, PortInUseIsAnErrorValue) {
  auto first = MetricsExporter::start(ephemeral(), "0.1.0");
  ASSERT_TRUE(first) << first.error().message;
  ExporterOptions same;
  same.listen = "127.0.0.1:" + std::to_string((*first)->port());
  auto second = MetricsExporter::start(same, "0.1.0");
  ASSERT_FALSE(second);
  EXPECT_THAT(second.error().message, HasSubstr(same.listen));
}

TEST(MetricsExporter, BadOptionsAreErrorValues) {
  ExporterOptions bad;
  bad.listen = "not an address";
  EXPECT_FALSE(MetricsExporter::start(bad, "0.1.0"));
  bad.listen = "";
  EXPECT_FALSE(MetricsExporter::start(bad, "0.1.0"));
  // civetweb's listener syntax (a TLS 's' suffix, a list) is not ours: refused.
  bad.listen = "127.0.0.1:0s";
  auto r = MetricsExporter::start(bad, "0.1.0");
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("127.0.0.1:0s"));
  bad.listen = "127.0.0.1:0,127.0.0.1:0";
  EXPECT_FALSE(MetricsExporter::start(bad, "0.1.0"));
  bad.listen = "127.0.0.1:65536";
  EXPECT_FALSE(MetricsExporter::start(bad, "0.1.0"));
}

class FixedCollectable : public prometheus::Collectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override {
    prometheus::MetricFamily f;
    f.name = "opticsd_test_rule_findings";
    f.help = "test";
    f.type = prometheus::MetricType::Gauge;
    f.metric.emplace_back().gauge.value = 7;
    return {f};
  }
};

TEST(MetricsExporter, RegisteredCollectablesAreServedUntilTheyExpire) {
  auto exporter = MetricsExporter::start(ephemeral(), "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  auto rules = std::make_shared<FixedCollectable>();
  (*exporter)->registerCollectable(rules);
  EXPECT_EQ(test::valueOf(test::httpGet((*exporter)->port(), "/metrics").body, "opticsd_test_rule_findings"), 7);
  rules.reset();
  EXPECT_THAT(test::httpGet((*exporter)->port(), "/metrics").body, Not(HasSubstr("opticsd_test_rule_findings")));
}

TEST(MetricsExporter, BasicAuth) {
  ExporterOptions o = ephemeral();
  o.basic_auth = ExporterOptions::BasicAuth{"prometheus", "s3cret"};
  auto exporter = MetricsExporter::start(o, "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  const std::uint16_t port = (*exporter)->port();
  EXPECT_EQ(test::httpGet(port, "/metrics").status, 401);
  // base64("prometheus:wrong") and base64("prometheus:s3cret")
  EXPECT_EQ(test::httpGet(port, "/metrics", "Authorization: Basic cHJvbWV0aGV1czp3cm9uZw==\r\n").status, 401);
  const auto ok = test::httpGet(port, "/metrics", "Authorization: Basic cHJvbWV0aGV1czpzM2NyZXQ=\r\n");
  EXPECT_EQ(ok.status, 200);
  EXPECT_THAT(ok.body, HasSubstr("opticsd_build_info"));
}

// A fleet of `targets` targets x `ports` modules of 8 lanes, with values in
// several families (module, lane, FEC, info) so the scrape crosses targets
// within each family.
std::vector<Sample> switchModules(const std::string& target, int ports, double offset) {
  std::vector<Sample> out;
  for (int p = 1; p <= ports; ++p) {
    Sample s;
    s.target = target;
    s.port = "Ethernet" + std::to_string(p);
    s.mutableIdentity().vendor = "ACME";
    s.module.set(ModuleMetric::kTemperatureCelsius, 40 + offset + p);
    s.fec.corrected_blocks_total = 1000 + p + static_cast<std::uint64_t>(offset);
    for (std::uint16_t l = 1; l <= 8; ++l) {
      Lane lane;
      lane.number = l;
      lane.values.set(LaneMetric::kRxPowerDbm, -1.25 - offset - l);
      lane.values.set(LaneMetric::kTxPowerDbm, 0.5 + offset + l);
      s.lanes.push_back(lane);
    }
    out.push_back(std::move(s));
  }
  return out;
}

// Everything a body source gives, and the largest part of one next() call.
std::pair<std::string, std::size_t> drainWithLargestCall(HttpBodySource& source) {
  std::string text;
  std::size_t largest = 0;
  for (bool more = true; more;) {
    HttpBody parts;
    more = source.next(parts);
    std::size_t call = 0;
    for (const auto& p : parts) call += p.size();
    largest = std::max(largest, call);
    appendJoined(parts, text);
  }
  return {text, largest};
}

TEST(MetricsExporter, AWholeScrapeIsTheFleetsTextComposedOfPerTargetRendersInSmallParts) {
  auto exporter = MetricsExporter::start(ephemeral(), "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  for (const char* name : {"spine-2", "leaf-1", "leaf-3"}) {
    (*exporter)->samples().replaceTarget(name, switchModules(name, 40, 0));
  }
  const auto [text, largest] = drainWithLargestCall(*(*exporter)->scrape());
  // Byte for byte what one render of the whole snapshot gives (family by
  // family across the targets), then the self-metrics.
  std::string expected;
  appendSampleExposition((*exporter)->samples().snapshot(), expected, SeriesSelection{nullptr, true, false});
  ASSERT_GT(expected.size(), 3 * 16 * 1024u);
  EXPECT_EQ(text.substr(0, expected.size()), expected);
  EXPECT_THAT(text.substr(expected.size()), HasSubstr("opticsd_build_info{version=\"0.1.0\"} 1"));
  EXPECT_LE(largest, 16 * 1024u);  // what one connection holds at a time
  // A second scrape of the same polls gives the same bytes (from the shared renders).
  EXPECT_EQ((*exporter)->render(), text);
}

TEST(MetricsExporter, AWholeScrapeOfAFleetOfSeveralSlicesIsStillTheFleetsText) {
  auto exporter = MetricsExporter::start(ephemeral(), "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  // 100 switches of 64 ports: 102,400 lane series, more than one slice holds.
  for (int t = 1; t <= 100; ++t) {
    const std::string name = "sw-" + std::to_string(t);
    (*exporter)->samples().replaceTarget(name, switchModules(name, 64, t));
  }
  const SeriesSelection values{nullptr, true, false};
  const auto snapshot = (*exporter)->samples().snapshot();
  const std::vector<std::size_t> counts = sampleFamilySeriesCounts(snapshot, values);
  std::size_t total = 0;
  for (const std::size_t n : counts) total += n;
  ASSERT_GT(planSlices(counts, sliceSeriesBound(total)).size(), 2u);

  std::string expected;
  appendSampleExposition(snapshot, expected, values);
  const std::string text = (*exporter)->render();
  ASSERT_GT(text.size(), expected.size());
  EXPECT_TRUE(text.compare(0, expected.size(), expected) == 0);  // not printed whole: megabytes
  EXPECT_THAT(text.substr(expected.size()), HasSubstr("opticsd_build_info{version=\"0.1.0\"} 1"));
}

TEST(MetricsExporter, AScrapeUnderWayPinsNoPollAndStillHasEverySeriesOnce) {
  auto exporter = MetricsExporter::start(ephemeral(), "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  LatestSamples& samples = (*exporter)->samples();
  samples.replaceTarget("leaf-1", switchModules("leaf-1", 40, 0));
  samples.replaceTarget("leaf-2", switchModules("leaf-2", 40, 0));
  std::weak_ptr<const std::vector<Sample>> first_poll = samples.snapshot().front().samples;

  auto scrape = (*exporter)->scrape();
  HttpBody parts;
  ASSERT_TRUE(scrape->next(parts));
  // Both targets are polled again while the scrape is being read.
  samples.replaceTarget("leaf-1", switchModules("leaf-1", 40, 100));
  samples.replaceTarget("leaf-2", switchModules("leaf-2", 40, 100));
  EXPECT_TRUE(first_poll.expired());  // the slow reader does not keep the old poll alive

  std::string text;
  appendJoined(parts, text);
  text += drainWithLargestCall(*scrape).first;
  std::set<std::string> module_series;
  for (const auto& [name, value] : test::parseSeries(text)) {
    if (name.find("port=\"") == std::string::npos) continue;  // self-metrics
    EXPECT_TRUE(module_series.insert(name).second) << "twice: " << name;
  }
  std::string fresh;
  appendSampleExposition(samples.snapshot(), fresh, SeriesSelection{nullptr, true, false});
  EXPECT_EQ(module_series.size(), test::parseSeries(fresh).size());
  // The families not sent yet when the targets were polled again come from the new poll.
  EXPECT_EQ(test::valueOf(text, R"(opticsd_fec_corrected_blocks_total{target="leaf-2",port="Ethernet40"})"), 1140);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_tx_power_dbm{target="leaf-2",port="Ethernet40",lane="8"})"), 108.5);
}

TEST(MetricsExporter, SelfMetricsCountTheConnectionsEvictedToMakeRoom) {
  ExporterOptions o = ephemeral();
  o.max_connections = 2;
  auto exporter = MetricsExporter::start(o, "0.1.0");
  ASSERT_TRUE(exporter) << exporter.error().message;
  const std::uint16_t port = (*exporter)->port();
  EXPECT_THAT((*exporter)->render(), HasSubstr("\nopticsd_http_connections_evicted_total 0\n"));
  boost::asio::io_context io;
  std::vector<boost::asio::ip::tcp::socket> silent;
  for (int i = 0; i < 2; ++i) {
    silent.emplace_back(io).connect({boost::asio::ip::make_address("127.0.0.1"), port});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // admitted before the scrape
  }
  const auto r = test::httpGet(port, "/metrics/self");
  EXPECT_EQ(test::valueOf(r.body, "opticsd_http_connections_evicted_total"), 1);
  EXPECT_EQ(test::valueOf(r.body, "opticsd_http_connections_refused_total"), 0);
}

}  // namespace
}  // namespace opticsd
