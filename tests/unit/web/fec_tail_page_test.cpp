// The FEC tail on the optic's page (issue 30's fec_tail signals): the port's
// and each lane's tail and margin in the lanes table, a plot panel with the
// code's correction limit where history has it, the same in JSON and in
// `opticsd explain`'s text; nothing of it where no histogram is read.
#include <gtest/gtest.h>

#include "daemon/web/optic_page.hpp"
#include "daemon/web/page_json.hpp"
#include "daemon/web/story_text.hpp"
#include "tests/unit/web/fake_page_data.hpp"

namespace opticsd::web {
namespace {

using test::count;

// History with the port's FEC tail climbing 3 -> 12 symbols over the last hour
// (margin 12 -> 3 of RS(544,514)'s 15) and lane 2's tail at 12 throughout.
HistoryResult withFecTail(HistoryResult h, std::int64_t now_ms) {
  const std::size_t tail = h.columns.size();
  h.columns.push_back({"fec_tail_symbols", true, true});
  h.columns.push_back({"fec_margin_symbols", true, true});
  for (auto& row : h.rows) {
    row.values.resize(h.columns.size());
    const std::int64_t minutes_ago = (now_ms - row.ts_ms) / 60'000;
    if (minutes_ago > 60) continue;  // before: no histogram read, absent
    if (!row.lane) {
      const std::int64_t symbols = 12 - minutes_ago * 9 / 60;
      row.values[tail] = symbols;
      row.values[tail + 1] = 15 - symbols;
    } else if (*row.lane == 2) {
      row.values[tail] = std::int64_t{12};
      row.values[tail + 1] = std::int64_t{3};
    }
  }
  return h;
}

test::FakePageData fecOptic(bool with_tail) {
  test::FakePageData d;
  auto samples = std::make_shared<std::vector<Sample>>();
  samples->push_back(test::opticSample("leaf-1", "Ethernet4", 4, -4.0, d.now));
  if (with_tail) {
    auto& fec = samples->back().fec;
    fec.correctable_symbols = 15;
    fec.tail.symbols = 12;
    fec.tail.lane_symbols = {std::nullopt, 12, 5};  // lane 1 no window; lane 4 not counted
  }
  d.live["leaf-1"] = samples;
  auto h = test::opticHistory("leaf-1", "Ethernet4", 4, d.now, 120);
  d.histories[{"leaf-1", "Ethernet4"}] = with_tail ? withFecTail(std::move(h), d.now) : std::move(h);
  return d;
}

TEST(FecTailPage, TheLanesTableShowsTheTailAndTheMarginLeft) {
  const auto d = fecOptic(true);
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet4", "24h"});
  ASSERT_TRUE(story);
  ASSERT_EQ(story->lanes.size(), 4u);
  EXPECT_FALSE(story->lanes[0].fec_tail_symbols);
  EXPECT_EQ(story->lanes[1].fec_tail_symbols, 12.0);
  EXPECT_EQ(story->lanes[1].fec_margin_symbols, 3.0);
  EXPECT_EQ(story->lanes[2].fec_margin_symbols, 10.0);
  EXPECT_FALSE(story->lanes[3].fec_tail_symbols);
  const std::string page = renderOpticPage(*story);
  EXPECT_EQ(count(page, "<th>FEC tail</th>"), 1u);
  EXPECT_EQ(count(page, "<td class=\"num fec-tail\">"), 4u);
  EXPECT_NE(page.find("12 symbols <span class=\"muted\">(margin 3)</span>"), std::string::npos);
  EXPECT_NE(page.find("5 symbols <span class=\"muted\">(margin 10)</span>"), std::string::npos);
  EXPECT_GE(count(page, "<td class=\"num fec-tail\"><span class=\"muted\">not reported</span>"), 2u);
  EXPECT_NE(page.find("port FEC tail 12 symbols <span class=\"muted\">(margin 3)</span> of the 15 the code corrects"),
            std::string::npos);
}

TEST(FecTailPage, HistoryOfTheTailIsPlottedAgainstTheCorrectionLimit) {
  const auto d = fecOptic(true);
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet4", "24h"});
  ASSERT_TRUE(story);
  const std::string page = renderOpticPage(*story);
  // Lanes 2 and 3 (a tail now) and the port: a panel each; lanes 1 and 4 have none.
  EXPECT_EQ(count(page, ">FEC tail and margin (symbols a codeword)<"), 3u);
  EXPECT_EQ(count(page, "<title>FEC correction limit 15 symbols</title></line>"), 3u);  // a line at the limit
  // The port's plotted tail is the history's: from 3 to 12 within the last hour, nothing before it.
  const TimePoint* first = nullptr;
  const TimePoint* last = nullptr;
  for (const auto& s : story->series) {
    if (s.key == "fec_tail_symbols" && s.lane == 0) {
      first = &s.points.front();
      last = &s.points.back();
    }
  }
  ASSERT_NE(first, nullptr);
  EXPECT_GE(first->ts_ms, d.now - 60 * 60'000);
  EXPECT_EQ(last->value, 12.0);
  EXPECT_NE(page.find("Tail: from 3.00 to 12.00 symbols, last 12.00 symbols"), std::string::npos);
}

TEST(FecTailPage, JsonAndTextCarryIt) {
  const auto d = fecOptic(true);
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet4", "24h"});
  ASSERT_TRUE(story);
  const std::string json = opticJson(*story);
  EXPECT_NE(json.find("\"fec_tail_symbols\":12.0"), std::string::npos) << json.substr(0, 2000);
  EXPECT_NE(json.find("\"fec_correctable_symbols\":15.0"), std::string::npos);
  EXPECT_NE(json.find("\"series_bucket_ms\":"), std::string::npos);
  const std::string text = storyText(*story);
  EXPECT_NE(text.find("FEC tail: port 12 symbols, margin 3 of 15; lane 2 12 (margin 3); lane 3 5 (margin 10)"),
            std::string::npos)
      << text;
}

TEST(FecTailPage, WithoutAHistogramNothingOfItIsShown) {
  const auto d = fecOptic(false);
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet4", "24h"});
  ASSERT_TRUE(story);
  const std::string page = renderOpticPage(*story);
  EXPECT_EQ(page.find("FEC tail"), std::string::npos);
  EXPECT_EQ(opticJson(*story).find("fec_tail"), std::string::npos);
}

TEST(FecTailPage, WithoutLiveValuesTheLastStoredTailStandsForNow) {
  auto d = fecOptic(true);
  d.live.clear();
  auto story = buildOpticStory(d, {"leaf-1", "Ethernet4", "24h"});
  ASSERT_TRUE(story);
  EXPECT_EQ(story->fec_tail_symbols, 12.0);
  EXPECT_EQ(story->fec_margin_symbols, 3.0);
  ASSERT_EQ(story->lanes.size(), 4u);
  EXPECT_EQ(story->lanes[1].fec_tail_symbols, 12.0);
  EXPECT_FALSE(story->lanes[0].fec_tail_symbols);
  EXPECT_NE(renderOpticPage(*story).find("<th>FEC tail</th>"), std::string::npos);
}

}  // namespace
}  // namespace opticsd::web
