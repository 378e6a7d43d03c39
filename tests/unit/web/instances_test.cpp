#include <gtest/gtest.h>

#include "daemon/exporter/http_server.hpp"
#include "daemon/web/instances_config.hpp"
#include "daemon/web/page_json.hpp"
#include "daemon/web/remote_far_end.hpp"
#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web {
namespace {

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
  test::FakePageData far_data;
  auto far_samples = std::make_shared<std::vector<Sample>>();
  far_samples->push_back(test::opticSample("gpu-node-7", "eth0", 4, -4.0, far_data.now));
  far_data.live["gpu-node-7"] = far_samples;
  const std::string far_json = opticJson(*buildOpticStory(far_data, {"gpu-node-7", "eth0", "1h"}));

  std::string asked;
  HttpServerOptions options;
  options.listen = "127.0.0.1:0";
  auto server = HttpServer::start(options, std::vector<std::string>{"/optic"}, [&](const HttpRequest& r) {
    asked = std::string(r.query);
    HttpAnswer a;
    a.content_type = "application/json";
    a.body = wholeBody({far_json});
    return a;
  });
  ASSERT_TRUE(server) << server.error().message;
  const std::string base = "http://127.0.0.1:" + std::to_string((*server)->port());

  InstancesConfig instances;
  instances.entries.push_back({base, "", {"gpu-node-*"}});
  instances.entries.push_back({"http://127.0.0.1:1", "", {"dead-*"}});
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
  EXPECT_EQ(asked, "target=gpu-node-7&port=eth0&format=json");
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

}  // namespace
}  // namespace opticsd::web
