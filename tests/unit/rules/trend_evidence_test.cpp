// Trends and forecasts need evidence (issue 19, items 1 and 2): a significant,
// robust slope over a full window, beyond the switch's common trend, and a
// forecast never outranks evidence of harm.
#include <gtest/gtest.h>

#include <cmath>

#include "daemon/rules/rules_engine.hpp"
#include "daemon/rules/trend_window.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kHourMs = 3'600'000;
constexpr std::int64_t kPollMs = 30'000;

TEST(TrendEvidence, SignificantSlopeNeedsAFullWindow) {
  TrendWindow w;
  for (std::int64_t t = 0; t < kHourMs / 2; t += kPollMs) w.add(t, static_cast<double>(t) / kHourMs * 5.0, kHourMs);
  EXPECT_TRUE(w.slopePerHour(kHourMs).has_value());  // the plain slope: half a window is enough
  EXPECT_FALSE(w.significantSlopePerHour(kHourMs, 4.0, 0.05).has_value());
  for (std::int64_t t = kHourMs / 2; t < kHourMs; t += kPollMs)
    w.add(t, static_cast<double>(t) / kHourMs * 5.0, kHourMs);
  const auto slope = w.significantSlopePerHour(kHourMs, 4.0, 0.05);
  ASSERT_TRUE(slope.has_value());
  EXPECT_NEAR(*slope, 5.0, 0.01);
}

TEST(TrendEvidence, OneOutlyingBucketDoesNotMakeATrend) {
  TrendWindow w;
  // Flat at 0 with one bucket (the newest) far off: least squares sees a
  // slope, Theil-Sen does not.
  for (std::int64_t t = 0; t < kHourMs; t += kPollMs) w.add(t, t >= kHourMs * 7 / 8 ? 3.0 : 0.0, kHourMs);
  ASSERT_TRUE(w.slopePerHour(kHourMs).has_value());
  EXPECT_GT(*w.slopePerHour(kHourMs), 1.0);
  const auto robust = w.significantSlopePerHour(kHourMs, 4.0, 0.05);
  EXPECT_FALSE(robust.has_value() && std::fabs(*robust) > 0.01);
}

TEST(TrendEvidence, ASlopeWithinTheWindowsScatterIsNotSignificant) {
  TrendWindow w;
  // +-1 alternating around a gentle 0.5/h rise: the change over the hour is
  // half the scatter.
  int i = 0;
  for (std::int64_t t = 0; t < kHourMs; t += kHourMs / 8, ++i) {
    w.add(t, 0.5 * static_cast<double>(t) / kHourMs + (i % 2 ? 1.0 : -1.0), kHourMs);
  }
  EXPECT_FALSE(w.significantSlopePerHour(kHourMs, 4.0, 0.05).has_value());
}

// A switch of 8 modules whose temperature follows `shared(t)`, one of them
// (port p0) with `own(t)` on top.
std::size_t findingsFor(double (*shared)(std::int64_t), double (*own)(std::int64_t), const char* rule,
                        const std::string& port) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  for (std::int64_t t = 0; t <= 3 * kHourMs; t += kPollMs) {
    std::vector<Sample> poll;
    for (int p = 0; p < 8; ++p) {
      Sample s = test::optic("sw", "p" + std::to_string(p), 1'700'000'000'000 + t);
      s.module.set(ModuleMetric::kTemperatureCelsius, 40.0 + shared(t) + (p == 0 ? own(t) : 0.0));
      poll.push_back(std::move(s));
    }
    engine.evaluate("sw", poll);
  }
  std::size_t n = 0;
  for (const auto& f : sink.records) n += f.active() && f.rule == rule && f.port == port ? 1 : 0;
  return n;
}

double none(std::int64_t) { return 0.0; }
// A job: the whole switch warms 8 C with a 10-minute time constant after 1 h.
double job(std::int64_t t) {
  return t < kHourMs ? 0.0 : 8.0 * (1.0 - std::exp(-static_cast<double>(t - kHourMs) / 600'000.0));
}
// One module climbing 40 C/h from 1 h on.
double runaway(std::int64_t t) { return t < kHourMs ? 0.0 : 40.0 * static_cast<double>(t - kHourMs) / kHourMs; }

TEST(TrendEvidence, AJobWarmingTheWholeSwitchIsNotAClimbOrAForecast) {
  for (const char* rule : {"temperature_climb", "alarm_forecast"}) {
    for (int p = 0; p < 8; ++p)
      EXPECT_EQ(findingsFor(job, none, rule, "p" + std::to_string(p)), 0u) << rule << " p" << p;
  }
}

TEST(TrendEvidence, OneModuleClimbingOnAWarmingSwitchIsFlagged) {
  EXPECT_GE(findingsFor(job, runaway, "temperature_climb", "p0"), 1u);
  EXPECT_EQ(findingsFor(job, runaway, "temperature_climb", "p1"), 0u);
}

TEST(TrendEvidence, AForecastRanksBelowAWarningOfHarm) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  // p0: warming 6 C/h from 50 C (under temperature_climb's 10 C/h, below
  // every level): a forecast only; p1: Rx steady just below the warning
  // level (evidence).
  for (std::int64_t t = 0; t <= 5 * kHourMs / 2; t += kPollMs) {
    Sample a = test::optic("sw", "p0", 1'700'000'000'000 + t);
    a.module.set(ModuleMetric::kTemperatureCelsius, 50.0 + 6.0 * static_cast<double>(t) / kHourMs);
    Sample b = test::optic("sw", "p1", 1'700'000'000'000 + t);
    test::setLanes(b, LaneMetric::kRxPowerDbm, -10.5);
    engine.evaluate("sw", {a, b});
  }
  ASSERT_NE(sink.firstRaise("p0", "alarm_forecast"), nullptr);
  const auto suspects = engine.suspects();
  ASSERT_GE(suspects.size(), 2u);
  EXPECT_EQ(suspects[0].port, "p1") << suspects[0].reason;
  EXPECT_EQ(suspects[1].port, "p0");
}

}  // namespace
}  // namespace opticsd
