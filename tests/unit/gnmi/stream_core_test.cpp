// The bound on updates between two polls, as the stream's decode side and
// the poll's take side see it.
#include <gtest/gtest.h>

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
  StreamCore core(v, std::move(*LeafRules::compile(v.rules)), 10);
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

}  // namespace
}  // namespace opticsd::gnmi
