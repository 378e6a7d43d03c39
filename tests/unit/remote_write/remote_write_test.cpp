// Remote write: the WriteRequest a poll becomes, the config, and the
// bounded queue when the receiver is unreachable. (Real receivers:
// tests/integration/16-remote-write.sh.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <prometheus/histogram.h>
#include <snappy.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "daemon/exporter/exposition_text.hpp"
#include "daemon/remote_write/remote_writer.hpp"
#include "daemon/remote_write/write_request_wire.hpp"
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
    s.mutableThresholds(LaneMetric::kRxPowerDbm) = Thresholds{3.0, 2.0, -10.0, -13.0};
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

// The request is written straight as wire bytes (write_request_wire.hpp): they
// must be exactly what the generated code makes of the same request, zero
// values, negative timestamps, long and empty labels included.
TEST(WriteRequestWire, BytesAreWhatTheGeneratedSerializerWrites) {
  WriteRequestWire wire;
  const std::string long_value(300, 'x');  // a length past one varint byte
  const std::vector<WireLabel> labels{{"__name__", "m"}, {"a", long_value}, {"b", "1"}};
  wire.addSeries(labels, -3.5, 1'700'000'000'002);
  wire.addSeries(labels, 0.0, 0);    // proto3 leaves both fields out
  wire.addSeries(labels, -0.0, -1);  // -0 is not 0 bit for bit; a negative int64 is a 10-byte varint
  wire.addSeries({}, 1e-300, 1);
  EXPECT_EQ(wire.series(), 4u);

  remote_write::WriteRequest expected;
  auto add = [&](std::span<const WireLabel> ls, double value, std::int64_t ts) {
    auto* series = expected.add_timeseries();
    for (const auto& [name, v] : ls) {
      auto* l = series->add_labels();
      l->set_name(std::string(name));
      l->set_value(std::string(v));
    }
    auto* sample = series->add_samples();
    sample->set_value(value);
    sample->set_timestamp(ts);
  };
  add(labels, -3.5, 1'700'000'000'002);
  add(labels, 0.0, 0);
  add(labels, -0.0, -1);
  add({}, 1e-300, 1);
  EXPECT_EQ(wire.bytes(), expected.SerializeAsString());

  remote_write::WriteRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(wire.bytes()));
  ASSERT_EQ(parsed.timeseries_size(), 4);
  EXPECT_EQ(parsed.timeseries(0).labels(1).value(), long_value);
  EXPECT_EQ(parsed.timeseries(2).samples(0).timestamp(), -1);
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

  (void)readConfig("{url: 'ftp://vm-1/api/v1/write'}", issues);
  ASSERT_EQ(issues.size(), 1u) << issues[0].format() << issues.back().format();
  EXPECT_THAT(issues[0].format(), HasSubstr("https://"));
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

// A file in a fresh directory, removed with it.
class TempFiles {
 public:
  TempFiles() : dir_(std::filesystem::temp_directory_path() / ("opticsd-rw-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~TempFiles() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::string dir() const { return dir_.string(); }

 private:
  std::filesystem::path dir_;
};

std::string joined(const std::vector<ConfigIssue>& issues) {
  std::string out;
  for (const auto& i : issues) out += i.format() + "\n";
  return out;
}

TEST(RemoteWriteConfig, HttpsWithTlsFilesCheckedWhenTheConfigIsRead) {
  std::vector<ConfigIssue> issues;
  const auto c = readConfig("{url: 'https://vm-1/api/v1/write'}", issues);
  EXPECT_TRUE(issues.empty()) << joined(issues);
  EXPECT_TRUE(c.tls);
  EXPECT_EQ(c.port, "443");

  TempFiles files;
  const std::string not_pem = files.write("ca.pem", "not a certificate\n");
  (void)readConfig("{url: 'https://vm-1/', tls_ca_file: '" + not_pem + "'}", issues);
  ASSERT_EQ(issues.size(), 1u) << joined(issues);
  EXPECT_THAT(issues[0].format(), HasSubstr("tls_ca_file " + not_pem));
  issues.clear();
  (void)readConfig("{url: 'https://vm-1/', tls_ca_file: /nonexistent/ca.pem}", issues);
  EXPECT_THAT(joined(issues), HasSubstr("/nonexistent/ca.pem"));
  issues.clear();
  (void)readConfig("{url: 'https://vm-1/', tls_cert_file: /x/c.pem}", issues);
  EXPECT_THAT(joined(issues), HasSubstr("go together"));
  issues.clear();
  (void)readConfig("{url: 'http://vm-1/', tls_ca_file: /x/ca.pem}", issues);
  EXPECT_THAT(joined(issues), HasSubstr("https://"));
}

TEST(RemoteWriteConfig, SecretsComeFromFilesOrCredentialsAndNeverIntoErrors) {
  TempFiles files;
  const std::string password = files.write("password", "s3cret-pw\n");
  std::vector<ConfigIssue> issues;
  auto c = readConfig("{url: 'http://vm-1/', basic_auth_user: opticsd, basic_auth_password_file: '" + password + "'}",
                      issues);
  EXPECT_TRUE(issues.empty()) << joined(issues);
  EXPECT_EQ(c.basic_auth_user, "opticsd");
  EXPECT_EQ(c.basic_auth_password, "s3cret-pw");

  files.write("token", "t0ken\n");
  ::setenv("CREDENTIALS_DIRECTORY", files.dir().c_str(), 1);
  c = readConfig("{url: 'http://vm-1/', bearer_token_credential: token}", issues);
  ::unsetenv("CREDENTIALS_DIRECTORY");
  EXPECT_TRUE(issues.empty()) << joined(issues);
  EXPECT_EQ(c.bearer_token, "t0ken");

  (void)readConfig("{url: 'http://vm-1/', basic_auth_user: u}", issues);
  EXPECT_THAT(joined(issues), HasSubstr("go together"));
  issues.clear();
  (void)readConfig("{url: 'http://vm-1/', basic_auth_password_file: /nonexistent/pw}", issues);
  EXPECT_THAT(joined(issues), HasSubstr("/nonexistent/pw"));
  issues.clear();
  (void)readConfig("{url: 'http://vm-1/', basic_auth_user: u, basic_auth_password_file: '" + password +
                       "', bearer_token_file: '" + password + "'}",
                   issues);
  EXPECT_THAT(joined(issues), HasSubstr("not both"));
  EXPECT_THAT(joined(issues), ::testing::Not(HasSubstr("s3cret")));
  issues.clear();
  (void)readConfig("{url: 'http://u:s3cret@vm-1/'}", issues);
  EXPECT_THAT(joined(issues), HasSubstr("not allowed"));
  EXPECT_THAT(joined(issues), ::testing::Not(HasSubstr("s3cret")));
  issues.clear();
  (void)readConfig("{url: 'http://vm-1/', basic_auth_password: inline}", issues);
  EXPECT_FALSE(issues.empty());  // never inline in the config file
}

// A receiver on 127.0.0.1 that answers `status` to every request and keeps
// what it saw. Serves until `requests` requests came.
class LocalReceiver {
 public:
  explicit LocalReceiver(unsigned status, int requests)
      : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this, status, requests] {
      namespace http = boost::beast::http;
      boost::asio::ip::tcp::socket socket(io_);
      acceptor_.accept(socket);
      boost::beast::flat_buffer buffer;
      for (int i = 0; i < requests; ++i) {
        http::request<http::string_body> request;
        boost::beast::error_code ec;
        http::read(socket, buffer, request, ec);
        if (ec) return;
        {
          std::lock_guard lock(mutex_);
          authorizations_.push_back(std::string(request[http::field::authorization]));
          bodies_.push_back(request.body());
        }
        http::response<http::string_body> response{static_cast<http::status>(status), 11};
        response.prepare_payload();
        http::write(socket, response, ec);
      }
    });
  }
  ~LocalReceiver() {
    acceptor_.close();
    thread_.join();
  }
  std::string port() const { return std::to_string(acceptor_.local_endpoint().port()); }
  std::vector<std::string> authorizations() const {
    std::lock_guard lock(mutex_);
    return authorizations_;
  }
  std::vector<std::string> bodies() const {
    std::lock_guard lock(mutex_);
    return bodies_;
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  mutable std::mutex mutex_;
  std::vector<std::string> authorizations_, bodies_;
  std::thread thread_;
};

RemoteWriteConfig localConfig(const std::string& port) {
  RemoteWriteConfig config;
  config.host = "127.0.0.1";
  config.port = port;
  config.path = "/api/v1/write";
  config.max_backoff = std::chrono::milliseconds(200);
  config.timeout = std::chrono::milliseconds(500);
  config.connections = 1;  // the receiver takes one connection
  return config;
}

void waitForSent(const RemoteWriter& writer, double samples) {
  for (int i = 0; i < 250 && writer.stats().sent < samples; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

TEST(RemoteWriter, SendsBasicAuthOrABearerToken) {
  for (const bool basic : {true, false}) {
    LocalReceiver receiver(204, 2);
    prometheus::Registry registry;
    RemoteWriteConfig config = localConfig(receiver.port());
    if (basic) {
      config.basic_auth_user = "opticsd";
      config.basic_auth_password = "pa:ss";
    } else {
      config.bearer_token = "t0ken";
    }
    RemoteWriter writer(config, registry);
    const std::uint64_t self = encodeFamilies(registry.Collect(), {}).samples;
    const ExportPolicy policy;
    writer.push("leaf-1", poll());  // its own metrics first, then the poll
    waitForSent(writer, double(self + encodeWriteRequest("leaf-1", poll(), &policy, {}).samples));
    const auto seen = receiver.authorizations();
    ASSERT_EQ(seen.size(), 2u);
    // base64("opticsd:pa:ss")
    EXPECT_EQ(seen[0], basic ? "Basic b3B0aWNzZDpwYTpzcw==" : "Bearer t0ken");
    EXPECT_EQ(seen[1], seen[0]);
  }
}

TEST(RemoteWriter, AReceiverRefusingTheCredentialsIsRetriedNotDropped) {
  LocalReceiver receiver(401, 3);
  prometheus::Registry registry;
  RemoteWriter writer(localConfig(receiver.port()), registry);
  writer.push("leaf-1", poll());
  for (int i = 0; i < 250 && receiver.bodies().size() < 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GE(receiver.bodies().size(), 3u);
  EXPECT_GT(writer.stats().retried, 0);
  EXPECT_EQ(writer.stats().dropped, 0);
  EXPECT_EQ(writer.stats().sent, 0);
}

// A receiver that accepts every connection and never answers (a hung
// VictoriaMetrics, a proxy that lost its upstream): it keeps the sockets open.
class SilentReceiver {
 public:
  SilentReceiver() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] {
      while (true) {
        boost::asio::ip::tcp::socket socket(io_);
        boost::system::error_code ec;
        acceptor_.accept(socket, ec);
        if (ec || stopping_) return;
        std::lock_guard lock(mutex_);
        held_.push_back(std::move(socket));
      }
    });
  }
  ~SilentReceiver() {
    // Closing the acceptor does not wake a thread blocked in accept(): a
    // last connection of our own does.
    stopping_ = true;
    boost::asio::ip::tcp::socket wake(io_);
    boost::system::error_code ignored;
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  std::string port() const { return std::to_string(acceptor_.local_endpoint().port()); }
  std::size_t connections() const {
    std::lock_guard lock(mutex_);
    return held_.size();
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stopping_ = false;
  mutable std::mutex mutex_;
  std::vector<boost::asio::ip::tcp::socket> held_;
  std::thread thread_;
};

TEST(RemoteWriter, AReceiverThatNeverAnswersCostsOneTimeoutPerTryNotTheSender) {
  SilentReceiver receiver;
  prometheus::Registry registry;
  {
    RemoteWriter writer(localConfig(receiver.port()), registry);  // 500 ms timeout
    writer.push("leaf-1", poll());
    // A blocking read would hold the sender on its first connection forever:
    // no retry, no second connection, and the destructor below would not return.
    // Each timeout closes the connection, so a retry opens another.
    for (int i = 0; i < 250 && receiver.connections() < 3; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_GE(receiver.connections(), 3u);
    EXPECT_GT(writer.stats().retried, 0);
    EXPECT_EQ(writer.stats().sent, 0);
  }
}

TEST(WriteRequestEncoder, TheTargetsRulesSeriesAndOpticsdsOwnMetricsGoOutToo) {
  prometheus::MetricFamily score{"opticsd_straggler_suspect_score", "h", prometheus::MetricType::Gauge, {}};
  prometheus::ClientMetric m;
  m.label = {{"target", "leaf-1"}, {"port", "Ethernet1"}, {"empty", ""}};
  m.gauge.value = 0.75;
  score.metric.push_back(m);
  const ExportPolicy policy;
  const auto plain = encodeWriteRequest("leaf-1", poll(), &policy, {});
  const auto with = encodeWriteRequest("leaf-1", poll(), &policy, {{"cluster", "a"}}, {score});
  EXPECT_EQ(with.samples, plain.samples + 1);
  const auto request = decode(with.body);
  const auto& last = request.timeseries(request.timeseries_size() - 1);
  std::vector<std::string> labels;
  for (const auto& l : last.labels()) labels.push_back(l.name() + "=" + l.value());
  EXPECT_THAT(labels, ::testing::ElementsAre("__name__=opticsd_straggler_suspect_score", "cluster=a", "port=Ethernet1",
                                             "target=leaf-1"));
  EXPECT_EQ(last.samples(0).value(), 0.75);
  EXPECT_EQ(last.samples(0).timestamp(), 1'700'000'000'002);

  // A histogram goes out as its text exposition's series: buckets, _sum, _count.
  prometheus::Registry registry;
  auto& h = prometheus::BuildHistogram()
                .Name("opticsd_poll_duration_seconds")
                .Register(registry)
                .Add({}, prometheus::Histogram::BucketBoundaries{1, 5});
  h.Observe(2);
  const auto self = decode(encodeFamilies(registry.Collect(), {}).body);
  std::map<std::string, double> values;
  for (const auto& ts : self.timeseries()) {
    std::string key;
    for (const auto& l : ts.labels())
      key += l.name() == "__name__" ? l.value() : "{" + l.name() + "=" + l.value() + "}";
    values[key] = ts.samples(0).value();
  }
  EXPECT_THAT(values, ::testing::ElementsAre(::testing::Pair("opticsd_poll_duration_seconds_bucket{le=+Inf}", 1),
                                             ::testing::Pair("opticsd_poll_duration_seconds_bucket{le=1}", 0),
                                             ::testing::Pair("opticsd_poll_duration_seconds_bucket{le=5}", 1),
                                             ::testing::Pair("opticsd_poll_duration_seconds_count", 1),
                                             ::testing::Pair("opticsd_poll_duration_seconds_sum", 2)));
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
  const std::uint64_t self = encodeFamilies(registry.Collect(), {}).samples;  // sent with the first push
  constexpr int kPushes = 200;
  for (int i = 0; i < kPushes; ++i) writer.push("leaf-1", samples);
  const auto stats = writer.stats();
  EXPECT_LE(stats.queued, 1000);
  EXPECT_GT(stats.dropped, 0);
  EXPECT_EQ(stats.sent, 0);
  // Every pushed sample is queued or dropped: none lost without a count.
  EXPECT_EQ(stats.queued + stats.dropped, double(per_push * kPushes + self));
  for (int i = 0; i < 100 && writer.stats().retried == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(writer.stats().retried, 0);
}

}  // namespace
}  // namespace opticsd
