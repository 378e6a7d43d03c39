// The fec_tail rule on the simulator's fec_tail_climb: error bursts push the
// codeword histogram's tail up bin by bin while the averaged pre-FEC BER
// still looks healthy. The tail rule must flag the port before the pre-FEC
// BER rule does, and never flag a healthy port (whose tail sits at a few
// symbols from random errors).
#include "drivers/fec_tail.hpp"

#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"
#include "drivers/sim/sim_switch.hpp"
#include "tests/unit/rules/recording_sink.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kInterval = 30'000;
constexpr std::int64_t kMinute = 60'000;

TEST(FecTailRule, FiresBeforePreFecBerAndNeverOnHealthyPorts) {
  sim::SimSwitchConfig config;
  config.name = "leaf-1";
  config.seed = 11;
  config.ports = 16;
  config.module = "osfp-800g-2fr4";
  const int port = 5;
  config.scenarios.push_back({sim::ScenarioKind::kFecTailClimb, port, -1, 20 * kMinute, 30 * kMinute});
  auto sw = sim::SimSwitch::create(config, kEpoch);
  ASSERT_TRUE(sw) << sw.error().message;

  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  FecTailTracker tails;
  std::vector<Sample> samples;
  std::uint16_t highest_tail = 0;
  for (std::int64_t t = kEpoch; t <= kEpoch + 70 * kMinute; t += kInterval) {
    samples.clear();
    sw->sampleAll(t, samples);
    for (Sample& s : samples) {
      tails.apply(s);
      ASSERT_FALSE(s.fec.histogram.empty()) << "every sim port reports a histogram";
      if (s.port == sw->portName(port) && s.fec.tail.symbols) {
        highest_tail = std::max(highest_tail, *s.fec.tail.symbols);
      }
    }
    engine.evaluate("leaf-1", samples);
  }
  EXPECT_EQ(highest_tail, 15) << "the tail climbs to the code's limit";

  const Finding* tail = sink.firstRaise(sw->portName(port), "fec_tail");
  const Finding* ber = sink.firstRaise(sw->portName(port), "pre_fec_ber");
  ASSERT_NE(tail, nullptr) << "fec_tail never raised";
  ASSERT_NE(ber, nullptr) << "the scenario's late BER rise never reached the pre-FEC BER rule";
  EXPECT_LT(tail->start_ms, ber->start_ms) << "tail: " << tail->detail << " / ber: " << ber->detail;
  EXPECT_NE(tail->detail.find("fec_tail_symbols"), std::string::npos) << tail->detail;
  for (const auto& f : sink.records) {
    EXPECT_EQ(f.port, sw->portName(port)) << "a healthy port was flagged: " << f.rule << " " << f.detail;
  }
}

// A device without a histogram (or the first poll, without a window) gives
// the rule nothing to judge: no finding, whatever else happens.
TEST(FecTailRule, NoHistogramNoFinding) {
  sim::SimSwitchConfig config;
  config.name = "leaf-1";
  config.ports = 2;
  config.module = "osfp-800g-2fr4";
  config.scenarios.push_back({sim::ScenarioKind::kFecTailClimb, 0, -1, 0, 0});
  auto sw = sim::SimSwitch::create(config, kEpoch);
  ASSERT_TRUE(sw);
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::vector<Sample> samples;
  for (std::int64_t t = kEpoch; t <= kEpoch + 10 * kMinute; t += kInterval) {
    samples.clear();
    sw->sampleAll(t, samples);
    for (Sample& s : samples) s.fec.histogram.clear();  // no tracker: no tail either
    engine.evaluate("leaf-1", samples);
  }
  EXPECT_EQ(sink.firstRaise(sw->portName(0), "fec_tail"), nullptr);
}

// A module in maintenance (firmware flashing, a CDB command, `maintenance:`)
// raises nothing, whatever its values say; the flapping finding names why the
// link went down and what to do about it.
TEST(FecTailRule, MaintenanceRaisesNothingAndFlapsSayWhy) {
  sim::SimSwitchConfig config;
  config.name = "leaf-1";
  config.ports = 2;
  config.module = "osfp-800g-2fr4";
  config.scenarios.push_back({sim::ScenarioKind::kLinkFlapping, 0, -1, 0, 0});
  config.scenarios.push_back({sim::ScenarioKind::kLinkFlapping, 1, -1, 0, 0});
  auto sw = sim::SimSwitch::create(config, kEpoch);
  ASSERT_TRUE(sw);
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::vector<Sample> samples;
  for (std::int64_t t = kEpoch; t <= kEpoch + 20 * kMinute; t += kInterval) {
    samples.clear();
    sw->sampleAll(t, samples);
    samples[1].maintenance = Maintenance{"configured"};
    engine.evaluate("leaf-1", samples);
  }
  EXPECT_EQ(sink.firstRaise(sw->portName(1), "link_flapping"), nullptr);
  const Finding* flap = sink.firstRaise(sw->portName(0), "link_flapping");
  ASSERT_NE(flap, nullptr);
  EXPECT_NE(flap->detail.find("last down: bad_signal_integrity"), std::string::npos) << flap->detail;
  EXPECT_NE(flap->detail.find("clean"), std::string::npos) << flap->detail;
}

}  // namespace
}  // namespace opticsd
