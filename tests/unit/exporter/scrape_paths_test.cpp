// The paths of /metrics at fleet scale: per-target scrapes, thresholds, self
// metrics, HTTP service discovery and gzip, over real HTTP.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <nlohmann/json.hpp>

#include "daemon/exporter/metrics_exporter.hpp"
#include "daemon/exporter/target_collectable.hpp"
#include "exposition.hpp"

namespace opticsd {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<Sample> modules(const std::string& target, int count) {
  std::vector<Sample> out;
  for (int p = 1; p <= count; ++p) {
    Sample s;
    s.target = target;
    s.port = "Ethernet" + std::to_string(p);
    s.module.set(ModuleMetric::kTemperatureCelsius, 40 + p);
    s.mutableThresholds(LaneMetric::kRxPowerDbm) = Thresholds{3.0, 2.0, -10.0, -13.0};
    Lane lane;
    lane.values.set(LaneMetric::kRxPowerDbm, -3.5);
    s.lanes.push_back(lane);
    out.push_back(s);
  }
  return out;
}

std::string gunzip(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 32), Z_OK);
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[16384];
  // Members back to back are one gzip body: go on after each stream end.
  while (z.avail_in > 0) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    const int rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_STREAM_END) {
      inflateReset(&z);
    } else if (rc != Z_OK) {
      ADD_FAILURE() << "inflate: " << rc;
      break;
    }
  }
  inflateEnd(&z);
  return out;
}

class FakeRules : public prometheus::Collectable, public TargetCollectable {
 public:
  std::vector<prometheus::MetricFamily> Collect() const override { return {family("leaf-1"), family("leaf-2")}; }
  std::vector<prometheus::MetricFamily> collectTarget(std::string_view target) const override {
    return {family(std::string(target))};
  }

 private:
  static prometheus::MetricFamily family(const std::string& target) {
    prometheus::ClientMetric m;
    m.label = {{"target", target}, {"port", "Ethernet1"}};
    m.gauge.value = 0.25;
    return {"opticsd_straggler_suspect_score", "test", prometheus::MetricType::Gauge, {m}};
  }
};

class ScrapePaths : public ::testing::Test {
 protected:
  void SetUp() override {
    ExporterOptions options;
    options.listen = "127.0.0.1:0";
    auto started = MetricsExporter::start(options, "0.1.0");
    ASSERT_TRUE(started) << started.error().message;
    exporter_ = std::move(*started);
    exporter_->samples().replaceTarget("leaf-1", modules("leaf-1", 3));
    exporter_->samples().replaceTarget("leaf-2", modules("leaf-2", 2));
    exporter_->self().setTargetUp("leaf-1", "sim", true);
    exporter_->registerCollectable(rules_);
    exporter_->setServedTargets({{"leaf-1", "sim"}, {"leaf-2", "snmp"}});
  }
  std::uint16_t port() const { return exporter_->port(); }

  std::shared_ptr<FakeRules> rules_ = std::make_shared<FakeRules>();
  std::unique_ptr<MetricsExporter> exporter_;
};

TEST_F(ScrapePaths, PerTargetScrapeHasThatTargetsSeriesAndRulesOnly) {
  const auto r = test::httpGet(port(), "/metrics?target=leaf-2");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(test::valueOf(r.body, R"(opticsd_module_temperature_celsius{target="leaf-2",port="Ethernet2"})"), 42);
  EXPECT_EQ(test::valueOf(r.body, R"(opticsd_straggler_suspect_score{target="leaf-2",port="Ethernet1"})"), 0.25);
  EXPECT_THAT(r.body, Not(HasSubstr(R"(target="leaf-1")")));
  EXPECT_THAT(r.body, Not(HasSubstr("opticsd_build_info")));                  // on /metrics/self
  EXPECT_THAT(r.body, Not(HasSubstr("threshold")));                           // on /metrics/thresholds
  EXPECT_EQ(test::httpGet(port(), "/metrics?target=leaf%2D2").body, r.body);  // percent-encoded name
}

TEST_F(ScrapePaths, UnknownEmptyOrBrokenTargetsAreRefused) {
  EXPECT_EQ(test::httpGet(port(), "/metrics?target=leaf-9").status, 404);
  EXPECT_EQ(test::httpGet(port(), "/metrics?target=").status, 400);
  EXPECT_EQ(test::httpGet(port(), "/metrics?target=%G0").status, 400);
  EXPECT_EQ(test::httpGet(port(), "/metrics/thresholds?target=leaf-9").status, 404);
  EXPECT_EQ(test::httpGet(port(), "/metrics/other").status, 404);
}

TEST_F(ScrapePaths, AServedTargetNotPolledYetIsEmptyNotRefused) {
  exporter_->setServedTargets({{"leaf-1", "sim"}, {"leaf-2", "snmp"}, {"leaf-3", "sim"}});
  const auto r = test::httpGet(port(), "/metrics?target=leaf-3");
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.body, Not(HasSubstr("opticsd_module")));
  EXPECT_EQ(gunzip(test::httpGet(port(), "/metrics?target=leaf-3", "Accept-Encoding: gzip\r\n").body), r.body);
  EXPECT_EQ(test::httpGet(port(), "/metrics/thresholds?target=leaf-3").status, 200);
  EXPECT_EQ(test::httpGet(port(), "/metrics?target=leaf-4").status, 404);
}

TEST_F(ScrapePaths, WholeInstanceScrapeStaysForSmallFleets) {
  const auto r = test::httpGet(port(), "/metrics");
  ASSERT_EQ(r.status, 200);
  EXPECT_THAT(r.body, HasSubstr(R"(target="leaf-1")"));
  EXPECT_THAT(r.body, HasSubstr(R"(target="leaf-2")"));
  EXPECT_THAT(r.body, HasSubstr("opticsd_build_info"));
  EXPECT_THAT(r.body, Not(HasSubstr("threshold")));
}

TEST_F(ScrapePaths, ThresholdsAndSelfMetricsHaveTheirOwnPaths) {
  const auto thresholds = test::httpGet(port(), "/metrics/thresholds");
  ASSERT_EQ(thresholds.status, 200);
  EXPECT_EQ(test::valueOf(thresholds.body,
                          R"(opticsd_lane_threshold_rx_power_dbm{target="leaf-2",port="Ethernet1",level="low_alarm"})"),
            -13);
  EXPECT_THAT(thresholds.body, Not(HasSubstr("opticsd_lane_rx_power_dbm{")));
  const auto one = test::httpGet(port(), "/metrics/thresholds?target=leaf-1");
  EXPECT_THAT(one.body, HasSubstr(R"(target="leaf-1")"));
  EXPECT_THAT(one.body, Not(HasSubstr(R"(target="leaf-2")")));

  const auto self = test::httpGet(port(), "/metrics/self");
  ASSERT_EQ(self.status, 200);
  EXPECT_EQ(test::valueOf(self.body, R"(opticsd_target_up{driver="sim",target="leaf-1"})"), 1);
  EXPECT_THAT(self.body, Not(HasSubstr("opticsd_straggler_suspect_score")));  // per target
  EXPECT_THAT(self.body, Not(HasSubstr("opticsd_module_temperature_celsius")));
}

// A target whose polls fail keeps its last values, marked, on both the
// per-target and the whole-instance scrape; /metrics/self stays its own health only.
TEST_F(ScrapePaths, StaleMarkingIsBesideTheValuesOnTargetAndWholeScrapes) {
  exporter_->freshness().polledOk("leaf-1", "sim", 1'700'000'000'000);
  exporter_->freshness().setStale("leaf-1", "sim", true);
  exporter_->freshness().polledOk("leaf-2", "snmp", 1'700'000'030'500);
  const std::string stale = R"(opticsd_target_stale{driver="sim",target="leaf-1"})";
  const std::string last = R"(opticsd_target_last_success_timestamp_seconds{driver="sim",target="leaf-1"})";
  const auto one = test::httpGet(port(), "/metrics?target=leaf-1");
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(test::valueOf(one.body, stale), 1);
  EXPECT_EQ(test::valueOf(one.body, last), 1'700'000'000);
  EXPECT_EQ(test::valueOf(one.body, R"(opticsd_module_temperature_celsius{target="leaf-1",port="Ethernet1"})"), 41);
  EXPECT_THAT(one.body, Not(HasSubstr(R"(target="leaf-2")")));
  EXPECT_EQ(gunzip(test::httpGet(port(), "/metrics?target=leaf-1", "Accept-Encoding: gzip\r\n").body), one.body);

  const auto whole = test::httpGet(port(), "/metrics");
  EXPECT_EQ(test::valueOf(whole.body, stale), 1);
  EXPECT_EQ(test::valueOf(whole.body, R"(opticsd_target_stale{driver="snmp",target="leaf-2"})"), 0);
  EXPECT_EQ(
      test::valueOf(whole.body, R"(opticsd_target_last_success_timestamp_seconds{driver="snmp",target="leaf-2"})"),
      1'700'000'030.5);
  EXPECT_THAT(test::httpGet(port(), "/metrics/self").body, Not(HasSubstr("opticsd_target_stale")));

  exporter_->freshness().removeTarget("leaf-1");
  EXPECT_FALSE(test::valueOf(test::httpGet(port(), "/metrics").body, stale));
}

TEST_F(ScrapePaths, ServiceDiscoveryListsEveryServedTargetAtTheAddressAsked) {
  const auto r =
      test::parseResponse(test::httpExchange(port(), "GET /sd HTTP/1.0\r\nHost: opticsd-7.example:9464\r\n\r\n"));
  ASSERT_EQ(r.status, 200);
  EXPECT_THAT(r.headers, HasSubstr("application/json"));
  const auto groups = nlohmann::json::parse(r.body);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0]["targets"], nlohmann::json::array({"opticsd-7.example:9464"}));
  EXPECT_EQ(groups[0]["labels"]["__param_target"], "leaf-1");
  EXPECT_EQ(groups[1]["labels"]["__meta_opticsd_driver"], "snmp");
}

TEST_F(ScrapePaths, GzipWhenAskedAndTheSameTextAfterInflating) {
  for (const std::string path : {"/metrics", "/metrics?target=leaf-1", "/metrics/thresholds", "/metrics/self"}) {
    const auto plain = test::httpGet(port(), path);
    const auto packed = test::httpGet(port(), path, "Accept-Encoding: gzip\r\n");
    ASSERT_EQ(packed.status, 200) << path;
    EXPECT_THAT(packed.headers, HasSubstr("Content-Encoding: gzip")) << path;
    EXPECT_THAT(plain.headers, Not(HasSubstr("Content-Encoding"))) << path;
    EXPECT_EQ(gunzip(packed.body), plain.body) << path;
  }
  const auto refused = test::httpGet(port(), "/metrics", "Accept-Encoding: gzip;q=0, identity\r\n");
  EXPECT_THAT(refused.headers, Not(HasSubstr("Content-Encoding")));
}

TEST_F(ScrapePaths, ExportPolicyAppliesFromTheNextScrape) {
  ExportPolicy policy;
  policy.setTarget("leaf-1", ExportDetail::kFull, {"Ethernet1"});
  Sample s = modules("leaf-1", 1)[0];
  s.lanes[0].status.rx_los = false;
  exporter_->samples().replaceTarget("leaf-1", {s});
  EXPECT_THAT(test::httpGet(port(), "/metrics?target=leaf-1").body, Not(HasSubstr("opticsd_lane_rx_los")));
  exporter_->setExportPolicy(policy);
  EXPECT_EQ(test::valueOf(test::httpGet(port(), "/metrics?target=leaf-1").body,
                          R"(opticsd_lane_rx_los{target="leaf-1",port="Ethernet1",lane="1"})"),
            0);
}

}  // namespace
}  // namespace opticsd
