#include "daemon/exporter/metrics_exporter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace opticsd
