// Profiles decoding the synthetic fixtures (tests/fixtures/snmp, made by
// generate.py): each expected value is worked out from the MIB encoding.
#include <gtest/gtest.h>

#include <cmath>

#include "drivers/snmp/profile_decoder.hpp"
#include "drivers/units.hpp"
#include "test_support.hpp"

namespace opticsd::snmp {
namespace {

using testing::fixtureStore;
using testing::shippedProfile;

const Sample* findPort(const PollResult& r, const std::string& port) {
  for (const auto& s : r.samples) {
    if (s.port == port) return &s;
  }
  return nullptr;
}

const Lane* findLane(const Sample& s, int number) {
  for (const auto& l : s.lanes) {
    if (l.number == number) return &l;
  }
  return nullptr;
}

// dBm as every conversion gives it: to 0.0001 dB (drivers/units.hpp).
double dbm(double mw) { return roundedDbm(10.0 * std::log10(mw)); }

TEST(AristaProfile, PerRowScaleAndPrecision) {
  auto r = decode(shippedProfile("arista-eos"), fixtureStore("arista-eos.snmprec"), "sw1", 1000);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* e1 = findPort(r, "Ethernet1");
  ASSERT_NE(e1, nullptr);
  EXPECT_EQ(e1->target, "sw1");
  EXPECT_EQ(e1->timestamp_ms, 1000);
  EXPECT_DOUBLE_EQ(*e1->module[ModuleMetric::kTemperatureCelsius], 25.8);  // 258 x 10^-1, units
  EXPECT_DOUBLE_EQ(*e1->module[ModuleMetric::kSupplyVoltageVolts], 3.31);  // 331 x 10^-2
  ASSERT_EQ(e1->lanes.size(), 1u);
  const Lane& l1 = e1->lanes[0];
  EXPECT_EQ(l1.number, 1);                                                // "Lane 0" is lane 1
  EXPECT_NEAR(*l1.values[LaneMetric::kTxBiasMilliamperes], 33.45, 1e-9);  // 3345 x 10^-2 x milli A
  EXPECT_NEAR(*l1.values[LaneMetric::kTxPowerDbm], dbm(0.6322), 1e-9);
  EXPECT_EQ(l1.status.tx_no_light, false);
  EXPECT_DOUBLE_EQ(*l1.values[LaneMetric::kRxPowerDbm], -40.0);  // 0 mW: floor + flag
  EXPECT_EQ(l1.status.rx_no_light, true);
  EXPECT_EQ(e1->identity().serial, "G1904016438");
  EXPECT_EQ(e1->identity().part_number, "SFP-10G-LR");
  EXPECT_EQ(e1->identity().vendor, "Arista Networks");
}

TEST(AristaProfile, ThresholdsUseTheSensorsEncodingAndZeroMeansNone) {
  auto r = decode(shippedProfile("arista-eos"), fixtureStore("arista-eos.snmprec"), "sw1", 0);
  const Sample* e1 = findPort(r, "Ethernet1");
  ASSERT_NE(e1, nullptr);
  const auto& temp = e1->thresholds(ModuleMetric::kTemperatureCelsius);
  ASSERT_TRUE(temp);
  EXPECT_DOUBLE_EQ(*temp->low_alarm, -50.0);
  EXPECT_DOUBLE_EQ(*temp->low_warning, -40.0);
  EXPECT_DOUBLE_EQ(*temp->high_warning, 85.0);
  EXPECT_DOUBLE_EQ(*temp->high_alarm, 100.0);
  const auto& tx = e1->thresholds(LaneMetric::kTxPowerDbm);
  ASSERT_TRUE(tx);
  EXPECT_NEAR(*tx->low_alarm, dbm(0.0631), 1e-9);
  EXPECT_NEAR(*tx->low_warning, -10.0, 1e-9);
  EXPECT_NEAR(*tx->high_warning, dbm(1.5849), 1e-9);
  EXPECT_FALSE(tx->high_alarm);  // 0 mW is "no threshold", not -inf dBm
}

TEST(AristaProfile, LanesFromContainmentAndIgnoresOtherSensors) {
  auto r = decode(shippedProfile("arista-eos"), fixtureStore("arista-eos.snmprec"), "sw1", 0);
  const Sample* e49 = findPort(r, "Ethernet49");
  ASSERT_NE(e49, nullptr);
  ASSERT_EQ(e49->lanes.size(), 4u);
  const double rx_mw[] = {0.5012, 0.3981, 0.0001, 0.7943};
  for (int lane = 1; lane <= 4; ++lane) {
    const Lane* l = findLane(*e49, lane);
    ASSERT_NE(l, nullptr);
    EXPECT_NEAR(*l->values[LaneMetric::kTxBiasMilliamperes], 7.0 + 0.01 * (lane - 1), 1e-9);
    if (lane == 3) {
      EXPECT_DOUBLE_EQ(*l->values[LaneMetric::kRxPowerDbm], -40.0);
      EXPECT_EQ(l->status.rx_no_light, true);
    } else {
      EXPECT_NEAR(*l->values[LaneMetric::kRxPowerDbm], dbm(rx_mw[lane - 1]), 1e-9);
    }
    EXPECT_FALSE(l->values[LaneMetric::kTxPowerDbm]);  // not reported, not 0
  }
  EXPECT_EQ(r.samples.size(), 2u);  // the fan row maps to nothing
}

TEST(AristaProfile, PhyMibBerAndCodewords) {
  auto r = decode(shippedProfile("arista-eos"), fixtureStore("arista-eos.snmprec"), "sw1", 0);
  const Sample* e1 = findPort(r, "Ethernet1");
  ASSERT_NE(e1, nullptr);
  EXPECT_NEAR(*e1->module[ModuleMetric::kPreFecBerRatio], 1.23e-9, 1e-20);  // 123 x 10^-2 x nano
  EXPECT_EQ(e1->fec.uncorrectable_blocks_total, 7u);
}

TEST(SonicProfile, LaneFromDescriptionAndWattsToDbm) {
  auto r = decode(shippedProfile("sonic"), fixtureStore("sonic.snmprec"), "leaf1", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 1u);
  const Sample& s = r.samples[0];
  EXPECT_EQ(s.port, "Ethernet0");
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], 35.5);
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.3);
  ASSERT_EQ(s.lanes.size(), 8u);
  for (const auto& l : s.lanes) {
    EXPECT_NEAR(*l.values[LaneMetric::kTxBiasMilliamperes], 6.5, 1e-9);
    EXPECT_NEAR(*l.values[LaneMetric::kTxPowerDbm], dbm(1.2589), 1e-9);
    if (l.number == 8) {
      EXPECT_DOUBLE_EQ(*l.values[LaneMetric::kRxPowerDbm], -40.0);
      EXPECT_EQ(l.status.rx_no_light, true);
    } else {
      EXPECT_NEAR(*l.values[LaneMetric::kRxPowerDbm], 0.0, 1e-9);
      EXPECT_EQ(l.status.rx_no_light, false);
    }
  }
  EXPECT_EQ(s.identity().part_number, "QDD-400G-DR4");
  EXPECT_FALSE(s.thresholds(LaneMetric::kRxPowerDbm));  // SONiC publishes none
}

TEST(CiscoProfile, DbmTypeAndRelationThresholds) {
  auto r = decode(shippedProfile("cisco-entity-sensor"), fixtureStore("cisco-entity-sensor.snmprec"), "n3k", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* s = findPort(r, "Ethernet1/1");
  ASSERT_NE(s, nullptr);
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kSupplyVoltageVolts], 3.3);  // 3300 milli V
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kTemperatureCelsius], 30.5);
  ASSERT_EQ(s->lanes.size(), 1u);
  EXPECT_NEAR(*s->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 20.116, 1e-9);  // 20116 micro A
  EXPECT_DOUBLE_EQ(*s->lanes[0].values[LaneMetric::kRxPowerDbm], -2.5);             // dBm(14), precision 1
  EXPECT_DOUBLE_EQ(*s->lanes[0].values[LaneMetric::kTxPowerDbm], -40.0);            // -40.0 dBm: dark
  EXPECT_EQ(s->lanes[0].status.tx_no_light, true);
  const auto& bias = s->thresholds(LaneMetric::kTxBiasMilliamperes);
  ASSERT_TRUE(bias);
  EXPECT_NEAR(*bias->high_alarm, 85.0, 1e-9);
  EXPECT_NEAR(*bias->high_warning, 80.0, 1e-9);
  EXPECT_NEAR(*bias->low_alarm, 1.0, 1e-9);
  EXPECT_NEAR(*bias->low_warning, 2.0, 1e-9);
  EXPECT_EQ(s->identity().part_number, "SFP-10G-SR");
}

// Issue 12: IOS-XE names its sensors "Te1/0/1 Module Temperature Sensor" (no
// "Transceiver", no lane) and gave 0 modules with an ok poll.
// IOS-XR: generic sensor descriptions; the port is the name of an ancestor.
TEST(CiscoProfile, IosXrPortFromTheContainingEntitysName) {
  auto r = decode(shippedProfile("cisco-iosxr"), fixtureStore("cisco-iosxr.snmprec"), "ncs", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 1u) << "the chassis inlet sensor became a module";
  const Sample* hu = findPort(r, "HundredGigE0/0/0/0");
  ASSERT_NE(hu, nullptr);
  ASSERT_EQ(hu->lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*hu->lanes[0].values[LaneMetric::kRxPowerDbm], -2.3);
  EXPECT_DOUBLE_EQ(*hu->lanes[0].values[LaneMetric::kTxPowerDbm], -1.1);
  EXPECT_DOUBLE_EQ(*hu->module[ModuleMetric::kSupplyVoltageVolts], 3.29);
  EXPECT_FALSE(hu->module[ModuleMetric::kTemperatureCelsius]) << "no public source names the temperature sensor";
  const auto& rx = hu->thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->high_alarm, 3.0);
  EXPECT_DOUBLE_EQ(*rx->low_alarm, -12.0);
}

// Issue 25 item 2: IOS-XR 6.6/7.x names its sensors "<port>-Tx Lane [n] Power"
// with bare descriptions; power in watts on one port, dBm on the other; the
// second port's sensors sit under an entity that names no port.
TEST(CiscoProfile, IosXr7NamingByTypeAndName) {
  const Profile profile = shippedProfile("cisco-iosxr");
  const VarbindStore store = fixtureStore("cisco-iosxr7.snmprec");
  Trace trace;
  auto r = apply(profile, resolve(profile, store, &trace), store, "ncs", 0, &trace);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 2u) << "the power module's Power Sensor became a module";
  const Sample* hu = findPort(r, "HundredGigE0/0/0/1");
  ASSERT_NE(hu, nullptr);
  EXPECT_DOUBLE_EQ(*hu->module[ModuleMetric::kTemperatureCelsius], 35.5);
  EXPECT_DOUBLE_EQ(*hu->module[ModuleMetric::kSupplyVoltageVolts], 3.3);
  ASSERT_EQ(hu->lanes.size(), 4u);
  for (int lane = 1; lane <= 4; ++lane) {
    const auto& l = hu->lanes[lane - 1];
    EXPECT_EQ(l.number, lane);
    EXPECT_NEAR(*l.values[LaneMetric::kTxBiasMilliamperes], 7.5 + 0.1 * (lane - 1), 1e-9);
    EXPECT_NEAR(*l.values[LaneMetric::kTxPowerDbm], 10.0 * std::log10(lane), 5e-5) << "watts to dBm, lane " << lane;
    EXPECT_NEAR(*l.values[LaneMetric::kRxPowerDbm], 10.0 * std::log10(0.5), 5e-5);  // dBm to 4 places
  }
  const Sample* te = findPort(r, "TenGigE0/0/0/2");
  ASSERT_NE(te, nullptr) << "containment names no port: the sensor's name does";
  EXPECT_DOUBLE_EQ(*te->module[ModuleMetric::kTemperatureCelsius], 41.0);
  ASSERT_EQ(te->lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*te->lanes[0].values[LaneMetric::kTxPowerDbm], -2.3);
  EXPECT_DOUBLE_EQ(*te->lanes[0].values[LaneMetric::kRxPowerDbm], -7.1);
  const auto& rx = te->thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->high_alarm, 2.0);
  EXPECT_DOUBLE_EQ(*rx->low_alarm, -14.0);
  std::string all;
  for (const auto& l : trace.lines()) all += l + "\n";
  EXPECT_NE(all.find("'HundredGigE0/0/0/1-Rx Lane [3] Power' type 6"), std::string::npos) << all;
  EXPECT_NE(all.find("port HundredGigE0/0/0/1 (by containment (entity 2000)), lane 4"), std::string::npos) << all;
  EXPECT_NE(all.find("port TenGigE0/0/0/2 (by the sensor's text (no ancestor names a port)), lane 1"),
            std::string::npos)
      << all;
}

TEST(CiscoProfile, IosXeNamingPerTransceiverAndPerLane) {
  auto r = decode(shippedProfile("cisco-entity-sensor"), fixtureStore("cisco-iosxe.snmprec"), "c9300", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 2u) << "the inlet temperature sensor became a module";
  const Sample* te = findPort(r, "Te1/0/1");
  ASSERT_NE(te, nullptr);
  EXPECT_DOUBLE_EQ(*te->module[ModuleMetric::kTemperatureCelsius], 28.9);
  EXPECT_DOUBLE_EQ(*te->module[ModuleMetric::kSupplyVoltageVolts], 3.28);
  ASSERT_EQ(te->lanes.size(), 1u);
  EXPECT_NEAR(*te->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 34.8, 1e-9);  // milli A, precision 1
  EXPECT_DOUBLE_EQ(*te->lanes[0].values[LaneMetric::kTxPowerDbm], -2.3);
  EXPECT_DOUBLE_EQ(*te->lanes[0].values[LaneMetric::kRxPowerDbm], -4.1);
  const auto& rx = te->thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->high_alarm, -1.0);
  EXPECT_DOUBLE_EQ(*rx->high_warning, -3.0);
  EXPECT_DOUBLE_EQ(*rx->low_alarm, -16.0);
  EXPECT_DOUBLE_EQ(*rx->low_warning, -14.0);
  EXPECT_EQ(te->identity().serial, "FNS17460ABC");
  const Sample* hu = findPort(r, "Hu1/0/49");
  ASSERT_NE(hu, nullptr);
  EXPECT_DOUBLE_EQ(*hu->module[ModuleMetric::kTemperatureCelsius], 35.5);
  ASSERT_EQ(hu->lanes.size(), 4u);
  for (int lane = 1; lane <= 4; ++lane) {
    EXPECT_EQ(hu->lanes[lane - 1].number, lane);
    EXPECT_DOUBLE_EQ(*hu->lanes[lane - 1].values[LaneMetric::kRxPowerDbm], -1.0 * lane);
  }
}

// Issue 25 item 5: sensors are matched by name and ENTITY-SENSOR type; a
// module-wide reading yields to the lanes' own; a name the type contradicts is
// explained, and the port keeps its other sensors.
TEST(CiscoProfile, IosXeC9500MatchesByTypeAndLane) {
  const Profile profile = shippedProfile("cisco-entity-sensor");
  const VarbindStore store = fixtureStore("cisco-iosxe-c9500.snmprec");
  Trace trace;
  auto r = apply(profile, resolve(profile, store, &trace), store, "c9500", 0, &trace);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* hu = findPort(r, "Hu1/0/3");
  ASSERT_NE(hu, nullptr);
  EXPECT_DOUBLE_EQ(*hu->module[ModuleMetric::kTemperatureCelsius], 40.1);
  ASSERT_EQ(hu->lanes.size(), 4u);
  for (int lane = 1; lane <= 4; ++lane) {
    const auto& l = hu->lanes[lane - 1];
    EXPECT_EQ(l.number, lane);
    EXPECT_DOUBLE_EQ(*l.values[LaneMetric::kTxPowerDbm], -1.0 * lane) << "lane " << lane;
    EXPECT_DOUBLE_EQ(*l.values[LaneMetric::kRxPowerDbm], -2.0 * lane) << "lane " << lane;
  }
  EXPECT_NEAR(*hu->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 7.5, 1e-9);
  const Sample* te = findPort(r, "Te1/0/5");
  ASSERT_NE(te, nullptr) << "a sensor whose type contradicts its name does not cost the port";
  EXPECT_DOUBLE_EQ(*te->module[ModuleMetric::kTemperatureCelsius], 33.3);
  ASSERT_EQ(te->lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*te->lanes[0].values[LaneMetric::kTxPowerDbm], -2.1);
  EXPECT_FALSE(te->lanes[0].values[LaneMetric::kRxPowerDbm]) << "a celsius sensor is not power";
  EXPECT_FALSE(te->lanes[0].values[LaneMetric::kTxBiasMilliamperes]) << "an other(1) sensor is not bias";
  std::string all;
  for (const auto& l : trace.lines()) all += l + "\n";
  EXPECT_NE(all.find("sensor 6003 'Te1/0/5 Receive Power Sensor' type 8: its name matches rule"), std::string::npos)
      << all;
  EXPECT_NE(all.find("sensor 6004 'Te1/0/5 Bias Current Sensor' type 1: its name matches rule"), std::string::npos)
      << all;
  EXPECT_NE(all.find("sensor 5003: port Hu1/0/3 lane 1 has its own lane sensor 5011"), std::string::npos) << all;
}

TEST(JuniperProfile, ModuleAndLaneTables) {
  auto r = decode(shippedProfile("juniper-dom"), fixtureStore("juniper-dom.snmprec"), "mx", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* s = findPort(r, "ge-1/0/0");
  ASSERT_NE(s, nullptr);
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kTemperatureCelsius], 26.0);
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kSupplyVoltageVolts], 3.352);
  ASSERT_EQ(s->lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*s->lanes[0].values[LaneMetric::kRxPowerDbm], -26.77);
  EXPECT_DOUBLE_EQ(*s->lanes[0].values[LaneMetric::kTxPowerDbm], -4.94);
  EXPECT_NEAR(*s->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 5.678, 1e-9);  // lane table wins
  const auto& rx = s->thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->high_alarm, 0.5);
  EXPECT_DOUBLE_EQ(*rx->low_alarm, -21.02);
  EXPECT_DOUBLE_EQ(*rx->high_warning, -1.0);
  EXPECT_DOUBLE_EQ(*rx->low_warning, -16.98);
  EXPECT_DOUBLE_EQ(*s->thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 110.0);
  EXPECT_DOUBLE_EQ(*s->thresholds(LaneMetric::kTxPowerDbm)->high_alarm, 0.0);  // a dBm limit of 0 is real
  EXPECT_EQ(findPort(r, "ge-1/0/1"), nullptr) << "an all-zero row (empty cage) became a 0 C, 0 dBm module";
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kLaserTemperatureCelsius], 26.0);
  EXPECT_FALSE(s->module[ModuleMetric::kPreFecBerRatio]) << "no FEC PM row for this port";
  EXPECT_EQ(r.samples.size(), 2u);
}

// A 4-lane module: lanes from 0 in the index, the module row's limits on every
// lane (the lane table has no threshold columns), the hottest lane's laser
// temperature, and the JNX-OPT-IF-EXT-MIB pre-FEC BER of the near end.
TEST(JuniperProfile, LanesThresholdsAndOtnFecBer) {
  auto r = decode(shippedProfile("juniper-dom"), fixtureStore("juniper-dom.snmprec"), "ptx", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* s = findPort(r, "et-0/0/2");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 4u);
  for (int lane = 1; lane <= 4; ++lane) {
    EXPECT_EQ(s->lanes[lane - 1].number, lane);
    EXPECT_DOUBLE_EQ(*s->lanes[lane - 1].values[LaneMetric::kRxPowerDbm], -2.5 - 0.1 * (lane - 1));
    EXPECT_NEAR(*s->lanes[lane - 1].values[LaneMetric::kTxBiasMilliamperes], 7.0 + 0.1 * (lane - 1), 1e-9);
  }
  const auto& rx = s->thresholds(LaneMetric::kRxPowerDbm);  // one limit set per metric, for every lane
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->low_alarm, -21.02);
  EXPECT_DOUBLE_EQ(*s->thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 13.0);
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kLaserTemperatureCelsius], 47.0);  // lanes 44, 47, 45, 43
  EXPECT_DOUBLE_EQ(*s->module[ModuleMetric::kTemperatureCelsius], 41.0);
  // near end 23 x 10^-6; the far end (9 x 10^-3) must not replace it
  EXPECT_NEAR(*s->module[ModuleMetric::kPreFecBerRatio], 2.3e-5, 1e-18);
}

// TIMETRA-PORT-MIB encodings: 1/256 C, 100 uV, 2 uA, 0.1 uW.
TEST(NokiaProfile, ModuleAndLaneTablesInTheMibsUnits) {
  auto r = decode(shippedProfile("nokia-sros"), fixtureStore("nokia-sros.snmprec"), "sr1", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 2u) << "the empty cage 1/1/2 became a module";
  const Sample* sfp = findPort(r, "1/1/1");
  ASSERT_NE(sfp, nullptr);
  EXPECT_DOUBLE_EQ(*sfp->module[ModuleMetric::kTemperatureCelsius], 35.0);    // 8960 / 256
  EXPECT_DOUBLE_EQ(*sfp->module[ModuleMetric::kSupplyVoltageVolts], 3.2944);  // 32944 x 100 uV
  ASSERT_EQ(sfp->lanes.size(), 1u);
  EXPECT_NEAR(*sfp->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 4.536, 1e-9);  // 2268 x 2 uA
  EXPECT_NEAR(*sfp->lanes[0].values[LaneMetric::kTxPowerDbm], dbm(0.3196), 1e-9);    // 3196 x 0.1 uW
  EXPECT_NEAR(*sfp->lanes[0].values[LaneMetric::kRxPowerDbm], -10.0, 1e-9);          // 100 uW
  EXPECT_DOUBLE_EQ(*sfp->thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 109.0);
  EXPECT_DOUBLE_EQ(*sfp->thresholds(ModuleMetric::kTemperatureCelsius)->low_alarm, -29.0);
  EXPECT_NEAR(*sfp->thresholds(LaneMetric::kRxPowerDbm)->low_alarm, dbm(0.0298), 1e-9);
  EXPECT_NEAR(*sfp->thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 15.0, 1e-9);
  const Sample* qsfp = findPort(r, "1/1/3");
  ASSERT_NE(qsfp, nullptr);
  EXPECT_DOUBLE_EQ(*qsfp->module[ModuleMetric::kTemperatureCelsius], 36.0);
  EXPECT_FALSE(qsfp->thresholds(LaneMetric::kTxBiasMilliamperes)) << "an empty 0 mA limit became a limit";
  ASSERT_EQ(qsfp->lanes.size(), 4u);
  for (int n = 1; n <= 4; ++n) {
    const Lane* l = findLane(*qsfp, n);
    ASSERT_NE(l, nullptr);
    EXPECT_NEAR(*l->values[LaneMetric::kTxBiasMilliamperes], 7.0, 1e-9);
    EXPECT_NEAR(*l->values[LaneMetric::kTxPowerDbm], dbm(0.5), 1e-9);
    EXPECT_NEAR(*l->values[LaneMetric::kRxPowerDbm], dbm((4000 - 500 * n) / 10000.0), 1e-9) << n;
  }
}

// IPI-CMM-CHASSIS-MIB: 0.01 C, 0.001 V, 0.001 mA, 0.001 dBm; -100001 and
// -100002 mean "no value"; the transceiver number is not an ifIndex.
TEST(OcnosProfile, ChannelRowsInTheMibsUnitsNamedByTheMibIndex) {
  auto r = decode(shippedProfile("ipinfusion-ocnos"), fixtureStore("ipinfusion-ocnos.snmprec"), "ocnos", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  for (const auto& s : r.samples) {
    EXPECT_NE(s.port, "eth0") << "transceiver 9 was taken for ifIndex 9";
  }
  const Sample* sfp = findPort(r, "cmmTrans1.9");
  ASSERT_NE(sfp, nullptr);
  EXPECT_DOUBLE_EQ(*sfp->module[ModuleMetric::kTemperatureCelsius], 35.12);
  EXPECT_DOUBLE_EQ(*sfp->module[ModuleMetric::kSupplyVoltageVolts], 3.301);
  ASSERT_EQ(sfp->lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*sfp->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 6.5);
  EXPECT_DOUBLE_EQ(*sfp->lanes[0].values[LaneMetric::kTxPowerDbm], -2.35);
  EXPECT_DOUBLE_EQ(*sfp->lanes[0].values[LaneMetric::kRxPowerDbm], -3.1);
  EXPECT_FALSE(sfp->thresholds(LaneMetric::kRxPowerDbm)) << "limits were read from columns of unknown meaning";
  const Sample* qsfp = findPort(r, "cmmTrans1.49");
  ASSERT_NE(qsfp, nullptr);
  ASSERT_EQ(qsfp->lanes.size(), 4u);
  for (int n = 1; n <= 4; ++n) {
    const Lane* l = findLane(*qsfp, n);
    ASSERT_NE(l, nullptr) << n;
    EXPECT_DOUBLE_EQ(*l->values[LaneMetric::kRxPowerDbm], (-1500 - 500 * n) / 1000.0) << n;
    EXPECT_DOUBLE_EQ(*l->values[LaneMetric::kTxBiasMilliamperes], (7000 + 100 * n) / 1000.0) << n;
  }
  if (const Sample* no_ddm = findPort(r, "cmmTrans1.10")) {
    EXPECT_FALSE(no_ddm->module[ModuleMetric::kTemperatureCelsius]) << "-100001 became -1000.01 C";
    EXPECT_FALSE(no_ddm->module[ModuleMetric::kSupplyVoltageVolts]);
    for (const auto& l : no_ddm->lanes) {
      EXPECT_FALSE(l.values[LaneMetric::kRxPowerDbm]) << "-100002 became a power";
      EXPECT_FALSE(l.values[LaneMetric::kTxPowerDbm]);
      EXPECT_FALSE(l.values[LaneMetric::kTxBiasMilliamperes]);
    }
  }
}

// DELL-NETWORKING-IF-EXTENSION-MIB: text with units, one column per lane, a
// row without optics (dellNetIfTransOpticsPresent false) is no module.
TEST(DellOs9Profile, TextColumnsPerLaneAndRowsWithoutOptics) {
  auto r = decode(shippedProfile("dell-os9"), fixtureStore("dell-os9.snmprec"), "os9", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_EQ(findPort(r, "hundredGigE 1/3"), nullptr) << "a port without optics became a 0 C, 0 dBm module";
  const Sample* sr4 = findPort(r, "fortyGigE 1/1");
  ASSERT_NE(sr4, nullptr);
  EXPECT_DOUBLE_EQ(*sr4->module[ModuleMetric::kTemperatureCelsius], 31.5);
  EXPECT_DOUBLE_EQ(*sr4->module[ModuleMetric::kSupplyVoltageVolts], 3.29);
  ASSERT_EQ(sr4->lanes.size(), 4u);
  for (int n = 1; n <= 4; ++n) {
    const Lane* l = findLane(*sr4, n);
    ASSERT_NE(l, nullptr) << n;
    EXPECT_DOUBLE_EQ(*l->values[LaneMetric::kTxPowerDbm], -1.0 - 0.25 * n) << n;
    EXPECT_DOUBLE_EQ(*l->values[LaneMetric::kRxPowerDbm], -2.0 - 0.25 * n) << n;
    EXPECT_DOUBLE_EQ(*l->values[LaneMetric::kTxBiasMilliamperes], 6.0 + n) << n;
  }
  const Sample* one = findPort(r, "hundredGigE 1/2");
  ASSERT_NE(one, nullptr);
  EXPECT_DOUBLE_EQ(*findLane(*one, 1)->values[LaneMetric::kRxPowerDbm], -3.1);
  EXPECT_DOUBLE_EQ(*findLane(*one, 1)->values[LaneMetric::kTxPowerDbm], -2.35);
  for (int n = 2; n <= 4; ++n) {
    if (const Lane* l = findLane(*one, n)) {
      EXPECT_FALSE(l->values[LaneMetric::kRxPowerDbm]) << "'N/A' became a power on lane " << n;
      EXPECT_FALSE(l->values[LaneMetric::kTxBiasMilliamperes]) << n;
    }
  }
}

TEST(BrokenAgent, EachBadRowIsAnIssueAndGoodRowsSurvive) {
  auto r = decode(shippedProfile("arista-eos"), fixtureStore("broken-arista.snmprec"), "bad", 0);
  ASSERT_EQ(r.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(*r.samples[0].module[ModuleMetric::kTemperatureCelsius], 25.8);
  EXPECT_FALSE(r.samples[0].module[ModuleMetric::kSupplyVoltageVolts]);
  auto has = [&](const std::string& text) {
    for (const auto& e : r.errors) {
      if (e.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("scale 42")) << ::testing::PrintToString(r.errors);
  EXPECT_TRUE(has("precision 12"));
  EXPECT_TRUE(has("OCTET STRING"));
}

TEST(Decoder, NonOperationalSensorIsNotReported) {
  auto rows = readSnmprecFile(testing::fixturePath("sonic.snmprec"));
  ASSERT_TRUE(rows);
  for (auto& vb : *rows) {
    if (vb.oid.toString() == "1.3.6.1.2.1.99.1.1.1.5.1000000110") vb.integer = 3;  // nonoperational
  }
  auto r = decode(shippedProfile("sonic"), VarbindStore(*rows), "leaf1", 0);
  ASSERT_EQ(r.samples.size(), 1u);
  EXPECT_FALSE(r.samples[0].module[ModuleMetric::kTemperatureCelsius]);
  EXPECT_TRUE(r.samples[0].module[ModuleMetric::kSupplyVoltageVolts]);
}

// ---- Issue 25: fixtures built from the MIBs (tests/fixtures/snmp/generate.py) ----

// VRP 5: hwEntityOpticalRxPower/TxPower in uW (500 uW = -3.0103 dBm), bias in
// uA, limits in 0.01 dBm; the lane text (0.01 dBm) agrees, so the uW column
// stands on lane 1. The empty cage's row is all sentinels: no Sample, no error.
TEST(HuaweiProfile, Vrp5PowerInMicrowattsAndLimitsInHundredthsOfDbm) {
  auto r = decode(shippedProfile("huawei-vrp5"), fixtureStore("huawei-vrp5.snmprec"), "sw", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 1u);
  const Sample& s = r.samples[0];
  EXPECT_EQ(s.port, "XGigabitEthernet0/0/1");
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kTemperatureCelsius], 36.0);
  EXPECT_DOUBLE_EQ(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.29);
  ASSERT_EQ(s.lanes.size(), 1u);
  EXPECT_NEAR(*s.lanes[0].values[LaneMetric::kRxPowerDbm], dbm(0.5), 1e-9);
  EXPECT_NEAR(*s.lanes[0].values[LaneMetric::kTxPowerDbm], dbm(0.631), 1e-9);
  EXPECT_NEAR(*s.lanes[0].values[LaneMetric::kTxBiasMilliamperes], 6.8, 1e-9);
  const auto& rx = s.thresholds(LaneMetric::kRxPowerDbm);
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->high_alarm, 0.5);
  EXPECT_DOUBLE_EQ(*rx->low_alarm, -18.01);
  EXPECT_DOUBLE_EQ(*rx->high_warning, -1.0);
  EXPECT_DOUBLE_EQ(*rx->low_warning, -15.0);
}

// YunShan: the same columns in signed 0.01 dBm (+1.25 dBm is a real Tx), the
// lane text in dBm with every lane of a 100G module; "-Inf" is a lane not
// reported, -40.00 the dark floor with its flag.
TEST(HuaweiProfile, YunShanHundredthsOfDbmAndEveryLaneFromTheText) {
  auto r = decode(shippedProfile("huawei-vrp8-yunshan"), fixtureStore("huawei-yunshan.snmprec"), "sw", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.samples.size(), 1u);
  const Sample& s = r.samples[0];
  EXPECT_EQ(s.port, "100GE1/0/1");
  ASSERT_EQ(s.lanes.size(), 4u);
  EXPECT_DOUBLE_EQ(*s.lanes[0].values[LaneMetric::kRxPowerDbm], -2.10);
  EXPECT_DOUBLE_EQ(*s.lanes[1].values[LaneMetric::kRxPowerDbm], -2.30);
  EXPECT_FALSE(s.lanes[2].values[LaneMetric::kRxPowerDbm]);
  EXPECT_DOUBLE_EQ(*s.lanes[3].values[LaneMetric::kRxPowerDbm], -2.50);
  EXPECT_DOUBLE_EQ(*s.lanes[0].values[LaneMetric::kTxPowerDbm], 1.25);
  EXPECT_DOUBLE_EQ(*s.lanes[2].values[LaneMetric::kTxPowerDbm], -40.0);
  EXPECT_EQ(s.lanes[2].status.tx_no_light, true);
  EXPECT_DOUBLE_EQ(*s.lanes[1].values[LaneMetric::kTxBiasMilliamperes], 7.6);
  EXPECT_DOUBLE_EQ(*s.thresholds(LaneMetric::kTxPowerDbm)->high_alarm, 5.0);
}

TEST(HuaweiProfile, OnlyEmptyCagesGiveNoSampleAndNoError) {
  auto r = decode(shippedProfile("huawei-vrp5"), fixtureStore("huawei-empty-cages.snmprec"), "sw", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_TRUE(r.samples.empty());
}

// A platform no profile names: a power whose column and lane text disagree
// is refused with an issue; the other port and the temperature stay.
TEST(HuaweiProfile, UnknownPlatformRefusesReadingsThatDisagree) {
  auto r = decode(shippedProfile("huawei-entity-extent"), fixtureStore("huawei-unknown-platform.snmprec"), "sw", 0);
  const Sample* good = findPort(r, "25GE1/0/1");
  const Sample* bad = findPort(r, "25GE1/0/2");
  ASSERT_NE(good, nullptr);
  ASSERT_NE(bad, nullptr);
  EXPECT_DOUBLE_EQ(*good->lanes[0].values[LaneMetric::kRxPowerDbm], -3.5);
  EXPECT_DOUBLE_EQ(*good->lanes[0].values[LaneMetric::kTxPowerDbm], -1.2);
  EXPECT_DOUBLE_EQ(*bad->module[ModuleMetric::kTemperatureCelsius], 42.0);
  for (const auto& lane : bad->lanes) {
    EXPECT_FALSE(lane.values[LaneMetric::kRxPowerDbm]);
    EXPECT_FALSE(lane.values[LaneMetric::kTxPowerDbm]);
  }
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_NE(r.errors[0].find("port 25GE1/0/2: rx_power_dbm readings disagree"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[1].find("port 25GE1/0/2: tx_power_dbm readings disagree"), std::string::npos) << r.errors[1];
}

// NX-OS admin-down: dBm(14) raw 0 with bias 0 is a laser that is off, not
// 1 mW of light.
TEST(CiscoProfile, AdminDownLaserIsNotZeroDbm) {
  auto r = decode(shippedProfile("cisco-entity-sensor"), fixtureStore("cisco-nxos-admin-down.snmprec"), "sw", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* down = findPort(r, "Ethernet1/1");
  const Sample* up = findPort(r, "Ethernet1/2");
  ASSERT_NE(down, nullptr);
  ASSERT_NE(up, nullptr);
  const Lane* dark = findLane(*down, 1);
  ASSERT_NE(dark, nullptr);
  EXPECT_FALSE(dark->values[LaneMetric::kTxPowerDbm]);
  EXPECT_FALSE(dark->values[LaneMetric::kRxPowerDbm]);
  EXPECT_DOUBLE_EQ(*dark->values[LaneMetric::kTxBiasMilliamperes], 0.0);
  EXPECT_DOUBLE_EQ(*down->module[ModuleMetric::kTemperatureCelsius], 30.5);
  EXPECT_DOUBLE_EQ(*findLane(*up, 1)->values[LaneMetric::kTxPowerDbm], -40.0);  // -400 x 10^-1 dBm: the floor
  EXPECT_DOUBLE_EQ(*findLane(*up, 1)->values[LaneMetric::kRxPowerDbm], -2.5);
}

// Junos EVO lists lanes a module lacks, all zero but the laser temperature:
// "all zero" means the optical columns, so only lane 1 comes out.
// Issue 25 item 6: a coherent port's Rx/Tx power, bias and temperature from
// the PM current table beside its pre-FEC BER (mantissa x 10^-exponent).
TEST(JuniperProfile, CoherentPortPmValuesBesideItsBer) {
  auto r = decode(shippedProfile("juniper-dom"), fixtureStore("juniper-coherent.snmprec"), "ptx", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* et = findPort(r, "et-0/0/4");
  ASSERT_NE(et, nullptr);
  EXPECT_DOUBLE_EQ(*et->module[ModuleMetric::kTemperatureCelsius], 48.7);
  EXPECT_NEAR(*et->module[ModuleMetric::kPreFecBerRatio], 3.1e-3, 1e-12) << "31 x 10^-4, no implied decimals";
  ASSERT_EQ(et->lanes.size(), 1u);
  EXPECT_DOUBLE_EQ(*et->lanes[0].values[LaneMetric::kTxPowerDbm], -10.12);
  EXPECT_DOUBLE_EQ(*et->lanes[0].values[LaneMetric::kRxPowerDbm], -14.56);
  EXPECT_NEAR(*et->lanes[0].values[LaneMetric::kTxBiasMilliamperes], 123.4, 1e-9);
  const Sample* empty = findPort(r, "et-0/0/5");
  EXPECT_TRUE(empty == nullptr || (empty->lanes.empty() && !empty->module[ModuleMetric::kTemperatureCelsius]))
      << "a PM row of zeros is no optics, not 0 dBm";
}

TEST(JuniperProfile, EvoAllZeroLanesWithALaserTemperatureAreNoLanes) {
  auto r = decode(shippedProfile("juniper-dom"), fixtureStore("juniper-evo.snmprec"), "sw", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* s = findPort(r, "et-0/0/0");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->lanes.size(), 1u);
  EXPECT_EQ(s->lanes[0].number, 1);
  EXPECT_DOUBLE_EQ(*s->lanes[0].values[LaneMetric::kRxPowerDbm], -3.12);
}

}  // namespace
}  // namespace opticsd::snmp
