// Notifications as a target sends them, PROTO and JSON_IETF, into Samples.
#include "drivers/gnmi/notification_decoder.hpp"

#include <gtest/gtest.h>

namespace opticsd::gnmi {
namespace {

::gnmi::Path ocPath(std::string_view text) {
  ::gnmi::Path out;
  auto parsed = parsePath(text);
  EXPECT_TRUE(parsed) << text;
  for (const auto& e : parsed->elems) {
    auto* elem = out.add_elem();
    elem->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*elem->mutable_key())[k] = v;
  }
  return out;
}

class Decoding : public ::testing::Test {
 protected:
  Decoding()
      : variant_(*findVendorVariant("openconfig")),
        rules_(std::move(*LeafRules::compile(variant_.rules, variant_.origins))),
        state_(variant_, rules_),
        decoder_(state_) {}
  const VendorVariant& variant_;
  LeafRules rules_;
  TelemetryState state_;
  NotificationDecoder decoder_;
};

TEST_F(Decoding, ProtoDecimal64AndDoubleUnderAPrefix) {
  ::gnmi::Notification n;
  *n.mutable_prefix() = ocPath("/components/component[name=Ethernet1/1]/transceiver");
  auto* u1 = n.add_update();
  *u1->mutable_path() = ocPath("/physical-channels/channel[index=2]/state/input-power/instant");
  u1->mutable_val()->mutable_decimal_val()->set_digits(-312);
  u1->mutable_val()->mutable_decimal_val()->set_precision(2);
  auto* u2 = n.add_update();
  *u2->mutable_path() = ocPath("/physical-channels/channel[index=2]/state/laser-bias-current/instant");
  u2->mutable_val()->set_double_val(6.75);
  auto* u3 = n.add_update();
  *u3->mutable_path() = ocPath("/state/fec-uncorrectable-blocks");
  u3->mutable_val()->set_uint_val(18446744073709551000ull);  // exact beyond 2^53
  auto* u4 = n.add_update();
  *u4->mutable_path() = ocPath("/state/no-such-leaf");
  u4->mutable_val()->set_int_val(1);
  auto counts = decoder_.apply(n, 1000);
  EXPECT_EQ(counts.mapped, 3u);
  EXPECT_EQ(counts.unknown_paths, 1u);
  EXPECT_NE(counts.first_unknown_path.find("no-such-leaf"), std::string::npos);
  auto samples = state_.snapshot(1000, 0);
  ASSERT_EQ(samples.size(), 1u);
  ASSERT_EQ(samples[0].lanes.size(), 1u);
  EXPECT_EQ(samples[0].lanes[0].number, 3);
  EXPECT_DOUBLE_EQ(*samples[0].lanes[0].values[LaneMetric::kRxPowerDbm], -3.12);
  EXPECT_EQ(samples[0].lanes[0].values[LaneMetric::kTxBiasMilliamperes], 6.75);
  EXPECT_EQ(samples[0].fec.uncorrectable_blocks_total, 18446744073709551000ull);
}

TEST_F(Decoding, JsonIetfContainerExpandsIntoLeaves) {
  ::gnmi::Notification n;
  auto* u = n.add_update();
  *u->mutable_path() =
      ocPath("/components/component[name=Ethernet2/1]/transceiver/physical-channels/channel[index=0]/state");
  // JSON_IETF: decimal64 as a string, module-qualified member names.
  u->mutable_val()->set_json_ietf_val(
      R"({"openconfig-platform-transceiver:input-power":{"instant":"-2.50","avg":"-2.4"},)"
      R"("output-power":{"instant":1.25},"laser-bias-current":{"instant":"7.0"},"index":0})");
  auto counts = decoder_.apply(n, 1000);
  EXPECT_EQ(counts.mapped, 4u);         // avg has its own slot
  EXPECT_EQ(counts.unknown_paths, 1u);  // the list key leaf
  auto samples = state_.snapshot(1000, 0);
  ASSERT_EQ(samples.size(), 1u);
  ASSERT_EQ(samples[0].lanes.size(), 1u);
  EXPECT_EQ(samples[0].lanes[0].values[LaneMetric::kRxPowerDbm], -2.5);
  EXPECT_EQ(samples[0].lanes[0].values[LaneMetric::kRxPowerAvgDbm], -2.4);
  EXPECT_EQ(samples[0].lanes[0].values[LaneMetric::kTxPowerDbm], 1.25);
  EXPECT_EQ(samples[0].lanes[0].values[LaneMetric::kTxBiasMilliamperes], 7.0);
}

TEST_F(Decoding, BrokenJsonIsABadValueNotACrash) {
  ::gnmi::Notification n;
  auto* u = n.add_update();
  *u->mutable_path() = ocPath("/components/component[name=E1]/transceiver/state/vendor");
  u->mutable_val()->set_json_ietf_val("{\"a\":");
  auto counts = decoder_.apply(n, 1000);
  EXPECT_EQ(counts.bad_values, 1u);
  EXPECT_EQ(counts.mapped, 0u);
}

TEST_F(Decoding, LeafListOfChannelsAndDelete) {
  ::gnmi::Notification n;
  auto* a = n.add_update();
  *a->mutable_path() = ocPath("/interfaces/interface[name=Ethernet3/1]/state/physical-channel");
  for (int ch : {4, 5}) a->mutable_val()->mutable_leaflist_val()->add_element()->set_uint_val(ch);
  auto* b = n.add_update();
  *b->mutable_path() = ocPath("/interfaces/interface[name=Ethernet3/1]/state/transceiver");
  b->mutable_val()->set_string_val("X3");
  for (int ch = 0; ch < 8; ++ch) {
    auto* c = n.add_update();
    *c->mutable_path() =
        ocPath("/components/component[name=X3]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
               "]/state/output-power/instant");
    c->mutable_val()->set_double_val(1.0);
  }
  EXPECT_EQ(decoder_.apply(n, 1000).mapped, 10u);
  auto samples = state_.snapshot(1000, 0);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].port, "Ethernet3/1");
  ASSERT_EQ(samples[0].lanes.size(), 2u);
  EXPECT_EQ(samples[0].lanes[0].number, 5);

  ::gnmi::Notification gone;
  *gone.add_delete_() = ocPath("/components/component[name=X3]");
  decoder_.apply(gone, 2000);
  EXPECT_TRUE(state_.snapshot(2000, 0).empty());
}

}  // namespace
}  // namespace opticsd::gnmi
