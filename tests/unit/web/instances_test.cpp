#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "daemon/exporter/http_server.hpp"
#include "daemon/web/instances_config.hpp"
#include "daemon/web/page_json.hpp"
#include "daemon/web/remote_far_end.hpp"
#include "tests/unit/web/fake_page_data.hpp"
#include "tests/unit/web/other_instance.hpp"

namespace opticsd::web {
namespace {

InstanceEntry entry(const std::string& url, const std::string& pattern) {
  InstanceEntry e;
  e.url = url;
  e.targets = {pattern};
  return e;
}

InstancesConfig parse(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  return parseInstances(YAML::Load(yaml), "test.yaml", issues);
}

TEST(InstancesConfig, UrlsAndTemplatesByPattern) {
  std::vector<ConfigIssue> issues;
  const auto c = parse(R"(
- {url: "https://pollers-a.example.net:9464/", targets: ["leaf-*", "spine-?"]}
- {url_template: "http://{target}.hosts.example.net:9464", targets: gpu-node-*}
)",
                       issues);
  ASSERT_TRUE(issues.empty()) << issues[0].format();
  EXPECT_EQ(*c.baseUrlFor("leaf-12"), "https://pollers-a.example.net:9464");
  EXPECT_EQ(*c.baseUrlFor("spine-1"), "https://pollers-a.example.net:9464");
  EXPECT_FALSE(c.baseUrlFor("spine-12"));
  EXPECT_EQ(*c.baseUrlFor("gpu-node-7"), "http://gpu-node-7.hosts.example.net:9464");
  EXPECT_FALSE(c.baseUrlFor("core-1"));
}

TEST(InstancesConfig, ProblemsAreReported) {
  std::vector<ConfigIssue> issues;
  parse(R"(
- {url: "ftp://x", targets: [a]}
- {url_template: "http://static.example", targets: [b]}
- {url: "http://x", url_template: "http://{target}", targets: [c]}
- {url: "http://x"}
- {url: "http://x", targets: [d], colour: red}
)",
        issues);
  ASSERT_EQ(issues.size(), 5u);
  EXPECT_NE(issues[0].format().find("instances[0].url"), std::string::npos);
  EXPECT_NE(issues[1].format().find("{target}"), std::string::npos);
  EXPECT_NE(issues[2].format().find("either url or url_template"), std::string::npos);
  EXPECT_NE(issues[3].format().find("targets"), std::string::npos);
  EXPECT_NE(issues[4].format().find("colour"), std::string::npos);
}

// The far end in another instance: a real HTTP server answering the far
// optic's JSON as opticsd does, and one that is not there.
TEST(RemoteFarEnd, FetchesTheFarEndsValuesFromTheOtherInstance) {
  test::OtherInstance other(test::gpuNodeJson(-4.0));
  const std::string& base = other.base;

  InstancesConfig instances;
  instances.entries.push_back(entry(base, "gpu-node-*"));
  instances.entries.push_back(entry("http://127.0.0.1:1", "dead-*"));
  RemoteFarEnd remote(instances);

  test::FakePageData near_data;
  auto near_samples = std::make_shared<std::vector<Sample>>();
  near_samples->push_back(test::opticSample("leaf-1", "Ethernet7", 4, -9.0, near_data.now));
  near_data.live["leaf-1"] = near_samples;
  auto view = std::make_shared<TargetRulesView>();
  TargetRulesView::PortRow row;
  row.port = "Ethernet7";
  row.endpoint = std::make_unique<const Endpoint>(Endpoint{"gpu-node-7", "", "", "", "gpu-node-7", "eth0", true});
  view->ports.push_back(std::move(row));
  near_data.views["leaf-1"] = view;

  auto story = buildOpticStory(near_data, {"leaf-1", "Ethernet7", "1h"}, &remote);
  ASSERT_TRUE(story && story->far_end);
  const auto& far = *story->far_end;
  EXPECT_TRUE(far.reachable) << far.error;
  EXPECT_EQ(far.page_url, base + "/optic?target=gpu-node-7&port=eth0");
  EXPECT_EQ(other.asked, "target=gpu-node-7&port=eth0&format=json");
  ASSERT_EQ(far.lanes.size(), 4u);
  EXPECT_DOUBLE_EQ(*far.lanes[0].their_tx_dbm, 1.0);
  EXPECT_DOUBLE_EQ(*far.lanes[0].their_rx_dbm, -4.0);
  EXPECT_DOUBLE_EQ(*far.lanes[0].our_rx_dbm, -9.0);

  // An instance that does not answer: the page says so, without values.
  FarEnd dead;
  dead.target = "dead-1";
  dead.port = "eth0";
  remote.resolve(dead, *story);
  EXPECT_FALSE(dead.reachable);
  EXPECT_NE(dead.error.find("could not be fetched"), std::string::npos);
  FarEnd unknown;
  unknown.target = "core-1";
  remote.resolve(unknown, *story);
  EXPECT_TRUE(unknown.page_url.empty());
  EXPECT_NE(unknown.error.find("no entry of instances"), std::string::npos);
}

TEST(RemoteFarEnd, RefusesADocumentThatIsNotAnOptic) {
  FarEnd far;
  OpticStory near;
  std::string error;
  EXPECT_FALSE(fillFromOpticJson(far, near, "<html>", error));
  EXPECT_FALSE(fillFromOpticJson(far, near, R"({"lanes": 3})", error));
  EXPECT_TRUE(fillFromOpticJson(far, near, R"({"lanes": [{"lane": "x"}], "score": 0.5})", error));
  EXPECT_DOUBLE_EQ(*far.their_score, 0.5);
}

OpticStory nearStory() {
  OpticStory near;
  near.lanes.resize(1);
  near.lanes[0].lane = 1;
  near.lanes[0].rx_power_dbm.value = -9.0;
  return near;
}

FarEnd resolveGpuNode7(const RemoteFarEnd& remote) {
  FarEnd far;
  far.target = "gpu-node-7";
  far.port = "eth0";
  remote.resolve(far, nearStory());
  return far;
}

std::filesystem::path writeFile(const std::string& name, const std::string& text) {
  const auto path =
      std::filesystem::temp_directory_path() / ("opticsd-instances-test-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path;
}

// An instance that accepts the connection and never answers must not hold
// the page (or explain): the fetch gives up at its deadline and says so.
TEST(HttpFetch, ASilentInstanceIsBoundedByTheTimeout) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  boost::asio::ip::tcp::socket accepted(io);
  acceptor.async_accept(accepted, [](const boost::system::error_code&) {});
  std::thread accepting([&io] { io.run(); });
  FetchOptions options;
  options.timeout = std::chrono::milliseconds(200);
  auto body = httpGet("http://127.0.0.1:" + std::to_string(acceptor.local_endpoint().port()) + "/optic", options);
  accepting.join();
  ASSERT_FALSE(body);
  EXPECT_NE(body.error().message.find("no answer within 200 ms"), std::string::npos) << body.error().message;
}

TEST(InstancesConfig, CredentialsComeFromAFileAndAreNeverShown) {
  const auto password = writeFile("password", "s3cret-Pa55\n");
  std::vector<ConfigIssue> issues;
  const auto c = parse(
      "- {url: \"http://pollers-b:9464\", targets: [\"spine-*\"], basic_auth_user: opticsd, "
      "basic_auth_password_file: " +
          password.string() + "}\n",
      issues);
  ASSERT_TRUE(issues.empty()) << issues[0].format();
  const auto match = c.find("spine-2");
  ASSERT_TRUE(match);
  EXPECT_EQ(match->entry->basic_auth_user, "opticsd");
  EXPECT_EQ(match->entry->basic_auth_password, "s3cret-Pa55");

  parse(
      "- {url: \"http://x\", targets: [a], basic_auth_user: opticsd}\n"
      "- {url: \"http://x\", targets: [b], basic_auth_user: u, basic_auth_password_file: /nonexistent/pw}\n"
      "- {url: \"http://x\", targets: [c], tls_ca_file: " +
          password.string() +
          "}\n"
          "- {url: \"https://x\", targets: [d], tls_ca_file: " +
          password.string() + "}\n",
      issues);
  ASSERT_EQ(issues.size(), 4u);
  EXPECT_NE(issues[0].format().find("go together"), std::string::npos) << issues[0].format();
  EXPECT_NE(issues[1].format().find("instances[1].basic_auth_password_file"), std::string::npos);
  EXPECT_NE(issues[2].format().find("needs an https://"), std::string::npos) << issues[2].format();
  EXPECT_NE(issues[3].format().find("PEM CA"), std::string::npos) << issues[3].format();
  for (const auto& issue : issues) EXPECT_EQ(issue.format().find("s3cret"), std::string::npos) << issue.format();
  std::filesystem::remove(password);
}

// The other instance's listener asks for basic auth: without credentials,
// and with wrong ones, the far end says 401 and why; with the right ones it
// shows the values.
TEST(RemoteFarEnd, BasicAuthTowardsTheOtherInstance) {
  HttpServerOptions options;
  options.basic_auth = HttpServerOptions::BasicAuth{"opticsd", "right-password"};
  test::OtherInstance far_instance(test::gpuNodeJson(-4.0), options);
  InstancesConfig instances;
  instances.entries.push_back(entry(far_instance.base, "gpu-node-*"));
  RemoteFarEnd remote(instances);

  const auto none = resolveGpuNode7(remote);
  EXPECT_FALSE(none.reachable);
  EXPECT_NE(none.error.find("401 Unauthorized: it wants basic auth credentials and none are configured"),
            std::string::npos)
      << none.error;

  instances.entries[0].basic_auth_user = "opticsd";
  instances.entries[0].basic_auth_password = "wrong-password";
  remote.setInstances(instances);  // also drops the cached 401
  const auto wrong = resolveGpuNode7(remote);
  EXPECT_FALSE(wrong.reachable);
  EXPECT_NE(wrong.error.find("401 Unauthorized: it refused the configured basic auth credentials"), std::string::npos)
      << wrong.error;
  EXPECT_EQ(wrong.error.find("wrong-password"), std::string::npos);

  instances.entries[0].basic_auth_password = "right-password";
  remote.setInstances(instances);
  const auto right = resolveGpuNode7(remote);
  EXPECT_TRUE(right.reachable) << right.error;
  ASSERT_EQ(right.lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*right.lanes[0].their_tx_dbm, 1.0);
}

// An instance served over TLS with a private CA: its certificate is checked
// against the configured CA file; without it, the system's CAs refuse it.
TEST(RemoteFarEnd, TlsWithTheInstancesCaFile) {
  const std::string tls_dir = std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/tls/";
  HttpServerOptions options;
  options.tls = HttpServerOptions::Tls{tls_dir + "localhost.crt", tls_dir + "localhost.key"};
  test::OtherInstance far_instance(test::gpuNodeJson(-4.0), options, "https");
  InstancesConfig instances;
  instances.entries.push_back(entry(far_instance.base, "gpu-node-*"));
  RemoteFarEnd remote(instances);
  const auto untrusted = resolveGpuNode7(remote);
  EXPECT_FALSE(untrusted.reachable);
  EXPECT_NE(untrusted.error.find("TLS handshake failed"), std::string::npos) << untrusted.error;

  instances.entries[0].tls_ca_file = tls_dir + "localhost.crt";
  remote.setInstances(instances);
  const auto trusted = resolveGpuNode7(remote);
  EXPECT_TRUE(trusted.reachable) << trusted.error;
}

// A reload's list replaces the old one: a far end no longer listed is said so.
TEST(RemoteFarEnd, ReloadedInstancesReplaceTheOldList) {
  test::OtherInstance far_instance(test::gpuNodeJson(-4.0));
  InstancesConfig instances;
  instances.entries.push_back(entry(far_instance.base, "gpu-node-*"));
  RemoteFarEnd remote(InstancesConfig{});
  EXPECT_NE(resolveGpuNode7(remote).error.find("no instance is configured"), std::string::npos);
  remote.setInstances(instances);
  EXPECT_TRUE(resolveGpuNode7(remote).reachable);
  instances.entries[0].targets = {"leaf-*"};
  remote.setInstances(instances);
  const auto gone = resolveGpuNode7(remote);
  EXPECT_FALSE(gone.reachable);
  EXPECT_NE(gone.error.find("no entry of instances"), std::string::npos) << gone.error;
}

}  // namespace
}  // namespace opticsd::web
