// The bound on updates between two polls, as the stream's decode side and
// the poll's take side see it; the call registry the driver waits on.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "drivers/gnmi/subscribe_call.hpp"

namespace opticsd::gnmi {
namespace {

::gnmi::Notification channelPowers(int channels) {
  ::gnmi::Notification n;
  for (int ch = 0; ch < channels; ++ch) {
    auto* u = n.add_update();
    auto parsed =
        parsePath("/components/component[name=E1]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
                  "]/state/input-power/instant");
    for (const auto& e : parsed->elems) {
      auto* elem = u->mutable_path()->add_elem();
      elem->set_name(e.name);
      for (const auto& [k, v] : e.keys) (*elem->mutable_key())[k] = v;
    }
    u->mutable_val()->set_double_val(-2.0);
  }
  return n;
}

TEST(StreamCore, UpdatesBeyondTheBoundAreDroppedAndCounted) {
  const VendorVariant& v = *findVendorVariant("openconfig");
  StreamCore core(v, std::move(*LeafRules::compile(v.rules, v.origins)), 10);
  core.decode(channelPowers(8));  // 8: within the bound
  core.decode(channelPowers(4));  // 12 > 10: the whole notification is dropped
  auto taken = core.take(1000, 0);
  EXPECT_EQ(taken.updates, 8u);
  EXPECT_EQ(taken.dropped, 4u);
  EXPECT_EQ(taken.counts.mapped, 8u);
  ASSERT_EQ(taken.samples.size(), 1u);
  EXPECT_EQ(taken.samples[0].lanes.size(), 8u);
  // A new interval starts from zero.
  core.decode(channelPowers(4));
  auto next = core.take(2000, 0);
  EXPECT_EQ(next.updates, 4u);
  EXPECT_EQ(next.dropped, 0u);
}

// A call that ends leaves the cancel list before its context is freed, and
// the owner still waits for it until it says it has finished.
TEST(StreamCore, AForgottenCallIsNotCancelledButStillWaitedFor) {
  const VendorVariant& v = *findVendorVariant("openconfig");
  StreamCore core(v, std::move(*LeafRules::compile(v.rules, v.origins)), 10);
  EXPECT_TRUE(core.waitIdle(std::chrono::milliseconds(0)));
  auto ending = std::make_unique<grpc::ClientContext>();
  grpc::ClientContext running;
  core.track(ending.get());
  core.track(&running);
  core.forget(ending.get());
  ending.reset();    // as OnDone deletes the call with its context
  core.cancelAll();  // must not touch the freed context (ASan/valgrind would see it)
  EXPECT_FALSE(core.waitIdle(std::chrono::milliseconds(10)));
  core.finished();  // the ended call
  EXPECT_FALSE(core.waitIdle(std::chrono::milliseconds(10)));
  core.forget(&running);
  core.finished();
  EXPECT_TRUE(core.waitIdle(std::chrono::milliseconds(0)));
}

}  // namespace
}  // namespace opticsd::gnmi
