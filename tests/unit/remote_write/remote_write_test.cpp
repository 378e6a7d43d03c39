// Remote write: the WriteRequest a poll becomes, the config, and the
// bounded queue when the receiver is unreachable. (Real receivers:
// tests/integration/16-remote-write.sh.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <snappy.h>

#include <thread>

#include "daemon/exporter/exposition_text.hpp"
#include "daemon/remote_write/remote_writer.hpp"
#include "schemas/remote-write/remote_write.pb.h"

namespace opticsd {
namespace {

using ::testing::HasSubstr;

std::vector<Sample> poll() {
  std::vector<Sample> out;
  for (int p = 1; p <= 2; ++p) {
    Sample s;
    s.target = "leaf-1";
    s.port = "Ethernet" + std::to_string(p);
    s.timestamp_ms = 1'700'000'000'000 + p;
    s.module.set(ModuleMetric::kTemperatureCelsius, 40);
    s.lane_thresholds[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = Thresholds{3.0, 2.0, -10.0, -13.0};
    for (std::uint16_t n = 1; n <= 4; ++n) {
      Lane lane;
      lane.number = n;
      lane.values.set(LaneMetric::kRxPowerDbm, -3.5);
      lane.values.set(LaneMetric::kEsnrDecibels, 20);  // full level only
      s.lanes.push_back(lane);
    }
    out.push_back(s);
  }
  return out;
}

remote_write::WriteRequest decode(const std::string& body) {
  std::string raw;
  EXPECT_TRUE(snappy::Uncompress(body.data(), body.size(), &raw));
  remote_write::WriteRequest request;
  EXPECT_TRUE(request.ParseFromString(raw));
  return request;
}

TEST(WriteRequestEncoder, TheExportedSeriesWithSortedLabelsOneTimestampAndExternalLabels) {
  const ExportPolicy policy;  // default level
  const EncodedWrite write = encodeWriteRequest("leaf-1", poll(), &policy, {{"cluster", "a"}, {"port", "ignored"}});
  const auto request = decode(write.body);
  ASSERT_EQ(static_cast<std::uint64_t>(request.timeseries_size()), write.samples);

  // The same series as /metrics at that level plus /metrics/thresholds.
  std::string text;
  const LatestSamples::Snapshot snapshot{{"leaf-1", std::make_shared<const std::vector<Sample>>(poll())}};
  appendSampleExposition(snapshot, text, SeriesSelection{&policy, true, true});
  std::size_t lines = 0;
  for (std::size_t i = 0; (i = text.find('\n', i)) != std::string::npos; ++i) lines++;
  std::size_t comments = 0;
  for (std::size_t i = 0; (i = text.find("# ", i)) != std::string::npos; ++i) comments++;
  EXPECT_EQ(write.samples, lines - comments);

  bool saw_lane = false;
  for (const auto& ts : request.timeseries()) {
    ASSERT_EQ(ts.samples_size(), 1);
    EXPECT_EQ(ts.samples(0).timestamp(), 1'700'000'000'002);  // the poll's latest read
    std::vector<std::string> names;
    std::map<std::string, std::string> labels;
    for (const auto& l : ts.labels()) {
      names.push_back(l.name());
      labels[l.name()] = l.value();
      EXPECT_FALSE(l.value().empty());
    }
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
    EXPECT_EQ(labels["cluster"], "a");
    EXPECT_THAT(labels["port"], HasSubstr("Ethernet"));  // the series' own label wins
    EXPECT_NE(labels["__name__"], "opticsd_lane_esnr_decibels");
    if (labels["__name__"] == "opticsd_lane_rx_power_dbm" && labels["lane"] == "4") {
      saw_lane = true;
      EXPECT_EQ(ts.samples(0).value(), -3.5);
    }
  }
  EXPECT_TRUE(saw_lane);
}

RemoteWriteConfig readConfig(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  return readRemoteWriteConfig(OptionReader(YAML::Load(yaml), "test.yaml", "remote_write", issues));
}

TEST(RemoteWriteConfig, ParsesTheUrlAndRefusesWhatItCannotSend) {
  std::vector<ConfigIssue> issues;
  const auto c = readConfig("{url: 'http://vm-1:8428/api/v1/write', external_labels: {cluster: a}}", issues);
  EXPECT_TRUE(issues.empty());
  EXPECT_EQ(c.host, "vm-1");
  EXPECT_EQ(c.port, "8428");
  EXPECT_EQ(c.path, "/api/v1/write");
  EXPECT_EQ(c.external_labels.at("cluster"), "a");

  (void)readConfig("{url: 'https://vm-1/api/v1/write'}", issues);
  ASSERT_EQ(issues.size(), 1u) << issues[0].format() << issues.back().format();
  EXPECT_THAT(issues[0].format(), HasSubstr("plain HTTP"));
  issues.clear();
  (void)readConfig("{url: 'http://vm-1:x/'}", issues);
  EXPECT_EQ(issues.size(), 1u);
  issues.clear();
  (void)readConfig("{url: 'http://vm-1/', external_labels: {__bad: x, 'a-b': y}}", issues);
  EXPECT_EQ(issues.size(), 2u);
  issues.clear();
  (void)readConfig("{external_labels: {a: b}}", issues);
  EXPECT_EQ(issues.size(), 1u);  // url is required
}

TEST(RemoteWriter, AnUnreachableReceiverKeepsTheQueueBoundedAndCountsDrops) {
  prometheus::Registry registry;
  RemoteWriteConfig config;
  config.host = "127.0.0.1";
  config.port = "1";  // nothing listens on port 1
  config.path = "/api/v1/write";
  config.queue_samples = 1000;
  config.max_backoff = std::chrono::milliseconds(200);
  RemoteWriter writer(config, registry);
  const auto samples = poll();
  const ExportPolicy policy;
  const std::uint64_t per_push = encodeWriteRequest("leaf-1", samples, &policy, {}).samples;
  constexpr int kPushes = 200;
  for (int i = 0; i < kPushes; ++i) writer.push("leaf-1", samples);
  const auto stats = writer.stats();
  EXPECT_LE(stats.queued, 1000);
  EXPECT_GT(stats.dropped, 0);
  EXPECT_EQ(stats.sent, 0);
  // Every pushed sample is queued or dropped: none lost without a count.
  EXPECT_EQ(stats.queued + stats.dropped, double(per_push * kPushes));
  for (int i = 0; i < 100 && writer.stats().retried == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(writer.stats().retried, 0);
}

}  // namespace
}  // namespace opticsd
