// The realistic environment: what healthy modules do in a real fabric, with
// the statistics the rules engine has to tolerate.
#include "drivers/sim/environment.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kMinute = 60'000;

struct Moments {
  double mean = 0, sd = 0, lag_corr = 0;
};

Moments momentsOf(const std::vector<double>& x) {
  Moments m;
  for (double v : x) m.mean += v;
  m.mean /= static_cast<double>(x.size());
  double var = 0, cov = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    var += (x[i] - m.mean) * (x[i] - m.mean);
    if (i > 0) cov += (x[i] - m.mean) * (x[i - 1] - m.mean);
  }
  m.sd = std::sqrt(var / static_cast<double>(x.size()));
  m.lag_corr = cov / var;
  return m;
}

TEST(SimEnvironment, NormalNoiseHasUnitVarianceAndIsBounded) {
  std::vector<double> x;
  for (std::uint64_t i = 0; i < 20000; ++i) x.push_back(normalNoise(i * 0x9e3779b97f4a7c15ULL + 1));
  const Moments m = momentsOf(x);
  EXPECT_NEAR(m.mean, 0.0, 0.03);
  EXPECT_NEAR(m.sd, 1.0, 0.03);
  for (double v : x) ASSERT_LE(std::fabs(v), 3.0);
}

TEST(SimEnvironment, Ar1HasItsSigmaAndStepCorrelation) {
  std::vector<double> x;
  for (std::int64_t k = 0; k < 20000; ++k) x.push_back(ar1At(42, k * 1000, 1000, 0.7, 0.15));
  const Moments m = momentsOf(x);
  EXPECT_NEAR(m.mean, 0.0, 0.02);
  EXPECT_NEAR(m.sd, 0.15, 0.015);
  EXPECT_NEAR(m.lag_corr, 0.7, 0.05);
  // Continuous between steps: half a step moves less than a whole one on average.
  EXPECT_NEAR(ar1At(42, 1500, 1000, 0.7, 0.15),
              0.5 * (ar1At(42, 1000, 1000, 0.7, 0.15) + ar1At(42, 2000, 1000, 0.7, 0.15)), 1e-12);
}

TEST(SimEnvironment, RoomCycleIsSharedByASwitchAndBounded) {
  SimEnvironment env;
  double lo = 1e9, hi = -1e9;
  for (std::int64_t t = 0; t < 4 * 3'600'000; t += kMinute) {
    const double v = roomOffsetC(env, 7, t);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_NEAR(hi, 0.8, 0.01);
  EXPECT_NEAR(lo, -0.8, 0.01);
  env.enabled = false;
  EXPECT_EQ(roomOffsetC(env, 7, 1234567), 0.0);
}

TEST(SimEnvironment, JobsWarmTheSwitchWithATimeConstantAndCoolAfter) {
  SimEnvironment env;
  // Find a slot that starts a job after an idle one.
  std::int64_t start = -1;
  for (std::int64_t slot = 1; slot < 200 && start < 0; ++slot) {
    const std::int64_t t = slot * env.job_slot_ms;
    if (jobActive(env, 7, t) && !jobActive(env, 7, t - 1)) start = t;
  }
  ASSERT_GE(start, 0);
  EXPECT_NEAR(jobHeatFraction(env, 7, start), 0.0, 1e-9);
  EXPECT_NEAR(jobHeatFraction(env, 7, start + env.job_tau_ms), 1.0 - std::exp(-1.0), 1e-9);
  EXPECT_GT(jobHeatFraction(env, 7, start + env.job_slot_ms - 1), 0.99);

  // Every module of the switch warms together, each by 0.85..1 of the rise.
  SimSwitchConfig c;
  c.name = "leaf1";
  c.seed = 7;
  c.ports = 16;
  auto sw = SimSwitch::create(c, kEpoch);
  ASSERT_TRUE(sw);
  for (int p = 0; p < c.ports; ++p) {
    const double cold = *sw->truthAt(p, 0, TruthSignal::kTemperatureCelsius, start);
    const double warm = *sw->truthAt(p, 0, TruthSignal::kTemperatureCelsius, start + 60 * kMinute);
    // Less the room's change; the 6-hour 0.5 C wobble may move up to 0.55 C in an hour.
    const double job = warm - cold - (roomOffsetC(env, 7, start + 60 * kMinute) - roomOffsetC(env, 7, start));
    EXPECT_GT(job, 0.85 * 8.0 * (1.0 - std::exp(-6.0)) - 0.55) << p;
    EXPECT_LT(job, 8.0 + 0.55) << p;
  }
}

TEST(SimEnvironment, HealthyPam4BerWandersBetweenAboutOneE8AndFiveE7) {
  SimSwitchConfig c;
  c.name = "leaf1";
  c.seed = 11;
  c.ports = 8;
  auto sw = SimSwitch::create(c, kEpoch);
  ASSERT_TRUE(sw);
  double lo = 1, hi = 0;
  for (std::int64_t t = kEpoch; t < kEpoch + 24 * 3'600'000; t += 5 * kMinute) {
    for (int p = 0; p < c.ports; ++p) {
      for (int lane = 1; lane <= sw->lanes(); ++lane) {
        const double ber = *sw->truthAt(p, lane, TruthSignal::kPreFecBerRatio, t);
        lo = std::min(lo, ber);
        hi = std::max(hi, ber);
      }
    }
  }
  EXPECT_LT(lo, 2e-8);
  EXPECT_GT(lo, 1e-9);
  EXPECT_GT(hi, 2e-7);
  EXPECT_LT(hi, 1e-6);
}

}  // namespace
}  // namespace opticsd::sim
