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
    auto r = LeafRules::compile(v.rules, v.origins);
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
    auto r = LeafRules::compile(v.rules, v.origins);
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
  EXPECT_EQ(s.identity().form_factor, "OSFP");
  EXPECT_EQ(s.identity().family, ModuleFamily::kCmis);
  EXPECT_EQ(s.identity().media, "800GBASE-DR8");
  EXPECT_EQ(s.identity().vendor, "ACME");
  EXPECT_EQ(s.identity().part_number, "OSFP-800G-DR8");
  EXPECT_EQ(s.identity().serial, "SN123");
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

TEST(GnmiMapping, ChannelStatisticsBesideTheInstantValue) {
  Mapping m("openconfig");
  const std::string ch = std::string(kComp) + "/transceiver/physical-channels/channel[index=2]/state";
  struct Leaf {
    const char* leaf;
    double value;
    LaneMetric metric;
  };
  const Leaf leaves[] = {
      {"/input-power/instant", -2.5, LaneMetric::kRxPowerDbm},
      {"/input-power/min", -3.25, LaneMetric::kRxPowerMinDbm},
      {"/input-power/max", -1.75, LaneMetric::kRxPowerMaxDbm},
      {"/input-power/avg", -2.5, LaneMetric::kRxPowerAvgDbm},
      {"/output-power/instant", 1.5, LaneMetric::kTxPowerDbm},
      {"/output-power/min", 1.25, LaneMetric::kTxPowerMinDbm},
      {"/output-power/max", 1.75, LaneMetric::kTxPowerMaxDbm},
      {"/output-power/avg", 1.5, LaneMetric::kTxPowerAvgDbm},
      {"/laser-bias-current/instant", 7.5, LaneMetric::kTxBiasMilliamperes},
      {"/laser-bias-current/min", 7.25, LaneMetric::kTxBiasMinMilliamperes},
      {"/laser-bias-current/max", 7.75, LaneMetric::kTxBiasMaxMilliamperes},
      {"/laser-bias-current/avg", 7.5, LaneMetric::kTxBiasAvgMilliamperes},
  };
  for (const auto& l : leaves) EXPECT_EQ(m.num(ch + l.leaf, l.value), Applied::kMapped) << l.leaf;
  m.text(std::string(kComp) + "/transceiver/state/form-factor", "OSFP");
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  const Lane* lane = laneOf(samples[0], 3);
  ASSERT_NE(lane, nullptr);
  for (const auto& l : leaves) EXPECT_EQ(lane->values[l.metric], l.value) << l.leaf;
  EXPECT_EQ(lane->status.rx_no_light, false);  // from the instant value
}

TEST(GnmiMapping, DarkLaneStatisticsShareTheFloorNotTheFlag) {
  Mapping m("openconfig");
  const std::string ch = std::string(kComp) + "/transceiver/physical-channels/channel[index=0]/state";
  m.text(std::string(kComp) + "/transceiver/state/form-factor", "OSFP");
  m.text("/interfaces/interface[name=Ethernet1/1]/state/transceiver", "Ethernet1/1");
  m.text("/interfaces/interface[name=Ethernet1/1]/state/oper-status", "DOWN");
  m.num(ch + "/input-power/instant", -2.0);
  m.num(ch + "/input-power/min", 0.0);  // OpenConfig's 0 for a dark lane while the link is down
  m.num(ch + "/input-power/max", -2.0);
  m.num(ch + "/output-power/avg", -60.0);
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  const Lane* lane = laneOf(samples[0], 1);
  ASSERT_NE(lane, nullptr);
  EXPECT_EQ(lane->values[LaneMetric::kRxPowerMinDbm], kNoLightFloorDbm);
  EXPECT_EQ(lane->values[LaneMetric::kRxPowerMaxDbm], -2.0);
  EXPECT_EQ(lane->values[LaneMetric::kTxPowerAvgDbm], kNoLightFloorDbm);
  EXPECT_EQ(lane->status.rx_no_light, false);
  EXPECT_FALSE(lane->status.tx_no_light);  // no instant Tx power: not reported
}

TEST(GnmiMapping, ChannelFlagsLandOnTheLaneStatus) {
  Mapping m("openconfig");
  const std::string ch = std::string(kComp) + "/transceiver/physical-channels/channel[index=";
  m.text(std::string(kComp) + "/transceiver/state/form-factor", "QSFP_DD");
  EXPECT_EQ(m.set(ch + "0]/state/tx-failure", LeafValue::ofBool(true)), Applied::kMapped);
  EXPECT_EQ(m.set(ch + "0]/state/rx-los", LeafValue::ofBool(false)), Applied::kMapped);
  EXPECT_EQ(m.set(ch + "1]/state/rx-los", LeafValue::ofBool(true)), Applied::kMapped);
  EXPECT_EQ(m.text(ch + "1]/state/rx-cdr-lol", "true"), Applied::kMapped);  // JSON encoders that quote it
  EXPECT_EQ(m.text(ch + "1]/state/tx-failure", "maybe"), Applied::kBadValue);
  EXPECT_EQ(m.num(ch + "2]/state/rx-los", 1.0), Applied::kBadValue);  // a number is not a YANG boolean
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  const Lane* first = laneOf(samples[0], 1);
  const Lane* second = laneOf(samples[0], 2);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->status.tx_fault, true);
  EXPECT_EQ(first->status.rx_los, false);
  EXPECT_FALSE(first->status.rx_lol);  // not sent: not reported
  EXPECT_EQ(second->status.rx_los, true);
  EXPECT_EQ(second->status.rx_lol, true);
  EXPECT_FALSE(second->status.tx_fault);
  EXPECT_EQ(laneOf(samples[0], 3), nullptr);
  for (const auto& lane : samples[0].lanes) {
    for (const auto& flags : lane.flags) EXPECT_FALSE(flags);  // OpenConfig has no per-lane alarm flags
  }
}

TEST(GnmiMapping, TransceiverFecCounters) {
  Mapping m("openconfig");
  const std::string x = std::string(kComp) + "/transceiver/state/";
  m.text(x + "form-factor", "OSFP");
  EXPECT_EQ(m.set(x + "fec-corrected-bits", LeafValue::ofCount(123456789012345ULL)), Applied::kMapped);
  EXPECT_EQ(m.set(x + "fec-corrected-blocks", LeafValue::ofCount(4567)), Applied::kMapped);
  EXPECT_EQ(m.text(x + "fec-uncorrectable-blocks", "3"), Applied::kMapped);  // JSON_IETF uint64 as a string
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].fec.corrected_bits_total, 123456789012345ULL);
  EXPECT_EQ(samples[0].fec.corrected_blocks_total, 4567u);
  EXPECT_EQ(samples[0].fec.uncorrectable_blocks_total, 3u);
}

TEST(GnmiMapping, InterfaceFecCountersTakePrecedenceOverTheTransceivers) {
  Mapping m("cumulus");
  const std::string c = "/components/component[name=transceiver1]/transceiver/";
  m.text(c + "state/form-factor", "OSFP");
  m.num(c + "physical-channels/channel[index=0]/state/input-power/instant", -2.0);
  m.set(c + "state/fec-corrected-bits", LeafValue::ofCount(1000));
  m.set(c + "state/fec-corrected-blocks", LeafValue::ofCount(10));
  m.set(c + "state/fec-uncorrectable-blocks", LeafValue::ofCount(1));
  for (const char* port : {"swp1s0", "swp1s1"}) {
    m.text(std::string("/interfaces/interface[name=") + port + "]/state/transceiver", "transceiver1");
  }
  // Cumulus 5.15 names on one breakout port, the names before 5.15 on nothing else.
  EXPECT_EQ(m.set("/interfaces/interface[name=swp1s0]/phy/fec/state/corrected-bits", LeafValue::ofCount(77)),
            Applied::kMapped);
  EXPECT_EQ(
      m.set("/interfaces/interface[name=swp1s0]/phy/fec/state/rs-fec-uncorrectable-blocks", LeafValue::ofCount(0)),
      Applied::kMapped);
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 2u);
  const Sample* own = port(samples, "swp1s0");
  const Sample* module_only = port(samples, "swp1s1");
  ASSERT_NE(own, nullptr);
  ASSERT_NE(module_only, nullptr);
  EXPECT_EQ(own->fec.corrected_bits_total, 77u);
  EXPECT_EQ(own->fec.uncorrectable_blocks_total, 0u);
  EXPECT_FALSE(own->fec.corrected_blocks_total);  // the interface's set is used whole, not mixed with the module's
  EXPECT_EQ(module_only->fec.corrected_bits_total, 1000u);
  EXPECT_EQ(module_only->fec.corrected_blocks_total, 10u);
  EXPECT_EQ(module_only->fec.uncorrectable_blocks_total, 1u);
}

TEST(GnmiMapping, InterfaceFecCountersBeforeCumulus515) {
  Mapping m("openconfig");
  const std::string c = std::string(kComp) + "/transceiver/";
  m.text(c + "state/form-factor", "OSFP");
  m.text("/interfaces/interface[name=swp3]/state/transceiver", "Ethernet1/1");
  EXPECT_EQ(m.set("/interfaces/interface[name=swp3]/ethernet/phy/state/corrected-bits", LeafValue::ofCount(5)),
            Applied::kMapped);
  EXPECT_EQ(m.text("/interfaces/interface[name=swp3]/ethernet/phy/state/rs-fec-uncorrectable-blocks", "2"),
            Applied::kMapped);
  EXPECT_EQ(m.num("/interfaces/interface[name=swp3]/ethernet/phy/state/corrected-bits", -1.0), Applied::kBadValue);
  auto samples = m.samples();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].fec.corrected_bits_total, 5u);
  EXPECT_EQ(samples[0].fec.uncorrectable_blocks_total, 2u);
}

TEST(GnmiMapping, OnlyCumulusSubscribesItsPhyCounters) {
  auto subscribes = [](std::string_view variant, std::string_view path) {
    for (auto p : findVendorVariant(variant)->sample_paths) {
      if (p == path) return true;
    }
    return false;
  };
  EXPECT_TRUE(subscribes("cumulus", "/interfaces/interface/phy/fec/state"));
  EXPECT_FALSE(subscribes("openconfig", "/interfaces/interface/phy/fec/state"));
  EXPECT_TRUE(subscribes("cumulus", "/components/component/transceiver/physical-channels/channel/state"));
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
  EXPECT_EQ(samples[0].identity().form_factor, "QSFP-DD");
}

TEST(GnmiMapping, SnapshotsShareUnchangedIdentityAndThresholdsAndKeepWhatTheySaw) {
  Mapping m("openconfig");
  const std::string t = std::string(kComp) + "/transceiver/thresholds/threshold[severity=";
  m.text(std::string(kComp) + "/transceiver/state/serial-no", "SN1");
  m.num(t + "CRITICAL]/state/input-power-lower", -12.0);
  const auto first = m.samples();
  // The same values again (a SAMPLE subscription resends them): nothing is cloned.
  m.text(std::string(kComp) + "/transceiver/state/serial-no", "SN1");
  m.num(t + "CRITICAL]/state/input-power-lower", -12.0);
  const auto second = m.samples();
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_TRUE(second[0].shared_identity.sharesWith(first[0].shared_identity));
  EXPECT_TRUE(second[0].shared_thresholds.sharesWith(first[0].shared_thresholds));
  // A swapped module: the next snapshot shows it, the earlier one is as it was.
  m.text(std::string(kComp) + "/transceiver/state/serial-no", "SN2");
  m.num(t + "CRITICAL]/state/input-power-lower", -14.0);
  const auto third = m.samples();
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(third[0].identity().serial, "SN2");
  EXPECT_EQ(third[0].thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -14.0);
  EXPECT_EQ(first[0].identity().serial, "SN1");
  EXPECT_EQ(first[0].thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -12.0);
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
  auto rules = LeafRules::compile(v.rules, v.origins);
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
  EXPECT_EQ(s[0].identity().vendor, "ACME");
  EXPECT_EQ(s[0].link.up, false);
  ASSERT_EQ(s[0].lanes.size(), 1u);
  EXPECT_EQ(s[0].lanes[0].number, 3);
  EXPECT_EQ(s[0].lanes[0].values[LaneMetric::kRxPowerDbm], -2.25);
  EXPECT_EQ(s[0].lanes[0].values[LaneMetric::kTxBiasMilliamperes], 6.8);
}

}  // namespace
}  // namespace opticsd::gnmi
