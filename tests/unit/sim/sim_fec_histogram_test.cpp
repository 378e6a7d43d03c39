// The simulator's FEC codeword histogram and link-down reasons: every port
// has a histogram (healthy tails low, from random errors), fec_tail_climb
// raises the tail bin by bin before the pre-FEC BER moves, and the flapping
// scenario says why its link went down.
#include <gtest/gtest.h>

#include "drivers/fec_tail.hpp"
#include "drivers/link_down_reason.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kInterval = 30'000;
constexpr std::int64_t kMinute = 60'000;

SimSwitch makeSwitch(ScenarioKind kind, int port, std::int64_t onset, std::int64_t ramp) {
  SimSwitchConfig config;
  config.name = "leaf-1";
  config.seed = 3;
  config.ports = 8;
  config.module = "osfp-800g-2fr4";
  config.scenarios.push_back({kind, port, -1, onset, ramp});
  auto sw = SimSwitch::create(config, kEpoch);
  EXPECT_TRUE(sw) << sw.error().message;
  return std::move(*sw);
}

TEST(SimFecHistogram, EveryPortHasBinsUpToTheCodesLimit) {
  const SimSwitch sw = makeSwitch(ScenarioKind::kFecTailClimb, 0, 10 * kMinute, 30 * kMinute);
  std::vector<Sample> samples;
  sw.sampleAll(kEpoch, samples);
  for (const Sample& s : samples) {
    ASSERT_EQ(s.fec.histogram.size(), 16u) << s.port;  // RS(544,514): 0..15 symbol errors
    EXPECT_EQ(s.fec.correctable_symbols, 15);
    EXPECT_EQ(s.fec.histogram[15].low, 15);
    EXPECT_GT(*s.fec.histogram[0].codewords_total, *s.fec.histogram[1].codewords_total);
  }
}

TEST(SimFecHistogram, TailClimbsBinByBinBeforeBerMoves) {
  const int port = 2;
  const SimSwitch sw = makeSwitch(ScenarioKind::kFecTailClimb, port, 10 * kMinute, 30 * kMinute);
  FecTailTracker tails;
  std::uint16_t last = 0;
  std::optional<std::int64_t> tail_12;
  std::vector<std::uint16_t> healthy_tails;
  for (std::int64_t t = kEpoch; t <= kEpoch + 45 * kMinute; t += kInterval) {
    std::vector<Sample> samples;
    sw.sampleAll(t, samples);
    for (Sample& s : samples) tails.apply(s);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const auto& tail = samples[i].fec.tail.symbols;
      if (static_cast<int>(i) != port) {
        if (tail) healthy_tails.push_back(*tail);
        continue;
      }
      if (!tail) continue;
      // Bin by bin: never more than one step up between polls, never down
      // while the scenario ramps.
      if (last >= 4) {  // from the first burst bin on
        EXPECT_LE(*tail, last + 1) << "at " << (t - kEpoch) / 1000 << " s";
        EXPECT_GE(*tail, last) << "at " << (t - kEpoch) / 1000 << " s";
      }
      if (*tail >= 12 && !tail_12) tail_12 = t;
      last = *tail;
    }
  }
  EXPECT_EQ(last, 15);
  ASSERT_TRUE(tail_12);
  // When the tail passes 11 the BER is what the same port would have without
  // the scenario (the same switch, seed and environment, healthy).
  const SimSwitch healthy = makeSwitch(ScenarioKind::kFecTailClimb, port + 1, 10 * kMinute, 30 * kMinute);
  for (int lane = 1; lane <= sw.lanes(); ++lane) {
    const double with = *sw.truthAt(port, lane, TruthSignal::kPreFecBerRatio, *tail_12);
    const double without = *healthy.truthAt(port, lane, TruthSignal::kPreFecBerRatio, *tail_12);
    EXPECT_DOUBLE_EQ(with, without) << "lane " << lane;
  }
  // ... and it does rise by the end of the ramp: the tail came first.
  const double late = *sw.truthAt(port, 1, TruthSignal::kPreFecBerRatio, kEpoch + 40 * kMinute);
  EXPECT_GT(late, 100 * *healthy.truthAt(port, 1, TruthSignal::kPreFecBerRatio, kEpoch + 40 * kMinute));
  ASSERT_FALSE(healthy_tails.empty());
  for (auto tail : healthy_tails) EXPECT_LE(tail, 6) << "a healthy port's tail";
}

TEST(SimFecHistogram, FlappingLinkSaysWhyItWentDown) {
  const int port = 1;
  const SimSwitch sw = makeSwitch(ScenarioKind::kLinkFlapping, port, 0, 0);
  bool saw_down = false;
  for (std::int64_t t = kEpoch + kMinute; t <= kEpoch + 10 * kMinute; t += 1000) {
    const Sample s = sw.sampleAt(port, t);
    ASSERT_TRUE(s.link.last_down_reason);
    EXPECT_EQ(linkDownReasonName(*s.link.last_down_reason), "bad_signal_integrity");
    if (s.link.up == false) {
      saw_down = true;
      ASSERT_TRUE(s.link.down_reason);
    } else {
      EXPECT_FALSE(s.link.down_reason);
    }
  }
  EXPECT_TRUE(saw_down);
  // A healthy port has no reason at all.
  EXPECT_FALSE(sw.sampleAt(0, kEpoch + kMinute).link.last_down_reason);
}

}  // namespace
}  // namespace opticsd::sim
