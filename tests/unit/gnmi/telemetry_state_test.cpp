// Path -> Sample mapping, per vendor variant, through the TelemetryState.
#include "drivers/gnmi/telemetry_state.hpp"

#include <gtest/gtest.h>

namespace opticsd::gnmi {
namespace {

class Mapping {
 public:
  explicit Mapping(std::string_view variant_name)
      : variant_(*findVendorVariant(variant_name)), rules_(compiled(variant_)), state_(variant_, rules_) {}

  Applied set(std::string_view path, LeafValue value) {
    auto parsed = parsePath(path);
    EXPECT_TRUE(parsed) << path;
    return state_.apply(*parsed, value, 1000);
  }
  Applied num(std::string_view path, double v) { return set(path, LeafValue::ofNumber(v)); }
  Applied text(std::string_view path, std::string v) { return set(path, LeafValue::ofText(std::move(v))); }
  std::vector<Sample> samples(std::int64_t now_ms = 2000) { return state_.snapshot(now_ms, 30000); }
  TelemetryState& state() { return state_; }

 private:
  static LeafRules compiled(const VendorVariant& v) {
    auto r = LeafRules::compile(v.rules);
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(*r);
  }
  const VendorVariant& variant_;
  LeafRules rules_;
  TelemetryState state_;
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

constexpr const char* kComp = "/components/component[name=Ethernet1/1]";

TEST(GnmiMapping, EveryVariantCompiles) {
  for (const auto& v : vendorVariants()) {
    auto r = LeafRules::compile(v.rules);
    EXPECT_TRUE(r) << v.name << ": " << (r ? "" : r.error().message);
    for (auto p : v.sample_paths) EXPECT_TRUE(parsePath(p)) << p;
    for (auto p : v.on_change_paths) EXPECT_TRUE(parsePath(p)) << p;
  }
}

TEST(GnmiMapping, OpenConfigTransceiverOnItsInterfaceWithLanes) {
  Mapping m("openconfig");
  const std::string c = kComp;
  EXPECT_EQ(m.num(c + "/state/temperature/instant", 41.5), Applied::kMapped);
  EXPECT_EQ(m.num(c + "/transceiver/state/supply-voltage/instant", 3.29), Applied::kMapped);
  EXPECT_EQ(m.text(c + "/transceiver/state/form-factor", "oc-opt-types:OSFP"), Applied::kMapped);
  EXPECT_EQ(m.text(c + "/transceiver/state/vendor", "ACME"), Applied::kMapped);
  EXPECT_EQ(m.text(c + "/transceiver/state/vendor-part", "OSFP-800G-DR8"), Applied::kMapped);
  EXPECT_EQ(m.text(c + "/transceiver/state/serial-no", "SN123"), Applied::kMapped);
  EXPECT_EQ(m.text(c + "/transceiver/state/ethernet-pmd", "oc-opt-types:ETH_800GBASE_DR8"), Applied::kMapped);
  EXPECT_EQ(m.text(c + "/transceiver/state/present", "PRESENT"), Applied::kMapped);
  for (int ch = 0; ch < 8; ++ch) {
    const std::string p = c + "/transceiver/physical-channels/channel[index=" + std::to_string(ch) + "]/state";
    EXPECT_EQ(m.num(p + "/input-power/instant", -1.0 - ch * 0.1), Applied::kMapped);
    EXPECT_EQ(m.num(p + "/output-power/instant", 1.5), Applied::kMapped);
    EXPECT_EQ(m.num(p + "/laser-bias-current/instant", 7.25), Applied::kMapped);
  }
  EXPECT_EQ(m.text("/interfaces/interface[name=Ethernet1/1]/state/transceiver", "Ethernet1/1"), Applied::kMapped);
  EXPECT_EQ(m.text("/interfaces/interface[name=Ethernet1/1]/state/oper-status", "UP"), Applied::kMapped);

  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  const Sample& s = samples[0];
  EXPECT_EQ(s.port, "Ethernet1/1");
  EXPECT_EQ(s.identity.form_factor, "OSFP");
  EXPECT_EQ(s.identity.family, ModuleFamily::kCmis);
  EXPECT_EQ(s.identity.media, "800GBASE-DR8");
  EXPECT_EQ(s.identity.vendor, "ACME");
  EXPECT_EQ(s.identity.part_number, "OSFP-800G-DR8");
  EXPECT_EQ(s.identity.serial, "SN123");
  EXPECT_TRUE(s.module_present);
  EXPECT_EQ(s.module[ModuleMetric::kTemperatureCelsius], 41.5);
  EXPECT_EQ(s.module[ModuleMetric::kSupplyVoltageVolts], 3.29);
  EXPECT_EQ(s.link.up, true);
  ASSERT_EQ(s.lanes.size(), 8u);
  EXPECT_EQ(s.lanes[0].number, 1);  // channel index 0 is lane 1
  EXPECT_DOUBLE_EQ(*s.lanes[7].values[LaneMetric::kRxPowerDbm], -1.7);
  EXPECT_EQ(s.lanes[7].values[LaneMetric::kTxBiasMilliamperes], 7.25);
  EXPECT_EQ(s.lanes[0].status.rx_no_light, false);
  EXPECT_TRUE(s.issues.empty());
}

TEST(GnmiMapping, BreakoutInterfacesGetTheirOwnLanes) {
  Mapping m("openconfig");
  const std::string c = "/components/component[name=Port1]";
  for (int ch = 0; ch < 8; ++ch) {
    m.num(c + "/transceiver/physical-channels/channel[index=" + std::to_string(ch) + "]/state/input-power/instant",
          -2.0);
  }
  m.text(c + "/transceiver/state/form-factor", "OSFP");
  m.text("/interfaces/interface[name=Ethernet1/1]/state/transceiver", "Port1");
  m.set("/interfaces/interface[name=Ethernet1/1]/state/physical-channel", LeafValue::ofNumbers({0, 1, 2, 3}));
  m.text("/interfaces/interface[name=Ethernet1/5]/state/transceiver", "Port1");
  m.set("/interfaces/interface[name=Ethernet1/5]/state/physical-channel", LeafValue::ofNumbers({4, 5, 6, 7}));
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 2u);
  const Sample* second = port(samples, "Ethernet1/5");
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(second->lanes.size(), 4u);
  EXPECT_EQ(second->lanes.front().number, 5);
  EXPECT_EQ(second->lanes.back().number, 8);
}

TEST(GnmiMapping, ThresholdsBySeverity) {
  Mapping m("openconfig");
  const std::string t = std::string(kComp) + "/transceiver/thresholds/threshold[severity=";
  m.text(std::string(kComp) + "/transceiver/state/form-factor", "QSFP_DD");
  m.num(t + "oc-alarm-types:MAJOR]/state/input-power-lower", -13.0);  // filled in, then overridden
  m.num(t + "CRITICAL]/state/input-power-lower", -12.0);
  m.num(t + "WARNING]/state/input-power-lower", -9.0);
  m.num(t + "CRITICAL]/state/module-temperature-upper", 80.0);
  m.num(t + "MINOR]/state/module-temperature-upper", 70.0);
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  const auto& rx = samples[0].thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx);
  EXPECT_EQ(rx->low_alarm, -12.0);
  EXPECT_EQ(rx->low_warning, -9.0);
  EXPECT_FALSE(rx->high_alarm);
  const auto& temp = samples[0].thresholds(ModuleMetric::kTemperatureCelsius);
  ASSERT_TRUE(temp);
  EXPECT_EQ(temp->high_alarm, 80.0);
  EXPECT_EQ(temp->high_warning, 70.0);
  EXPECT_EQ(samples[0].identity.form_factor, "QSFP-DD");
}

TEST(GnmiMapping, ZeroPowerOnADownLinkIsDarkNotOneMilliwatt) {
  Mapping m("openconfig");
  const std::string ch = std::string(kComp) + "/transceiver/physical-channels/channel[index=0]/state";
  m.num(ch + "/input-power/instant", 0.0);
  m.num(ch + "/output-power/instant", 0.0);
  m.text("/interfaces/interface[name=Ethernet1/1]/state/transceiver", "Ethernet1/1");
  m.text("/interfaces/interface[name=Ethernet1/1]/state/oper-status", "DOWN");
  auto down = m.samples();
  ASSERT_EQ(down.size(), 1u);
  ASSERT_EQ(down[0].lanes.size(), 1u);
  EXPECT_EQ(down[0].lanes[0].values[LaneMetric::kRxPowerDbm], kNoLightFloorDbm);
  EXPECT_EQ(down[0].lanes[0].status.rx_no_light, true);
  EXPECT_EQ(down[0].link.up, false);

  m.text("/interfaces/interface[name=Ethernet1/1]/state/oper-status", "UP");
  auto up = m.samples();
  EXPECT_EQ(up[0].lanes[0].values[LaneMetric::kRxPowerDbm], 0.0);  // a real 0 dBm on a live link
  EXPECT_EQ(up[0].lanes[0].status.rx_no_light, false);
}

TEST(GnmiMapping, BelowTheFloorIsTheFloorWithNoLight) {
  Mapping m("openconfig");
  m.num(std::string(kComp) + "/transceiver/physical-channels/channel[index=0]/state/input-power/instant", -60.0);
  auto s = m.samples();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].lanes[0].values[LaneMetric::kRxPowerDbm], kNoLightFloorDbm);
  EXPECT_EQ(s[0].lanes[0].status.rx_no_light, true);
}

TEST(GnmiMapping, UnknownPathsAndBadValuesAreCountedNotGuessed) {
  Mapping m("openconfig");
  EXPECT_EQ(m.num("/system/state/boot-time", 5), Applied::kUnknownPath);
  EXPECT_EQ(m.num(std::string(kComp) + "/transceiver/state/vendor-oui", 5), Applied::kUnknownPath);
  EXPECT_EQ(m.text(std::string(kComp) + "/transceiver/state/supply-voltage/instant", "N/A"), Applied::kBadValue);
  EXPECT_EQ(m.num(std::string(kComp) + "/transceiver/physical-channels/channel[index=x]/state/input-power/instant", 1),
            Applied::kUnknownPath);
  EXPECT_EQ(m.num(std::string(kComp) + "/transceiver/physical-channels/channel[index=99]/state/input-power/instant", 1),
            Applied::kBadValue);  // beyond the lane bound
  EXPECT_TRUE(m.samples().empty());
}

TEST(GnmiMapping, ChassisSensorsAreNotModules) {
  Mapping m("openconfig");
  m.num("/components/component[name=CPU0]/state/temperature/instant", 55);
  EXPECT_TRUE(m.samples().empty());
}

TEST(GnmiMapping, ModuleRemovedAndAbsent) {
  Mapping m("openconfig");
  m.text(std::string(kComp) + "/transceiver/state/present", "NOT_PRESENT");
  auto s = m.samples();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_FALSE(s[0].module_present);
  m.state().erase(*parsePath(kComp));
  EXPECT_TRUE(m.samples().empty());
}

TEST(GnmiMapping, StaleValuesSaySo) {
  Mapping m("openconfig");
  m.num(std::string(kComp) + "/transceiver/state/supply-voltage/instant", 3.3);
  EXPECT_TRUE(m.samples(2000)[0].issues.empty());
  auto later = m.samples(1000 + 31000);
  ASSERT_EQ(later[0].issues.size(), 1u);
  EXPECT_NE(later[0].issues[0].find("31 s ago"), std::string::npos);
}

TEST(GnmiMapping, EntityBoundHoldsAgainstAFloodOfNames) {
  const VendorVariant& v = *findVendorVariant("openconfig");
  auto rules = LeafRules::compile(v.rules);
  ASSERT_TRUE(rules);
  TelemetryState state(v, *rules, StateLimits{.max_entities = 10, .max_lanes = 32});
  int over = 0;
  for (int i = 0; i < 50; ++i) {
    auto p = parsePath("/components/component[name=x" + std::to_string(i) + "]/transceiver/state/vendor");
    if (state.apply(*p, LeafValue::ofText("v"), 1) == Applied::kOverLimit) ++over;
  }
  EXPECT_EQ(over, 40);
  EXPECT_EQ(state.entities(), 10u);
}

TEST(GnmiMapping, SrLinuxNativeKeyedByInterface) {
  Mapping m("srlinux");
  const std::string x = "/interface[name=ethernet-1/1]/transceiver";
  EXPECT_EQ(m.num(x + "/temperature/latest-value", 38), Applied::kMapped);
  EXPECT_EQ(m.num(x + "/channel[index=1]/input-power/latest-value", -3.5), Applied::kMapped);
  EXPECT_EQ(m.num(x + "/channel[index=4]/laser-bias-current/latest-value", 6.5), Applied::kMapped);
  EXPECT_EQ(m.text(x + "/vendor", "ACME"), Applied::kMapped);
  EXPECT_EQ(m.text("/interface[name=ethernet-1/1]/oper-state", "up"), Applied::kMapped);
  auto s = m.samples();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].port, "ethernet-1/1");
  EXPECT_EQ(s[0].link.up, true);
  ASSERT_NE(laneOf(s[0], 1), nullptr);  // SR Linux channels start at 1
  EXPECT_EQ(laneOf(s[0], 1)->values[LaneMetric::kRxPowerDbm], -3.5);
  ASSERT_NE(laneOf(s[0], 4), nullptr);
  EXPECT_EQ(s[0].module[ModuleMetric::kTemperatureCelsius], 38);
}

TEST(GnmiMapping, SonicStateDbTablesWithTheLaneInTheFieldName) {
  Mapping m("sonic");
  EXPECT_EQ(m.text("/TRANSCEIVER_DOM_SENSOR/Ethernet0/rx3power", "-2.25"), Applied::kMapped);
  EXPECT_EQ(m.text("/TRANSCEIVER_DOM_SENSOR/Ethernet0/tx3bias", "6.8"), Applied::kMapped);
  EXPECT_EQ(m.text("/TRANSCEIVER_DOM_SENSOR/Ethernet0/temperature", "33.1"), Applied::kMapped);
  EXPECT_EQ(m.text("/TRANSCEIVER_DOM_SENSOR/Ethernet0/rx4power", "N/A"), Applied::kBadValue);
  EXPECT_EQ(m.text("/TRANSCEIVER_INFO/Ethernet0/manufacturer", "ACME"), Applied::kMapped);
  EXPECT_EQ(m.text("/PORT_TABLE/Ethernet0/oper_status", "down"), Applied::kMapped);
  auto s = m.samples();
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].port, "Ethernet0");
  EXPECT_EQ(s[0].identity.vendor, "ACME");
  EXPECT_EQ(s[0].link.up, false);
  ASSERT_EQ(s[0].lanes.size(), 1u);
  EXPECT_EQ(s[0].lanes[0].number, 3);
  EXPECT_EQ(s[0].lanes[0].values[LaneMetric::kRxPowerDbm], -2.25);
  EXPECT_EQ(s[0].lanes[0].values[LaneMetric::kTxBiasMilliamperes], 6.8);
}

}  // namespace
}  // namespace opticsd::gnmi
