#include "drivers/replay/fec_sequence.hpp"

#include <gtest/gtest.h>

namespace opticsd::replay {
namespace {

TEST(FecSequence, ParsesStepsCommentsAndUnreportedLanes) {
  auto steps = parseFecSequence(
      "# opticsd fec sequence v1\n"
      "\n"
      "corrected_bits=10 corrected_blocks=2 uncorrectable_blocks=0 lane_corrected_bits=4,-,6 speed_gbps=100 lanes=4\n"
      "  corrected_blocks=7 bits_per_block=75 up=0 down_events=3 lane_line_rate_gbps=26.5625  # trailing comment\r\n");
  ASSERT_TRUE(steps) << steps.error().message;
  ASSERT_EQ(steps->size(), 2u);
  const auto& a = (*steps)[0];
  EXPECT_EQ(a.fec.corrected_bits_total, 10u);
  EXPECT_EQ(a.fec.corrected_blocks_total, 2u);
  EXPECT_EQ(a.fec.uncorrectable_blocks_total, 0u);
  ASSERT_EQ(a.fec.lane_corrected_bits_total.size(), 3u);
  EXPECT_EQ(a.fec.lane_corrected_bits_total[0], 4u);
  EXPECT_FALSE(a.fec.lane_corrected_bits_total[1]);
  EXPECT_EQ(a.link.speed_gbps, 100.0);
  EXPECT_EQ(a.link.lanes, 4);
  EXPECT_FALSE(a.link.up);
  const auto& b = (*steps)[1];
  EXPECT_FALSE(b.fec.corrected_bits_total);  // left out = not reported at this step
  EXPECT_EQ(b.fec.bits_per_block, 75u);
  EXPECT_EQ(b.link.up, false);
  EXPECT_EQ(b.link.down_events_total, 3u);
  EXPECT_DOUBLE_EQ(*b.link.lane_line_rate_gbps, 26.5625);
}

TEST(FecSequence, ErrorsNameLineAndKey) {
  auto unknown = parseFecSequence("corrected_bits=1\ncorected_bits=2\n");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("line 2"), std::string::npos);
  EXPECT_NE(unknown.error().message.find("corected_bits"), std::string::npos);
  EXPECT_FALSE(parseFecSequence("corrected_bits=-5"));
  EXPECT_FALSE(parseFecSequence("corrected_bits=99999999999999999999999"));
  EXPECT_FALSE(parseFecSequence("up=yes"));
  EXPECT_FALSE(parseFecSequence("lanes=0"));
  EXPECT_FALSE(parseFecSequence("speed_gbps=nan"));
  EXPECT_FALSE(parseFecSequence("lane_corrected_bits=1,,2"));
  EXPECT_FALSE(parseFecSequence("novalue"));
  EXPECT_TRUE(parseFecSequence("")->empty());
}

TEST(FecSequence, FormatReadsBack) {
  FecCounters fec;
  fec.corrected_bits_total = 123456789012ull;
  fec.uncorrectable_blocks_total = 3;
  fec.lane_corrected_bits_total = {1, std::nullopt, 3};
  LinkState link;
  link.speed_gbps = 400;
  link.lanes = 8;
  link.up = true;
  const auto line = formatFecStep(fec, link);
  EXPECT_EQ(line,
            "corrected_bits=123456789012 uncorrectable_blocks=3 lane_corrected_bits=1,-,3 speed_gbps=400 lanes=8 up=1");
  auto back = parseFecSequence(line);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].fec.corrected_bits_total, fec.corrected_bits_total);
  EXPECT_EQ((*back)[0].fec.lane_corrected_bits_total, fec.lane_corrected_bits_total);
  EXPECT_EQ((*back)[0].link.lanes, link.lanes);
  EXPECT_EQ(formatFecStep({}, {}), "");
}

TEST(FecSequence, HistogramReasonsAndBusy) {
  auto steps = parseFecSequence(
      "fec_hist=0-0:1000,1-3:100:40/60,4-15:-:0/1 fec_correctable_symbols=15 up=0 down_reason=3.4 "
      "last_down_reason=9 busy=1\n");
  ASSERT_TRUE(steps) << steps.error().message;
  ASSERT_EQ(steps->size(), 1u);
  const FecStep& step = (*steps)[0];
  ASSERT_EQ(step.fec.histogram.size(), 3u);
  EXPECT_EQ(step.fec.histogram[0].codewords_total, 1000u);
  EXPECT_TRUE(step.fec.histogram[0].lane_codewords_total.empty());
  EXPECT_EQ(step.fec.histogram[1].low, 1);
  EXPECT_EQ(step.fec.histogram[1].high, 3);
  EXPECT_EQ(step.fec.histogram[1].lane_codewords_total, (std::vector<std::uint64_t>{40, 60}));
  EXPECT_FALSE(step.fec.histogram[2].codewords_total);
  EXPECT_EQ(step.fec.correctable_symbols, 15);
  EXPECT_EQ(step.link.down_reason, (LinkDownReason{3, 4}));
  EXPECT_EQ(step.link.last_down_reason, (LinkDownReason{9, std::nullopt}));
  EXPECT_TRUE(step.busy);
  const auto line = formatFecStep(step.fec, step.link, step.busy);
  auto back = parseFecSequence(line);
  ASSERT_TRUE(back) << line;
  EXPECT_EQ((*back)[0].fec.histogram, step.fec.histogram);
  EXPECT_EQ((*back)[0].link.down_reason, step.link.down_reason);
  EXPECT_TRUE((*back)[0].busy);
  // Bad bins and reasons are errors naming the key.
  for (const char* bad :
       {"fec_hist=", "fec_hist=3-1:5", "fec_hist=0-0", "fec_hist=0-0:-", "fec_hist=0-0:x", "fec_hist=0-0:1:1//2",
        "down_reason=3.0", "down_reason=300", "busy=2", "fec_correctable_symbols=0"}) {
    auto parsed = parseFecSequence(bad);
    ASSERT_FALSE(parsed) << bad;
    const std::string key(bad, std::string_view(bad).find('='));
    EXPECT_NE(parsed.error().message.find(key), std::string::npos) << parsed.error().message;
  }
}

}  // namespace
}  // namespace opticsd::replay
