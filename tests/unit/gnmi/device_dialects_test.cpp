// gNMI as devices send it rather than as our own target writes it: RFC 7951
// module-qualified element names in paths and prefixes, origins, channels
// numbered from 1, every TypedValue kind, Junos native optics, and the
// explain trace. Notifications are built here from the gNMI 0.10
// specification, RFC 7951, openconfig-platform-transceiver and Juniper's
// optics.proto field names, never from captures.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "drivers/gnmi/notification_decoder.hpp"

namespace opticsd::gnmi {
namespace {

::gnmi::Path protoPath(std::string_view text) {
  ::gnmi::Path out;
  auto parsed = parsePath(text);
  EXPECT_TRUE(parsed) << text;
  out.set_origin(parsed->origin);
  for (const auto& e : parsed->elems) {
    auto* elem = out.add_elem();
    elem->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*elem->mutable_key())[k] = v;
  }
  return out;
}

class Device {
 public:
  explicit Device(std::string_view variant, std::optional<int> channel_base = std::nullopt)
      : variant_(*findVendorVariant(variant)),
        rules_(std::move(*LeafRules::compile(variant_.rules, variant_.origins))),
        state_(variant_, rules_, StateLimits{}, channel_base),
        decoder_(state_) {
    decoder_.setTrace(&trace_);
  }
  // One update of `path` (below `prefix`) with `value`.
  DecodeCounts send(std::string_view prefix, std::string_view path, const ::gnmi::TypedValue& value) {
    ::gnmi::Notification n;
    if (!prefix.empty()) *n.mutable_prefix() = protoPath(prefix);
    auto* u = n.add_update();
    *u->mutable_path() = protoPath(path);
    *u->mutable_val() = value;
    return decoder_.apply(n, 1000);
  }
  DecodeCounts number(std::string_view prefix, std::string_view path, double v) {
    ::gnmi::TypedValue t;
    t.set_double_val(v);
    return send(prefix, path, t);
  }
  std::vector<Sample> samples() { return state_.snapshot(2000, 0); }
  const std::string& outcome(const std::string& path) {
    static const std::string kNone = "(not traced)";
    auto it = trace_.outcome_by_path.find(path);
    return it == trace_.outcome_by_path.end() ? kNone : it->second;
  }
  TelemetryState& state() { return state_; }

 private:
  const VendorVariant& variant_;
  LeafRules rules_;
  TelemetryState state_;
  NotificationDecoder decoder_;
  DecodeTrace trace_;
};

const Sample* port(const std::vector<Sample>& samples, std::string_view name) {
  for (const auto& s : samples) {
    if (s.port == name) return &s;
  }
  return nullptr;
}

const Lane* laneOf(const Sample& s, int number) {
  for (const auto& l : s.lanes) {
    if (l.number == number) return &l;
  }
  return nullptr;
}

::gnmi::TypedValue bytesOf(const void* data, std::size_t n, bool big_endian = true) {
  std::string bytes(static_cast<const char*>(data), n);
  if (big_endian && std::endian::native == std::endian::little) std::reverse(bytes.begin(), bytes.end());
  ::gnmi::TypedValue t;
  t.set_bytes_val(bytes);
  return t;
}

// ---- Item 1: names with or without the module, origins.

TEST(GnmiPathNames, SameNodeWithOrWithoutModulePrefix) {
  EXPECT_TRUE(sameNode("components", "openconfig-platform:components"));
  EXPECT_TRUE(sameNode("openconfig-platform:components", "components"));
  EXPECT_TRUE(sameNode("openconfig-platform:components", "openconfig-platform:components"));
  EXPECT_FALSE(sameNode("openconfig-platform:components", "acme-platform:components"));
  EXPECT_FALSE(sameNode("components", "openconfig-platform:component"));
  EXPECT_EQ(localName("openconfig-platform-transceiver:transceiver"), "transceiver");
}

TEST(GnmiDialects, ModuleQualifiedNamesInPrefixAndPathMap) {
  Device d("openconfig");
  // RFC 7951 section 4: the first element and each whose module changes are qualified.
  const std::string prefix =
      "rfc7951:/openconfig-platform:components/component[name=xcvr-1]/openconfig-platform-transceiver:transceiver";
  for (int ch = 1; ch <= 4; ++ch) {
    auto c = d.number(prefix,
                      "/physical-channels/channel[index=" + std::to_string(ch) +
                          "]/state/openconfig-platform-transceiver:input-power/instant",
                      -2.0 - ch);
    EXPECT_EQ(c.mapped, 1u) << ch;
  }
  auto samples = d.samples();
  const Sample* s = port(samples, "xcvr-1");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 4u);
  // Channels 1..4 with no 0: 1-based, channel 1 is lane 1.
  EXPECT_EQ(laneOf(*s, 1)->values[LaneMetric::kRxPowerDbm], -3.0);
  EXPECT_EQ(laneOf(*s, 4)->values[LaneMetric::kRxPowerDbm], -6.0);
}

TEST(GnmiDialects, OpenConfigOriginsAcceptedAVendorOriginIgnoredWithAReason) {
  Device d("openconfig");
  const std::string leaf = "/components/component[name=x]/state/temperature/instant";
  EXPECT_EQ(d.number("", "openconfig:" + leaf, 40).mapped, 1u);
  EXPECT_EQ(d.number("", leaf, 40).mapped, 1u);
  EXPECT_EQ(d.number("", "rfc7951:" + leaf, 40).mapped, 1u);
  // The prefix's origin holds for its paths (gNMI 0.10 section 2.4.1).
  EXPECT_EQ(d.number("openconfig:/components", "/component[name=x]/state/temperature/instant", 40).mapped, 1u);
  auto c = d.number("", "acme-native:" + leaf, 40);
  EXPECT_EQ(c.mapped, 0u);
  EXPECT_EQ(c.unknown_paths, 1u);
  EXPECT_NE(d.outcome("acme-native:" + leaf).find("origin 'acme-native'"), std::string::npos)
      << d.outcome("acme-native:" + leaf);
}

TEST(GnmiDialects, QualifiedDeleteErasesTheComponent) {
  Device d("openconfig");
  d.number("", "/components/component[name=x]/transceiver/state/supply-voltage/instant", 3.3);
  ASSERT_EQ(d.samples().size(), 1u);
  ::gnmi::Notification n;
  *n.add_delete_() = protoPath("/openconfig-platform:components/component[name=x]");
  NotificationDecoder(d.state()).apply(n, 1500);
  EXPECT_TRUE(d.samples().empty());
}

// ---- Item 2: the channel base, per device.

TEST(GnmiChannelBase, ZeroBasedDetected) {
  Device d("openconfig");
  for (int ch = 0; ch < 4; ++ch) {
    d.number("",
             "/components/component[name=a]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
                 "]/state/output-power/instant",
             ch);
  }
  auto base = d.state().channelBase();
  EXPECT_EQ(base.base, 0);
  EXPECT_EQ(base.source, ChannelBase::Source::kDetected);
  auto samples = d.samples();
  const Sample* s = port(samples, "a");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(laneOf(*s, 1)->values[LaneMetric::kTxPowerDbm], 0.0);
  EXPECT_EQ(laneOf(*s, 4)->values[LaneMetric::kTxPowerDbm], 3.0);
}

TEST(GnmiChannelBase, DisagreeingModulesAreAmbiguousAndKeepTheDefault) {
  Device d("openconfig");
  for (int ch = 0; ch < 4; ++ch) {
    d.number("",
             "/components/component[name=a]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
                 "]/state/output-power/instant",
             1);
    d.number("",
             "/components/component[name=b]/transceiver/physical-channels/channel[index=" + std::to_string(ch + 1) +
                 "]/state/output-power/instant",
             1);
  }
  auto base = d.state().channelBase();
  EXPECT_EQ(base.source, ChannelBase::Source::kAmbiguous);
  EXPECT_EQ(base.base, 0);  // the openconfig variant's documented default
  EXPECT_NE(base.why.find("ambiguous"), std::string::npos) << base.why;
}

TEST(GnmiChannelBase, HoleOrOddStartIsAmbiguous) {
  Device d("openconfig");
  for (int ch : {2, 3}) {
    d.number("",
             "/components/component[name=a]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
                 "]/state/output-power/instant",
             1);
  }
  EXPECT_EQ(d.state().channelBase().source, ChannelBase::Source::kAmbiguous);
}

TEST(GnmiChannelBase, OverrideWins) {
  Device d("openconfig", 1);
  for (int ch = 0; ch < 4; ++ch) {
    d.number("",
             "/components/component[name=a]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
                 "]/state/output-power/instant",
             ch);
  }
  auto base = d.state().channelBase();
  EXPECT_EQ(base.source, ChannelBase::Source::kOverride);
  auto samples = d.samples();
  const Sample* s = port(samples, "a");
  ASSERT_NE(s, nullptr);
  // Channel 0 has no lane under a 1-based override; channel 1 is lane 1.
  EXPECT_EQ(s->lanes.size(), 3u);
  EXPECT_EQ(laneOf(*s, 1)->values[LaneMetric::kTxPowerDbm], 1.0);
}

TEST(GnmiChannelBase, InterfaceChannelsFollowTheDetectedBase) {
  Device d("openconfig");
  for (int ch = 1; ch <= 4; ++ch) {
    d.number("",
             "/components/component[name=x]/transceiver/physical-channels/channel[index=" + std::to_string(ch) +
                 "]/state/input-power/instant",
             -ch);
  }
  ::gnmi::TypedValue name;
  name.set_string_val("x");
  d.send("", "/interfaces/interface[name=Ethernet1/2]/state/transceiver", name);
  ::gnmi::TypedValue channels;
  for (int ch : {3, 4}) channels.mutable_leaflist_val()->add_element()->set_uint_val(ch);
  d.send("", "/interfaces/interface[name=Ethernet1/2]/state/physical-channel", channels);
  auto samples = d.samples();
  const Sample* s = port(samples, "Ethernet1/2");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 2u);
  EXPECT_EQ(s->lanes[0].number, 3);
  EXPECT_EQ(s->lanes[0].values[LaneMetric::kRxPowerDbm], -3.0);
}

// ---- Item 3: every TypedValue kind decodes or is refused with a reason.

TEST(GnmiTypedValue, EveryKind) {
  auto number = [](const ::gnmi::TypedValue& t) -> std::optional<double> {
    auto v = scalarValue(t);
    if (!v || (v->kind != LeafValue::Kind::kNumber && v->kind != LeafValue::Kind::kCount)) return std::nullopt;
    return v->number;
  };
  const float f = -2.5f;
  EXPECT_EQ(number(bytesOf(&f, 4)), -2.5);
  const double g = -12.125;
  EXPECT_EQ(number(bytesOf(&g, 8)), -12.125);
  ::gnmi::TypedValue t;
  t.set_float_val(1.5f);
  EXPECT_EQ(number(t), 1.5);
  t.set_double_val(-0.25);
  EXPECT_EQ(number(t), -0.25);
  t.mutable_decimal_val()->set_digits(-1234);
  t.mutable_decimal_val()->set_precision(3);
  EXPECT_DOUBLE_EQ(*number(t), -1.234);
  t.set_int_val(-7);
  EXPECT_EQ(number(t), -7.0);
  t.set_uint_val(7);
  EXPECT_EQ(scalarValue(t)->count, 7u);
  t.set_bool_val(true);
  EXPECT_TRUE(scalarValue(t)->flag);
  t.set_string_val("UP");
  EXPECT_EQ(scalarValue(t)->text, "UP");
  t.set_ascii_val("x");
  EXPECT_EQ(scalarValue(t)->text, "x");
  ::gnmi::TypedValue list;
  list.mutable_leaflist_val()->add_element()->set_uint_val(0);
  list.mutable_leaflist_val()->add_element()->set_int_val(1);
  EXPECT_EQ(scalarValue(list)->numbers, (std::vector<double>{0, 1}));

  // Refused, each with its reason.
  const char three[3] = {1, 2, 3};
  auto odd = bytesOf(three, 3, false);
  EXPECT_FALSE(scalarValue(odd));
  EXPECT_NE(refusalReason(odd).find("3 bytes"), std::string::npos);
  ::gnmi::TypedValue proto;
  proto.set_proto_bytes("\x08\x01");
  EXPECT_FALSE(scalarValue(proto));
  EXPECT_NE(refusalReason(proto).find("proto_bytes"), std::string::npos);
  ::gnmi::TypedValue empty;
  EXPECT_FALSE(scalarValue(empty));
  EXPECT_NE(refusalReason(empty).find("any_val"), std::string::npos);
  ::gnmi::TypedValue text_list;
  text_list.mutable_leaflist_val()->add_element()->set_string_val("a");
  EXPECT_FALSE(scalarValue(text_list));
}

TEST(GnmiTypedValue, JsonWithNumbersAsStringsAndJsonVal) {
  Device d("openconfig");
  ::gnmi::TypedValue t;
  t.set_json_val(R"({"instant":"41.5"})");
  EXPECT_EQ(d.send("", "/components/component[name=x]/state/temperature", t).mapped, 1u);
  t.set_json_ietf_val(R"({"openconfig-platform-transceiver:instant":"3.31"})");
  EXPECT_EQ(d.send("", "/components/component[name=x]/transceiver/state/supply-voltage", t).mapped, 1u);
  auto samples = d.samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].module[ModuleMetric::kTemperatureCelsius], 41.5);
  EXPECT_EQ(samples[0].module[ModuleMetric::kSupplyVoltageVolts], 3.31);
}

TEST(GnmiTypedValue, RefusedValueIsTracedWithItsReason) {
  Device d("openconfig");
  const char five[5] = {};
  auto c = d.send("", "/components/component[name=x]/state/temperature/instant", bytesOf(five, 5, false));
  EXPECT_EQ(c.bad_values, 1u);
  EXPECT_NE(d.outcome("/components/component[name=x]/state/temperature/instant").find("5 bytes"), std::string::npos);
}

// ---- Item 3: Junos native optics (JTI), float32 in bytes_val next to typed fields.

TEST(GnmiJunos, NativeOpticsSensorWithFloat32Bytes) {
  Device d("junos");
  const std::string prefix = "/interfaces/interface[name=et-0/0/0]/optics";
  EXPECT_EQ(d.number(prefix, "/module_temp", 38.5).mapped, 1u);
  for (int lane = 0; lane < 4; ++lane) {
    const std::string l = "/lanediags/lane[lane_number=" + std::to_string(lane) + "]";
    const float rx = -1.25f - static_cast<float>(lane);
    EXPECT_EQ(d.send(prefix, l + "/lane_laser_receiver_power_dbm", bytesOf(&rx, 4)).mapped, 1u);
    const float tx = 0.5f;
    EXPECT_EQ(d.send(prefix, l + "/lane_laser_output_power_dbm", bytesOf(&tx, 4)).mapped, 1u);
    EXPECT_EQ(d.number(prefix, l + "/lane_laser_bias_current", 6.5).mapped, 1u);
    ::gnmi::TypedValue los;
    los.set_bool_val(lane == 2);
    EXPECT_EQ(d.send(prefix, l + "/lane_rx_loss_of_signal_alarm", los).mapped, 1u);
  }
  EXPECT_EQ(d.number(prefix, "/laser_rx_power_low_alarm_threshold_dbm", -14.0).mapped, 1u);
  EXPECT_EQ(d.number(prefix, "/laser_rx_power_low_warning_threshold_dbm", -12.0).mapped, 1u);
  EXPECT_EQ(d.number(prefix, "/module_temp_high_alarm_threshold", 75).mapped, 1u);
  auto samples = d.samples();
  const Sample* s = port(samples, "et-0/0/0");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->module[ModuleMetric::kTemperatureCelsius], 38.5);
  ASSERT_EQ(s->lanes.size(), 4u);
  EXPECT_EQ(laneOf(*s, 1)->values[LaneMetric::kRxPowerDbm], -1.25);  // lane_number 0 is lane 1
  EXPECT_EQ(laneOf(*s, 4)->values[LaneMetric::kRxPowerDbm], -4.25);
  EXPECT_EQ(laneOf(*s, 4)->values[LaneMetric::kTxBiasMilliamperes], 6.5);
  EXPECT_EQ(laneOf(*s, 3)->status.rx_los, true);
  EXPECT_EQ(laneOf(*s, 1)->status.rx_los, false);
  const auto& rx = s->shared_thresholds->lane[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)];
  ASSERT_TRUE(rx);
  EXPECT_EQ(rx->low_alarm, -14.0);
  EXPECT_EQ(rx->low_warning, -12.0);
  const auto& temp = s->shared_thresholds->module[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)];
  ASSERT_TRUE(temp);
  EXPECT_EQ(temp->high_alarm, 75.0);
}

// ---- Item 6: the trace names the rule or the reason.

TEST(GnmiExplain, MappedPathNamesItsRuleIgnoredPathSaysWhy) {
  Device d("openconfig");
  d.number("", "/components/component[name=x]/state/temperature/instant", 40);
  d.number("", "/components/component[name=x]/state/temperature/avg", 40);
  d.number("", "/components/component[name=x]/transceiver/physical-channels/channel[index=a]/state/input-power/instant",
           -1);
  EXPECT_NE(d.outcome("/components/component[name=x]/state/temperature/instant").find("mapped by /components"),
            std::string::npos);
  d.number("", "/components/component[name=x]/state/temperature/peak", 40);
  EXPECT_NE(d.outcome("/components/component[name=x]/state/temperature/peak").find("no rule for leaf 'peak'"),
            std::string::npos);
  // 'avg' has rules (the channel statistics), none under a component's temperature: the nearest says what differs.
  EXPECT_NE(d.outcome("/components/component[name=x]/state/temperature/avg").find("rules for leaf 'avg'"),
            std::string::npos)
      << d.outcome("/components/component[name=x]/state/temperature/avg");
  EXPECT_NE(d.outcome("/components/component[name=x]/transceiver/physical-channels/channel[index=a]/state/"
                      "input-power/instant")
                .find("not a number"),
            std::string::npos);
}

}  // namespace
}  // namespace opticsd::gnmi

namespace opticsd::gnmi {
namespace {

// ---- Item 4: IOS-XR native optics, lane-data keyless (PROTO) and as JSON_IETF entries.

TEST(GnmiIosXr, KeylessLaneDataInProtoTakesTheLaneIndexBeforeIt) {
  Device d("iosxr");
  ::gnmi::Notification n;
  *n.mutable_prefix() = protoPath(
      "Cisco-IOS-XR-controller-optics-oper:/optics-oper/optics-ports/optics-port[name=Optics0/0/0/1]/"
      "optics-info");
  auto add = [&](std::string_view path, auto set) {
    auto* u = n.add_update();
    *u->mutable_path() = protoPath(path);
    set(*u->mutable_val());
  };
  for (int lane = 1; lane <= 4; ++lane) {
    add("/lane-data/lane-index", [&](auto& v) { v.set_uint_val(lane); });
    add("/lane-data/receive-power", [&](auto& v) { v.set_int_val(-250 - lane); });  // 0.01 dBm
    add("/lane-data/transmit-power", [&](auto& v) { v.set_int_val(110); });
    add("/lane-data/laser-bias-current-milli-amps", [&](auto& v) { v.set_uint_val(7); });
  }
  add("/transceiver-info/vendor-name", [&](auto& v) { v.set_string_val("CISCO-ACME"); });
  NotificationDecoder decoder(d.state());
  auto counts = decoder.apply(n, 1000);
  EXPECT_EQ(counts.mapped, 13u);
  auto samples = d.samples();
  const Sample* s = port(samples, "Optics0/0/0/1");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 4u);
  EXPECT_DOUBLE_EQ(*laneOf(*s, 1)->values[LaneMetric::kRxPowerDbm], -2.51);  // lane-index 1..4: 1-based
  EXPECT_DOUBLE_EQ(*laneOf(*s, 4)->values[LaneMetric::kRxPowerDbm], -2.54);
  EXPECT_DOUBLE_EQ(*laneOf(*s, 2)->values[LaneMetric::kTxPowerDbm], 1.1);
  EXPECT_EQ(laneOf(*s, 3)->values[LaneMetric::kTxBiasMilliamperes], 7.0);
  EXPECT_EQ(s->identity().vendor, "CISCO-ACME");
}

TEST(GnmiIosXr, JsonIetfListEntriesGetTheirKeys) {
  Device d("iosxr");
  ::gnmi::TypedValue t;
  t.set_json_ietf_val(R"({"lane-data":[{"lane-index":0,"receive-power":-300,"transmit-power":50},)"
                      R"({"lane-index":1,"receive-power":-310,"transmit-power":51}]})");
  auto c = d.send(
      "", "/Cisco-IOS-XR-controller-optics-oper:optics-oper/optics-ports/optics-port[name=Optics0/0/0/2]/optics-info",
      t);
  EXPECT_EQ(c.mapped, 4u);
  auto samples = d.samples();
  const Sample* s = port(samples, "Optics0/0/0/2");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 2u);
  EXPECT_DOUBLE_EQ(*laneOf(*s, 1)->values[LaneMetric::kRxPowerDbm], -3.0);  // {0,1}: 0-based
  EXPECT_DOUBLE_EQ(*laneOf(*s, 2)->values[LaneMetric::kTxPowerDbm], 0.51);
}

TEST(GnmiJsonLists, OpenConfigChannelArrayUnderTheTransceiver) {
  Device d("openconfig");
  ::gnmi::TypedValue t;
  t.set_json_ietf_val(
      R"({"openconfig-platform-transceiver:physical-channels":{"channel":[)"
      R"({"index":1,"state":{"input-power":{"instant":"-1.5"}}},{"index":2,"state":{"input-power":{"instant":"-1.6"}}}]}})");
  auto c =
      d.send("", "/openconfig-platform:components/component[name=t]/openconfig-platform-transceiver:transceiver", t);
  EXPECT_EQ(c.mapped, 2u);
  auto samples = d.samples();
  const Sample* s = port(samples, "t");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 2u);
  EXPECT_EQ(laneOf(*s, 2)->values[LaneMetric::kRxPowerDbm], -1.6);
}

}  // namespace
}  // namespace opticsd::gnmi
