#include "drivers/sim/ber_model.hpp"

#include <gtest/gtest.h>

#include "drivers/sim/module_profile.hpp"

namespace opticsd::sim {
namespace {

TEST(BerModel, QInverseRoundTrips) {
  for (double ber : {1e-12, 1e-8, 2.4e-4, 1e-2}) {
    EXPECT_NEAR(berFromQ(qFromBer(ber, true), true) / ber, 1.0, 1e-6) << ber;
    EXPECT_NEAR(berFromQ(qFromBer(ber, false), false) / ber, 1.0, 1e-6) << ber;
  }
}

TEST(BerModel, ReachesTheKp4LimitAtSensitivityAndFallsToTheFloorAbove) {
  const ModuleProfile* p = findModuleProfile("osfp-800g-2fr4");
  ASSERT_NE(p, nullptr);
  const ReceiverModel& rx = p->receiver;
  EXPECT_NEAR(rx.ber(-10.0, rx.q_floor) / 2.4e-4, 1.0, 1e-3);
  // Healthy operating point: decades below the limit, at the PAM4 floor.
  const double healthy = rx.ber(-2.5, rx.q_floor);
  EXPECT_GT(healthy, 1e-9);
  EXPECT_LT(healthy, 2e-7);
  // Steep near sensitivity: the last 2 dB cost more than the first 5.
  const double at8 = rx.ber(-8.0, rx.q_floor);
  EXPECT_GT(at8 / healthy, 10.0);
  EXPECT_GT(rx.ber(-10.0, rx.q_floor) / at8, 10.0);
}

TEST(BerModel, BerIsMonotoneInRxPower) {
  const ReceiverModel& rx = findModuleProfile("qsfp-dd-400g-dr4")->receiver;
  double prev = 1.0;
  for (double dbm = -14.0; dbm <= 3.0; dbm += 0.25) {
    const double ber = rx.ber(dbm, rx.q_floor);
    EXPECT_LE(ber, prev) << dbm;
    prev = ber;
  }
}

TEST(BerModel, UncorrectableCodewordsOnlyNearTheFecLimit) {
  const FecCode kp4{544, 15, 10};
  const CodewordOutcome healthy = codewordOutcome(kp4, 1e-7);
  EXPECT_GT(healthy.p_corrected, 1e-4);  // ~544 symbols x 10 bits x 1e-7
  EXPECT_LT(healthy.p_corrected, 1e-3);
  EXPECT_LT(healthy.p_uncorrectable, 1e-60);
  const CodewordOutcome near = codewordOutcome(kp4, 2.4e-4);
  EXPECT_LT(near.p_uncorrectable, 1e-9);  // the limit: still (almost) error free after FEC
  const CodewordOutcome beyond = codewordOutcome(kp4, 2e-3);
  EXPECT_GT(beyond.p_uncorrectable, 1e-4);
  EXPECT_EQ(codewordOutcome(kp4, 0.0).p_corrected, 0.0);
}

}  // namespace
}  // namespace opticsd::sim
