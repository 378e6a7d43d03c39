#include "daemon/web/optic_page.hpp"

#include <gtest/gtest.h>

#include "daemon/web/svg_plot.hpp"
#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web {
namespace {

using test::count;

test::FakePageData oneOptic(const std::string& vendor, const std::string& port) {
  test::FakePageData d;
  auto samples = std::make_shared<std::vector<Sample>>();
  samples->push_back(test::opticSample("leaf-1", port, 8, -10.6, d.now));
  samples->back().mutableIdentity().vendor = vendor;
  d.live["leaf-1"] = samples;
  d.histories[{"leaf-1", port}] = test::opticHistory("leaf-1", port, 8, d.now, 90);
  Finding f;
  f.target = "leaf-1";
  f.port = port;
  f.lane = 3;
  f.rule = "lane_failure";
  f.severity = Severity::kCritical;
  f.start_ms = d.now - 20 * 60'000;
  f.detail = "lane 3 dark";
  d.stored_findings.push_back(f);
  return d;
}

TEST(OpticPage, OnePlotPerLaneWithThresholdsAndTheFindingOnTheTimeAxis) {
  const auto d = oneOptic("ACME", "Ethernet20");
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet20", "24h"});
  ASSERT_TRUE(story);
  const std::string page = renderOpticPage(*story);
  EXPECT_EQ(count(page, "<svg class=\"lane-plot\""), 8u);
  EXPECT_GE(count(page, "<line class=\"threshold warning\""), 8u);
  // The lane-3 finding is drawn on lane 3's plot (two panels) and the module's, not on the other lanes'.
  EXPECT_EQ(count(page, "<rect class=\"finding critical\""), 2u + 1u);
  EXPECT_NE(page.find("Next: Reseat the module, then replace it"), std::string::npos);
  EXPECT_NE(page.find("<desc id=\"lane-1-d\">"), std::string::npos);  // text alternative
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(count(page, "http://"), count(page, "xmlns=\"http://www.w3.org/2000/svg\""));  // no other absolute URL
}

TEST(OpticPage, TheTopActionIsTheMostSevereActiveFindingsNotTheNewest) {
  auto d = oneOptic("ACME", "Ethernet20");  // lane_failure, critical, 20 minutes old
  Finding newer = d.stored_findings.front();
  newer.rule = "pre_fec_ber";
  newer.severity = Severity::kWarning;
  newer.start_ms = d.now - 60'000;
  d.stored_findings.push_back(newer);
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet20", "24h"});
  ASSERT_TRUE(story);
  const std::string page = renderOpticPage(*story);
  const auto top = page.find("id=\"top-action\"");
  ASSERT_NE(top, std::string::npos);
  const std::string action = page.substr(top, page.find("</div>", top) - top);
  EXPECT_NE(action.find("for lane_failure"), std::string::npos) << action;
}

TEST(OpticPage, DeviceStringsAreText) {
  const std::string port = "<svg onload=alert(1)>\"'";
  const auto d = oneOptic("<script>alert(1)</script>\x1b[2J", port);
  auto story = buildOpticStory(d, {"leaf-1", port, "1h"});
  ASSERT_TRUE(story);
  const std::string page = renderOpticPage(*story);
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<svg onload"), std::string::npos);
  EXPECT_EQ(page.find('\x1b'), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;\\x1B[2J"), std::string::npos);
  EXPECT_NE(page.find("&lt;svg onload=alert(1)&gt;&quot;&#39;"), std::string::npos);
  // Links carry the port percent-encoded.
  EXPECT_NE(page.find("port=%3Csvg%20onload%3Dalert%281%29%3E%22%27"), std::string::npos);
}

TEST(OpticPage, HistoryUnavailableIsSaidAndLiveValuesShown) {
  auto d = oneOptic("ACME", "Ethernet20");
  d.history_error = "no history database at /var/lib/opticsd/history.db";
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet20", "24h"});
  ASSERT_TRUE(story);
  const std::string page = renderOpticPage(*story);
  EXPECT_NE(page.find("History is unavailable (no history database at /var/lib/opticsd/history.db)"),
            std::string::npos);
  EXPECT_EQ(count(page, "<svg class=\"lane-plot\""), 0u);
  EXPECT_EQ(count(page, "<tr data-lane="), 8u);
  EXPECT_NE(page.find("-10.60 dBm"), std::string::npos);
}

TEST(SvgPlot, LogAxisAndTextAlternative) {
  std::vector<TimePoint> ber{{0, 1e-8}, {50, 1e-6}, {100, 1e-5}};
  PlotSpec spec;
  spec.id = "p";
  spec.title = "BER";
  spec.from_ms = 0;
  spec.to_ms = 100;
  spec.panels.push_back({"Pre-FEC BER", "", true, {{"BER", "ber", &ber}}, {{2.4e-4, "limit", "threshold alarm"}}});
  spec.spans.push_back({40, 60, "pre_fec_ber <critical>", "finding critical"});
  std::string out;
  renderPlot(out, spec);
  EXPECT_NE(out.find("from 1.0e-08 to 1.0e-05, last 1.0e-05"), std::string::npos);
  EXPECT_NE(out.find("<line class=\"threshold alarm\""), std::string::npos);
  EXPECT_NE(out.find("pre_fec_ber &lt;critical&gt;"), std::string::npos);
  EXPECT_NE(out.find("<path d=\"M"), std::string::npos);
}

}  // namespace
}  // namespace opticsd::web
