// The hysteresis of a module's rule slots is held only while a slot counts
// or is active: what a fresh slot reads as, and when a slot is let go.
#include "daemon/rules/hysteresis_slots.hpp"

#include <gtest/gtest.h>

namespace opticsd {
namespace {

TEST(HysteresisSlots, ASlotNotHeldReadsFreshAndIdle) {
  const HysteresisSlots slots;
  EXPECT_TRUE(slots.get(7).fresh());
  EXPECT_TRUE(slots.idle(7));
  EXPECT_TRUE(slots.allIdle());
  EXPECT_EQ(slots.capacity(), 0u);
}

TEST(HysteresisSlots, ABreachIsHeldPerSlotAndAFreshStateLetsItGo) {
  HysteresisSlots slots;
  slots.set(3, Hysteresis{1, 0, Severity::kNone});
  slots.set(40, Hysteresis{2, 0, Severity::kWarning});
  EXPECT_EQ(slots.held(), 2u);
  EXPECT_EQ(slots.get(3).breach, 1);
  EXPECT_EQ(slots.get(40).active, Severity::kWarning);
  EXPECT_TRUE(slots.get(4).fresh());  // a neighbouring slot is not touched
  EXPECT_FALSE(slots.idle(3));
  EXPECT_FALSE(slots.allIdle());

  slots.set(3, Hysteresis{});
  EXPECT_EQ(slots.held(), 1u);
  EXPECT_TRUE(slots.idle(3));
  EXPECT_FALSE(slots.allIdle());  // slot 40 is still active
  slots.set(40, Hysteresis{});
  EXPECT_TRUE(slots.allIdle());
  EXPECT_EQ(slots.capacity(), 0u);  // a healed module holds no memory
}

TEST(HysteresisSlots, AClearingCountIsKeptAndCountsAsBusy) {
  HysteresisSlots slots;
  slots.set(5, Hysteresis{0, 2, Severity::kCritical});  // active, two clean polls so far
  EXPECT_EQ(slots.get(5).clean, 2);
  EXPECT_FALSE(slots.allIdle());
  // Cleared, but with a count left: kept (read back as it was), yet idle.
  slots.set(5, Hysteresis{0, 1, Severity::kNone});
  EXPECT_EQ(slots.get(5).clean, 1);
  EXPECT_TRUE(slots.idle(5));
  EXPECT_TRUE(slots.allIdle());
  EXPECT_EQ(slots.held(), 1u);
}

TEST(HysteresisSlots, ClearForgetsEverySlot) {
  HysteresisSlots slots;
  for (std::uint16_t s = 0; s < 20; ++s) slots.set(s, Hysteresis{1, 0, Severity::kNone});
  EXPECT_EQ(slots.held(), 20u);
  slots.clear();
  EXPECT_TRUE(slots.allIdle());
  EXPECT_EQ(slots.held(), 0u);
  EXPECT_TRUE(slots.get(10).fresh());
}

}  // namespace
}  // namespace opticsd
