#include "drivers/copy_on_write.hpp"

#include <gtest/gtest.h>

#include "drivers/sample.hpp"

namespace opticsd {
namespace {

TEST(CopyOnWrite, UnsetReadsAsNoThresholdsAndNoIdentity) {
  const Sample s;
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
    EXPECT_FALSE(s.thresholds(static_cast<ModuleMetric>(m))) << "absent, not a table of zeros";
  }
  for (std::size_t m = 0; m < kLaneMetricCount; ++m) EXPECT_FALSE(s.thresholds(static_cast<LaneMetric>(m)));
  EXPECT_EQ(s.identity(), ModuleIdentity{});
  EXPECT_FALSE(s.identity().wavelength_nm);
}

TEST(CopyOnWrite, CopiesShareAndAWriteClonesFirst) {
  Sample a;
  a.mutableIdentity().serial = "SN-A";
  a.mutableThresholds(LaneMetric::kRxPowerDbm) = Thresholds{3.0, 2.0, -10.0, -13.0};
  Sample b = a;
  EXPECT_TRUE(b.shared_identity.sharesWith(a.shared_identity));
  EXPECT_TRUE(b.shared_thresholds.sharesWith(a.shared_thresholds));

  b.mutableIdentity().serial = "SN-B";
  b.mutableThresholds(LaneMetric::kRxPowerDbm)->low_alarm = -20.0;
  EXPECT_EQ(a.identity().serial, "SN-A") << "a write through one copy never shows through another";
  EXPECT_EQ(a.thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -13.0);
  EXPECT_EQ(b.identity().serial, "SN-B");
  EXPECT_EQ(b.thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -20.0);
  EXPECT_FALSE(b.shared_identity.sharesWith(a.shared_identity));
  EXPECT_FALSE(b.thresholds(LaneMetric::kTxPowerDbm));
}

TEST(CopyOnWrite, UniqueOnlyWhenSetAndNotShared) {
  CopyOnWrite<ModuleThresholds> a;
  EXPECT_FALSE(a.unique());  // unset
  a.mutate();
  EXPECT_TRUE(a.unique());
  CopyOnWrite<ModuleThresholds> b = a;
  EXPECT_FALSE(a.unique());
  EXPECT_FALSE(b.unique());
  b.reset();
  EXPECT_TRUE(a.unique());
}

TEST(CopyOnWrite, ShareIfEqualSharesOnlyEqualValues) {
  CopyOnWrite<ModuleIdentity> a;
  CopyOnWrite<ModuleIdentity> b;
  a.mutate().serial = "SN1";
  b.mutate().serial = "SN1";
  EXPECT_FALSE(a.sharesWith(b));
  EXPECT_TRUE(b.shareIfEqual(a));
  EXPECT_TRUE(b.sharesWith(a));

  CopyOnWrite<ModuleIdentity> c;
  c.mutate().serial = "SN2";
  EXPECT_FALSE(c.shareIfEqual(a));
  EXPECT_EQ(c->serial, "SN2");

  // An empty table and no table read the same: sharing them changes nothing a reader sees.
  CopyOnWrite<ModuleThresholds> unset;
  CopyOnWrite<ModuleThresholds> empty;
  empty.mutate();
  EXPECT_TRUE(empty.shareIfEqual(unset));
  EXPECT_FALSE(empty->lane[0]);
}

}  // namespace
}  // namespace opticsd
