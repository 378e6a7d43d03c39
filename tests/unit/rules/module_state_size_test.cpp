// What the compact module state must keep: a signal a module starts to report
// later still gets its lane windows and its findings, a module swapped for
// one with more lanes gets windows for all of them, and a module polled in a
// different port order keeps its own state.
#include <gtest/gtest.h>

#include <cmath>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000;
constexpr std::int64_t kPollMs = 30'000;

TEST(ModuleStateSize, PerLaneBerThatAppearsLaterGetsItsWindowsAndItsFinding) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  // No per-lane BER for the first hour: no window is made for it.
  const std::int64_t ber_from = 3'600'000;
  const std::int64_t rise_from = ber_from + 2 * 3'600'000;
  std::size_t before_ber = 0;
  for (std::int64_t t = 0; t <= rise_from + 100 * 60'000; t += kPollMs) {
    Sample s = test::optic("sw", "p1", kT0 + t);
    s.mutableIdentity().modulation = Modulation::kPam4;
    if (t >= ber_from) {
      const double hours = t < rise_from ? 0.0 : static_cast<double>(t - rise_from) / 3'600'000.0;
      for (auto& lane : s.lanes) lane.values.set(LaneMetric::kPreFecBerRatio, 2e-4);
      s.lanes[3].values.set(LaneMetric::kPreFecBerRatio, std::pow(10.0, -6.0 + 1.2 * hours));
    }
    engine.evaluate("sw", {s});
    if (t == ber_from - kPollMs) before_ber = engine.trendWindows();
    if (t == ber_from) {
      EXPECT_EQ(engine.trendWindows(), before_ber + 4) << "one BER window per lane, made now";
    }
  }
  ASSERT_GT(before_ber, 0u);
  const Finding* f = sink.firstRaise("p1", "ber_trend");
  ASSERT_NE(f, nullptr) << "a lane whose BER appeared late and then rose was not seen";
  EXPECT_NE(f->detail.find("(lane 4)"), std::string::npos) << f->detail;
}

TEST(ModuleStateSize, ASwapToMoreLanesGivesEveryLaneItsWindows) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::int64_t t = kT0;
  for (int i = 0; i < 3; ++i, t += kPollMs) engine.evaluate("sw", {test::optic("sw", "p1", t, 4)});
  const std::size_t four = engine.trendWindows();
  // Swapped for an 8-lane module whose lane 8 then sags: judged on its own lane.
  double loss_at_raise = -1;
  for (int i = 0; i < 80 && loss_at_raise < 0; ++i, t += kPollMs) {
    Sample s = test::optic("sw", "p1", t, 8);
    s.mutableIdentity().serial = "SN-8-LANES";
    const double loss = i < 20 ? 0.0 : 0.1 * (i - 20);
    s.lanes[7].values.set(LaneMetric::kRxPowerDbm, -2.0 - loss);
    engine.evaluate("sw", {s});
    // The Rx and Tx drop rules' blocks (the optic reports no lane BER), four lanes more each.
    if (i == 0) {
      EXPECT_EQ(engine.trendWindows(), four + 2 * 4);
    }
    if (const Finding* f = sink.firstRaise("p1", "rx_power_drop")) {
      loss_at_raise = loss;
      EXPECT_NE(f->detail.find("(lane 8)"), std::string::npos) << f->detail;
    }
  }
  ASSERT_GE(loss_at_raise, 0) << "lane 8 of the new module has no window of its own";
}

TEST(ModuleStateSize, PortsPolledInAnotherOrderKeepTheirOwnState) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  const std::vector<std::string> order[] = {{"p3", "p1", "p2"}, {"p2", "p10", "p3", "p1"}, {"p1", "p2", "p3", "p10"}};
  std::int64_t t = kT0;
  for (int i = 0; i < 12; ++i, t += kPollMs) {
    std::vector<Sample> samples;
    for (const auto& port : order[i % 3]) {
      Sample s = test::optic("sw", port, t);
      if (port == "p2") s.module.set(ModuleMetric::kTemperatureCelsius, 90);  // hot: a finding on p2 only
      samples.push_back(std::move(s));
    }
    engine.evaluate("sw", samples);
  }
  EXPECT_EQ(engine.modules(), 4u);
  const auto active = engine.activeFindings();
  ASSERT_FALSE(active.empty());
  for (const auto& f : active) EXPECT_EQ(f.port, "p2") << f.rule;
}

// Module states name their target through the engine's own key: a target
// forgotten and polled again names its findings with the new key.
TEST(ModuleStateSize, ATargetForgottenAndPolledAgainStillNamesItsFindings) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::int64_t t = kT0;
  const auto pollHot = [&](int polls) {
    for (int i = 0; i < polls; ++i, t += kPollMs) {
      std::string target = "sw-" + std::string("a");  // a temporary: the engine must keep its own
      Sample s = test::optic(target, "p1", t);
      s.module.set(ModuleMetric::kTemperatureCelsius, 90);
      engine.evaluate(target, {s});
    }
  };
  pollHot(6);
  ASSERT_FALSE(engine.activeFindings().empty());
  engine.retainTargets({"other"});
  EXPECT_EQ(engine.modules(), 0u);
  sink.records.clear();
  pollHot(6);
  const auto active = engine.activeFindings();
  ASSERT_FALSE(active.empty());
  for (const auto& f : active) EXPECT_EQ(f.target, "sw-a") << f.rule;
  ASSERT_FALSE(sink.records.empty());
  for (const auto& f : sink.records) EXPECT_EQ(f.target, "sw-a") << f.rule;
}

}  // namespace
}  // namespace opticsd
