#include "daemon/web/web_pages.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web {
namespace {

std::string bodyOf(HttpAnswer& answer) {
  std::string out;
  HttpBody parts;
  bool more = true;
  while (more) {
    parts.clear();
    more = answer.body->next(parts);
    for (const auto& p : parts) out += p;
  }
  return out;
}

std::shared_ptr<test::FakePageData> data() {
  auto d = std::make_shared<test::FakePageData>();
  auto samples = std::make_shared<std::vector<Sample>>();
  samples->push_back(test::opticSample("leaf-1", "Ethernet1/1", 4, -3.0, d->now));
  d->live["leaf-1"] = samples;
  d->target_states = {{"leaf-1", "snmp", d->now, false, 1, true}};
  return d;
}

HttpAnswer get(const WebPages& pages, std::string_view path, std::string_view query, std::string_view accept = "") {
  HttpRequest r;
  r.path = path;
  r.query = query;
  r.accept = accept;
  return pages.route(r);
}

TEST(WebPages, HtmlForBrowsersJsonWhenAskedWithASecurityPolicy) {
  WebPages pages(data());
  auto html = get(pages, "/", "", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
  ASSERT_EQ(html.status, 200u);
  EXPECT_EQ(html.content_type, "text/html; charset=utf-8");
  EXPECT_NE(html.headers.find("Content-Security-Policy: default-src 'none';"), std::string::npos);
  EXPECT_NE(bodyOf(html).find("<h1>Fleet</h1>"), std::string::npos);

  auto json = get(pages, "/optic", "target=leaf-1&port=Ethernet1%2F1", "application/json");
  ASSERT_EQ(json.status, 200u);
  EXPECT_EQ(json.content_type, "application/json; charset=utf-8");
  const auto doc = nlohmann::json::parse(bodyOf(json));
  EXPECT_EQ(doc["port"], "Ethernet1/1");
  EXPECT_EQ(doc["lanes"].size(), 4u);
  EXPECT_DOUBLE_EQ(doc["lanes"][0]["rx_power_dbm"]["value"].get<double>(), -3.0);
  EXPECT_EQ(doc["lanes"][0]["rx_power_dbm"]["state"], "ok");
  EXPECT_FALSE(doc["lanes"][0].contains("pre_fec_ber"));  // absent, not 0
  EXPECT_FALSE(doc.contains("history_error"));

  auto via_query = get(pages, "/triage", "host=gpu-node-1&format=json");
  ASSERT_EQ(via_query.status, 200u);
  EXPECT_EQ(nlohmann::json::parse(bodyOf(via_query))["query"]["hosts"][0], "gpu-node-1");
}

TEST(WebPages, BadAndUnknownRequests) {
  WebPages pages(data());
  EXPECT_EQ(get(pages, "/optic", "target=leaf-1").status, 400u);
  EXPECT_EQ(get(pages, "/optic", "target=leaf-1&port=x&range=3h").status, 400u);
  EXPECT_EQ(get(pages, "/optic", "target=%G1&port=x").status, 400u);
  EXPECT_EQ(get(pages, "/optic", "target=leaf-1&port=Ethernet9").status, 404u);
  EXPECT_EQ(get(pages, "/nope", "").status, 404u);
}

TEST(WebPages, WantsJson) {
  EXPECT_TRUE(wantsJson("application/json", ""));
  EXPECT_FALSE(wantsJson("text/html,application/json;q=0.9", ""));
  EXPECT_TRUE(wantsJson("", "a=1&format=json"));
  EXPECT_FALSE(wantsJson("application/json", "format=html"));
}

}  // namespace
}  // namespace opticsd::web
