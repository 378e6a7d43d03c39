// The profile features real MIBs need (issue 12): rows that mean "no module",
// per-column "not reported" values, text and float cells, one lane per
// column, and the ways a table row names its port. Each test builds a small
// table in snmprec text and a profile in YAML, so the expected values follow
// from the lines above them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "tests/support/snmp/snmprec.hpp"

namespace opticsd::snmp {
namespace {

Profile profileFrom(const std::string& yaml) {
  auto p = loadProfile(yaml, "test.yaml");
  EXPECT_TRUE(p) << (p ? "" : p.error().message);
  return p ? *p : Profile{};
}

VarbindStore storeFrom(const std::string& snmprec) {
  auto rows = parseSnmprec(snmprec);
  EXPECT_TRUE(rows) << (rows ? "" : rows.error().message);
  return VarbindStore(rows ? *rows : std::vector<Varbind>{});
}

const Sample* findPort(const PollResult& r, const std::string& port) {
  for (const auto& s : r.samples) {
    if (s.port == port) return &s;
  }
  return nullptr;
}

std::string ports(const PollResult& r) {
  std::string out;
  for (const auto& s : r.samples) out += s.port + " ";
  return out;
}

// JUNIPER-DOM-MIB style: ifIndex-indexed rows, an empty cage is all zeros.
const char* kJunosLike = R"(name: t
tables:
  - name: domEntry
    entry: 1.3.6.1.4.1.32473.1.1
    skip_rows:
      - {all_zero: [5, 6, 8]}
    columns:
      - {column: 5, metric: rx_power_dbm, unit: dbm, divisor: 100}
      - {column: 6, metric: tx_bias_milliamperes, unit: ua}
      - {column: 8, metric: temperature_celsius}
      - {column: 21, metric: temperature_celsius, threshold: high_alarm}
)";

TEST(ProfileFormat, AllZeroRowIsNoModuleNotAZeroReading) {
  auto store = storeFrom(
      "1.3.6.1.2.1.31.1.1.1.1.501|4|xe-0/0/0\n"
      "1.3.6.1.2.1.31.1.1.1.1.502|4|xe-0/0/1\n"
      "1.3.6.1.4.1.32473.1.1.5.501|2|-250\n"
      "1.3.6.1.4.1.32473.1.1.5.502|2|0\n"
      "1.3.6.1.4.1.32473.1.1.6.501|2|6000\n"
      "1.3.6.1.4.1.32473.1.1.6.502|2|0\n"
      "1.3.6.1.4.1.32473.1.1.8.501|2|31\n"
      "1.3.6.1.4.1.32473.1.1.8.502|2|0\n"
      "1.3.6.1.4.1.32473.1.1.21.501|2|75\n"
      "1.3.6.1.4.1.32473.1.1.21.502|2|0\n");
  auto r = decode(profileFrom(kJunosLike), store, "sw", 0);
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.samples.size(), 1u) << ports(r);
  const Sample* p = findPort(r, "xe-0/0/0");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(*p->module[ModuleMetric::kTemperatureCelsius], 31.0);
  EXPECT_DOUBLE_EQ(*p->lanes.at(0).values[LaneMetric::kRxPowerDbm], -2.5);
  EXPECT_EQ(findPort(r, "xe-0/0/1"), nullptr) << "an all-zero row became a module";
}

// A table indexed by (ifIndex, channel) that repeats the module temperature on
// every channel row (as OcNOS's cmmTransDDMTable does): which row stands is
// the profile's choice, `row_wins`, and the default is the last row.
TEST(ProfileFormat, RowWinsPicksWhichOfSeveralRowsGivesTheModuleValue) {
  const auto store = storeFrom(
      "1.3.6.1.4.1.32473.3.1.2.9.1|2|3100\n"
      "1.3.6.1.4.1.32473.3.1.2.9.2|2|3500\n"
      "1.3.6.1.4.1.32473.3.1.2.9.3|2|2900\n");
  auto temperatureWith = [&](const std::string& wins) -> std::optional<double> {
    auto r = decode(profileFrom("name: t\ntables:\n  - name: ddm\n    entry: 1.3.6.1.4.1.32473.3.1\n"
                                "    lane_arc: 2\n    columns:\n"
                                "      - {column: 2, metric: temperature_celsius, divisor: 100" +
                                (wins.empty() ? std::string() : ", row_wins: " + wins) + "}\n"),
                    store, "sw", 0);
    const Sample* p = findPort(r, "ifIndex9");
    if (!p) return std::nullopt;
    return p->module[ModuleMetric::kTemperatureCelsius];
  };
  EXPECT_EQ(temperatureWith(""), 29.0);  // last, the documented default
  EXPECT_EQ(temperatureWith("last"), 29.0);
  EXPECT_EQ(temperatureWith("first"), 31.0);
  EXPECT_EQ(temperatureWith("max"), 35.0);
  EXPECT_EQ(temperatureWith("min"), 29.0);

  // Readings only: a threshold keeps its first row, a counter is per port.
  for (const char* bad : {"{column: 2, metric: temperature_celsius, threshold: high_alarm, row_wins: max}",
                          "{column: 2, metric: fec_corrected_blocks_total, row_wins: max}",
                          "{column: 2, metric: temperature_celsius, row_wins: highest}"}) {
    auto p = loadProfile(std::string("name: t\ntables: [{name: x, entry: 1.3, columns: [") + bad + "]}]\n", "w.yaml");
    ASSERT_FALSE(p) << bad;
    EXPECT_NE(p.error().message.find("row_wins"), std::string::npos) << p.error().message;
  }
}

TEST(ProfileFormat, AZeroInOneColumnIsStillAReading) {
  // 0 dBm is a real power; only a row zero in every listed column is empty.
  auto store = storeFrom(
      "1.3.6.1.4.1.32473.1.1.5.7|2|0\n"
      "1.3.6.1.4.1.32473.1.1.6.7|2|5000\n"
      "1.3.6.1.4.1.32473.1.1.8.7|2|40\n");
  auto r = decode(profileFrom(kJunosLike), store, "sw", 0);
  const Sample* p = findPort(r, "ifIndex7");
  ASSERT_NE(p, nullptr) << ports(r);
  EXPECT_DOUBLE_EQ(*p->lanes.at(0).values[LaneMetric::kRxPowerDbm], 0.0);
}

TEST(ProfileFormat, StatusColumnSkipsRows) {
  auto profile = profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.2.1
    skip_rows:
      - {column: 2, not_equals: [1]}     # present(1)
    columns:
      - {column: 3, metric: temperature_celsius}
)");
  auto store = storeFrom(
      "1.3.6.1.4.1.32473.2.1.2.1|2|1\n1.3.6.1.4.1.32473.2.1.3.1|2|30\n"
      "1.3.6.1.4.1.32473.2.1.2.2|2|2\n1.3.6.1.4.1.32473.2.1.3.2|2|0\n");
  auto r = decode(profile, store, "sw", 0);
  ASSERT_EQ(r.samples.size(), 1u) << ports(r);
  EXPECT_EQ(r.samples[0].port, "ifIndex1");
}

TEST(ProfileFormat, SentinelsAreAbsentNeverValues) {
  // OcNOS style: unsupported temperature -1000.01 (text), voltage -100001 in
  // 0.001 V, and a 0xFFFF bias.
  auto profile = profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.3.1
    columns:
      - {column: 2, metric: temperature_celsius, format: text, absent: -1000.01}
      - {column: 3, metric: supply_voltage_volts, divisor: 1000, absent: [-100001, -100.001]}
      - {column: 4, metric: tx_bias_milliamperes, unit: ua, absent: 65535}
)");
  auto store = storeFrom(
      "1.3.6.1.4.1.32473.3.1.2.1|4|-1000.01\n1.3.6.1.4.1.32473.3.1.3.1|2|-100001\n"
      "1.3.6.1.4.1.32473.3.1.4.1|2|65535\n"
      "1.3.6.1.4.1.32473.3.1.2.2|4|36.5\n1.3.6.1.4.1.32473.3.1.3.2|2|3301\n"
      "1.3.6.1.4.1.32473.3.1.4.2|2|6500\n");
  auto r = decode(profile, store, "sw", 0);
  EXPECT_TRUE(r.errors.empty());
  const Sample* unsupported = findPort(r, "ifIndex1");
  ASSERT_NE(unsupported, nullptr) << "the module is there; its values are not reported";
  EXPECT_FALSE(unsupported->module[ModuleMetric::kTemperatureCelsius]);
  EXPECT_FALSE(unsupported->module[ModuleMetric::kSupplyVoltageVolts]);
  for (const auto& l : unsupported->lanes) EXPECT_FALSE(l.values[LaneMetric::kTxBiasMilliamperes]);
  const Sample* ok = findPort(r, "ifIndex2");
  ASSERT_NE(ok, nullptr);
  EXPECT_DOUBLE_EQ(*ok->module[ModuleMetric::kTemperatureCelsius], 36.5);
  EXPECT_DOUBLE_EQ(*ok->module[ModuleMetric::kSupplyVoltageVolts], 3.301);
  EXPECT_DOUBLE_EQ(*ok->lanes.at(0).values[LaneMetric::kTxBiasMilliamperes], 6.5);
}

TEST(ProfileFormat, EntitySensorSentinel) {
  auto profile = profileFrom(R"(name: t
entity_sensors:
  sensor_entry: 1.3.6.1.2.1.99.1.1.1
  sensors:
    - {match: 'Temp', metric: temperature_celsius, absent: -40}
  port: {method: description, pattern: '^(\S+) '}
)");
  auto store = storeFrom(
      "1.3.6.1.2.1.47.1.1.1.1.2.1|4|Eth1 Temp\n1.3.6.1.2.1.47.1.1.1.1.2.2|4|Eth2 Temp\n"
      "1.3.6.1.2.1.99.1.1.1.1.1|2|8\n1.3.6.1.2.1.99.1.1.1.1.2|2|8\n"
      "1.3.6.1.2.1.99.1.1.1.4.1|2|-40\n1.3.6.1.2.1.99.1.1.1.4.2|2|33\n");
  auto r = decode(profile, store, "sw", 0);
  EXPECT_EQ(findPort(r, "Eth1"), nullptr);
  ASSERT_NE(findPort(r, "Eth2"), nullptr);
  EXPECT_DOUBLE_EQ(*findPort(r, "Eth2")->module[ModuleMetric::kTemperatureCelsius], 33.0);
}

TEST(ProfileFormat, TextWithUnitsAndNotAvailable) {
  // Dell OS9 style strings.
  auto profile = profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.4.1
    columns:
      - {column: 2, metric: rx_power_dbm, unit: dbm, format: text}
      - {column: 3, metric: temperature_celsius, format: text}
)");
  auto store = storeFrom(
      "1.3.6.1.4.1.32473.4.1.2.1|4|-2.35 dBm\n1.3.6.1.4.1.32473.4.1.3.1|4| 31.50 C\n"
      "1.3.6.1.4.1.32473.4.1.2.2|4|N/A\n1.3.6.1.4.1.32473.4.1.3.2|2|5\n");
  auto r = decode(profile, store, "sw", 0);
  const Sample* p1 = findPort(r, "ifIndex1");
  ASSERT_NE(p1, nullptr);
  EXPECT_DOUBLE_EQ(*p1->lanes.at(0).values[LaneMetric::kRxPowerDbm], -2.35);
  EXPECT_DOUBLE_EQ(*p1->module[ModuleMetric::kTemperatureCelsius], 31.5);
  const Sample* p2 = findPort(r, "ifIndex2");
  ASSERT_NE(p2, nullptr);
  for (const auto& l : p2->lanes) EXPECT_FALSE(l.values[LaneMetric::kRxPowerDbm]) << "N/A is not reported";
  ASSERT_EQ(r.errors.size(), 1u) << "an INTEGER where text is expected is an issue";
  EXPECT_NE(r.errors[0].find("expected text"), std::string::npos) << r.errors[0];
}

TEST(ProfileFormat, Float32BitsAndOneLanePerColumn) {
  // 0x3F800000 = 1.0f, 0x40490FDB = 3.14159274f; 4 octets 0xC0200000 = -2.5f.
  auto profile = profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.5.1
    columns:
      - {column: 2, metric: rx_power_dbm, unit: dbm, format: float32, lane: 1}
      - {column: 3, metric: rx_power_dbm, unit: dbm, format: float32, lane: 2}
      - {column: 4, metric: rx_power_dbm, unit: dbm, format: float32, lane: 3}
)");
  auto store = storeFrom(
      "1.3.6.1.4.1.32473.5.1.2.9|66|1065353216\n1.3.6.1.4.1.32473.5.1.3.9|66|1078530011\n"
      "1.3.6.1.4.1.32473.5.1.4.9|4x|c0200000\n");
  auto r = decode(profile, store, "sw", 0);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Sample* p = findPort(r, "ifIndex9");
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->lanes.size(), 3u);
  EXPECT_DOUBLE_EQ(*p->lanes[0].values[LaneMetric::kRxPowerDbm], 1.0);
  EXPECT_DOUBLE_EQ(*p->lanes[1].values[LaneMetric::kRxPowerDbm], 3.1416);  // float32 pi, to 0.0001 dB
  EXPECT_DOUBLE_EQ(*p->lanes[2].values[LaneMetric::kRxPowerDbm], -2.5);
}

// OcNOS indexes by its own port number; port 9 is not ifIndex 9 (eth0).
const char* kPortNaming = R"(
1.3.6.1.2.1.2.2.1.2.9|4|eth0
1.3.6.1.2.1.2.2.1.2.5001|4|xe1
1.3.6.1.2.1.31.1.1.1.1.5001|4|xe1
1.3.6.1.4.1.32473.6.1.2.9|2|5001
1.3.6.1.4.1.32473.6.1.3.9|4|port xe1 (QSFP28)
1.3.6.1.4.1.32473.6.1.4.9|2|30
)";

TEST(ProfileFormat, PortFromAColumnHoldingTheIfIndex) {
  auto r = decode(profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.6.1
    port: {if_index_column: 2}
    columns:
      - {column: 4, metric: temperature_celsius}
)"),
                  storeFrom(kPortNaming), "sw", 0);
  EXPECT_NE(findPort(r, "xe1"), nullptr) << ports(r);
  EXPECT_EQ(findPort(r, "eth0"), nullptr) << "the port number was taken for an ifIndex";
}

// OTN pre-FEC BER as a mantissa and an exponent column. Cisco
// CISCO-OTN-IF-MIB: mantissa 140 (two implied decimals), exponent -5 is
// 1.4e-05 (Cisco's published example). Juniper JNX-OPT-IF-EXT-MIB:
// mantissa x 10^-exponent, exponent 6 and mantissa 14 is 1.4e-05.
TEST(ProfileFormat, MantissaAndExponentColumns) {
  auto r = decode(profileFrom(R"(name: t
tables:
  - name: cisco
    entry: 1.3.6.1.4.1.32473.8.1
    columns:
      - {column: 10, metric: module_pre_fec_ber_ratio, divisor: 100, exponent_column: 11}
  - name: juniper
    entry: 1.3.6.1.4.1.32473.9.1
    columns:
      - {column: 5, metric: module_pre_fec_ber_ratio, exponent_column: 6, exponent_sign: -1}
)"),
                  storeFrom("1.3.6.1.2.1.31.1.1.1.1.1|4|co1\n1.3.6.1.2.1.31.1.1.1.1.2|4|et-0/0/1\n"
                            "1.3.6.1.2.1.31.1.1.1.1.3|4|co3\n1.3.6.1.2.1.31.1.1.1.1.4|4|co4\n"
                            "1.3.6.1.4.1.32473.8.1.10.1|2|140\n1.3.6.1.4.1.32473.8.1.11.1|2|-5\n"
                            "1.3.6.1.4.1.32473.8.1.10.3|2|140\n"
                            "1.3.6.1.4.1.32473.8.1.10.4|2|140\n1.3.6.1.4.1.32473.8.1.11.4|2|99\n"
                            "1.3.6.1.4.1.32473.9.1.5.2|66|14\n1.3.6.1.4.1.32473.9.1.6.2|66|6\n"),
                  "sw", 0);
  const Sample* cisco = findPort(r, "co1");
  ASSERT_NE(cisco, nullptr) << ports(r);
  EXPECT_NEAR(*cisco->module[ModuleMetric::kPreFecBerRatio], 1.4e-5, 1e-15);
  const Sample* juniper = findPort(r, "et-0/0/1");
  ASSERT_NE(juniper, nullptr) << ports(r);
  EXPECT_NEAR(*juniper->module[ModuleMetric::kPreFecBerRatio], 1.4e-5, 1e-15);
  // No exponent, or one no BER has: an issue, never the bare mantissa.
  for (const char* port : {"co3", "co4"}) {
    if (const Sample* s = findPort(r, port)) {
      EXPECT_FALSE(s->module[ModuleMetric::kPreFecBerRatio]) << port;
    }
  }
  EXPECT_EQ(r.errors.size(), 2u);
}

TEST(ProfileFormat, PortFromATextColumnThroughARegex) {
  auto r = decode(profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.6.1
    port: {name_column: 3, pattern: '^port (\S+)'}
    columns:
      - {column: 4, metric: temperature_celsius}
)"),
                  storeFrom(kPortNaming), "sw", 0);
  EXPECT_NE(findPort(r, "xe1"), nullptr) << ports(r);
}

TEST(ProfileFormat, PortFromIfDescrWhenThereIsNoIfName) {
  auto r = decode(profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.6.1
    columns:
      - {column: 4, metric: temperature_celsius}
)"),
                  storeFrom(kPortNaming), "sw", 0);
  EXPECT_NE(findPort(r, "eth0"), nullptr) << "ifIndex 9 has only an ifDescr: " << ports(r);
}

TEST(ProfileFormat, PortFromATemplateOfIndexArcs) {
  auto r = decode(profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.7.1
    port: {index_template: 'unit{1}/xcvr{2}'}
    lane_arc: 3
    columns:
      - {column: 2, metric: rx_power_dbm, unit: dbm}
)"),
                  storeFrom("1.3.6.1.2.1.31.1.1.1.1.9|4|eth0\n"
                            "1.3.6.1.4.1.32473.7.1.2.1.9.1|2|-3\n1.3.6.1.4.1.32473.7.1.2.1.9.2|2|-4\n"
                            "1.3.6.1.4.1.32473.7.1.2.2.9.1|2|-5\n"),
                  "sw", 0);
  const Sample* p = findPort(r, "unit1/xcvr9");
  ASSERT_NE(p, nullptr) << ports(r);
  ASSERT_EQ(p->lanes.size(), 2u);
  EXPECT_NE(findPort(r, "unit2/xcvr9"), nullptr) << ports(r);
  EXPECT_EQ(findPort(r, "eth0"), nullptr);
}

TEST(ProfileFormat, ExponentSignNeedsAColumnAndIsPlusOrMinusOne) {
  const char* head = "name: t\ntables:\n  - name: e\n    entry: 1.3.6.1.4.1.32473.8.1\n    columns:\n";
  for (const char* bad :
       {"      - {column: 2, metric: module_pre_fec_ber_ratio, exponent_sign: -1}\n",
        "      - {column: 2, metric: module_pre_fec_ber_ratio, exponent_column: 3, exponent_sign: 0}\n",
        "      - {column: 2, metric: module_pre_fec_ber_ratio, exponent_column: 3, exponent_sign: 2}\n"}) {
    auto p = loadProfile(std::string(head) + bad, "t.yaml");
    ASSERT_FALSE(p) << bad;
    EXPECT_NE(p.error().message.find("exponent_sign"), std::string::npos) << p.error().message;
  }
}

TEST(ProfileFormat, BadIndexTemplatesAreRefused) {
  for (const char* bad : {"'xcvr'", "'xcvr{0}'", "'xcvr{17}'", "'xcvr{a}'", "'xcvr{2'", "'xcvr}2'"}) {
    auto p = loadProfile(std::string("name: t\ntables:\n  - name: e\n    entry: 1.3.6.1.4.1.32473.7.1\n"
                                     "    port: {index_template: ") +
                             bad + "}\n    columns:\n      - {column: 2, metric: temperature_celsius}\n",
                         "t.yaml");
    ASSERT_FALSE(p) << bad;
    EXPECT_NE(p.error().message.find("port.index_template"), std::string::npos) << p.error().message;
  }
}

// Sensors whose text carries no port, under ancestors whose *names* do
// (port.ancestor_text), and four lane sensors the profile cannot tell apart:
// none of those four is used, and the poll says why.
TEST(ProfileFormat, AncestorNamesAndSensorsThatCannotBeToldApart) {
  const auto profile = profileFrom(R"(name: t
entity_sensors:
  sensor_entry: 1.3.6.1.2.1.99.1.1.1
  sensors:
    - {match: '^Rx Power', metric: rx_power_dbm, unit: dbm}
  port: {method: contained_in, text: descr, ancestor_text: name, pattern: '^(Hu\S+)$'}
)");
  std::string walk =
      "1.3.6.1.2.1.47.1.1.1.1.2.100|4|port A\n"  // descr: no port in it
      "1.3.6.1.2.1.47.1.1.1.1.2.200|4|port B\n"
      "1.3.6.1.2.1.47.1.1.1.1.7.100|4|Hu0/0/0/0\n"
      "1.3.6.1.2.1.47.1.1.1.1.7.200|4|Hu0/0/0/1\n";
  for (int s = 1; s <= 5; ++s) {  // sensor 101 under port A; 201..204 under port B
    const int index = s == 1 ? 101 : 199 + s;
    const int parent = s == 1 ? 100 : 200;
    walk += "1.3.6.1.2.1.47.1.1.1.1.2." + std::to_string(index) + "|4|Rx Power\n";
    walk += "1.3.6.1.2.1.47.1.1.1.1.4." + std::to_string(index) + "|2|" + std::to_string(parent) + "\n";
    walk += "1.3.6.1.2.1.99.1.1.1.1." + std::to_string(index) + "|2|14\n";
    walk += "1.3.6.1.2.1.99.1.1.1.4." + std::to_string(index) + "|2|" + std::to_string(-s) + "\n";
  }
  const auto r = decode(profile, storeFrom(walk), "sw", 0);
  const Sample* a = findPort(r, "Hu0/0/0/0");
  ASSERT_NE(a, nullptr) << ports(r);
  EXPECT_DOUBLE_EQ(*a->lanes.at(0).values[LaneMetric::kRxPowerDbm], -1.0);
  EXPECT_EQ(findPort(r, "Hu0/0/0/1"), nullptr) << "one of four indistinct lane sensors was shown as lane 1";
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("sensors 201, 202, 203, 204 all give port Hu0/0/0/1 lane 1"), std::string::npos)
      << r.errors[0];

  auto bad = loadProfile(R"(name: t
entity_sensors:
  sensor_entry: 1.3.6.1.2.1.99.1.1.1
  sensors: [{match: x, metric: rx_power_dbm}]
  port: {method: description, ancestor_text: name, pattern: '(x)'}
)",
                         "a.yaml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("ancestor_text: only with method: contained_in"), std::string::npos)
      << bad.error().message;
}

TEST(ProfileFormat, PortFromAnEntityIndexThroughAliasMappingOrName) {
  auto profile = profileFrom(R"(name: t
tables:
  - name: e
    entry: 1.3.6.1.4.1.32473.7.1
    port: {entity_index: true}
    columns:
      - {column: 2, metric: temperature_celsius}
)");
  auto store = storeFrom(
      "1.3.6.1.2.1.31.1.1.1.1.726|4|et-0/0/1\n"
      "1.3.6.1.2.1.47.1.1.1.1.7.1001|4|xcvr 0/0/1\n"
      "1.3.6.1.2.1.47.1.1.1.1.7.1002|4|Optics 0/0/2\n"
      "1.3.6.1.2.1.47.1.3.2.1.2.1001.0|6|1.3.6.1.2.1.2.2.1.1.726\n"
      "1.3.6.1.4.1.32473.7.1.2.1001|2|30\n1.3.6.1.4.1.32473.7.1.2.1002|2|31\n");
  EXPECT_NE(std::find(planWalks(profile).static_roots.begin(), planWalks(profile).static_roots.end(),
                      oids::kEntAliasMappingIdentifier),
            planWalks(profile).static_roots.end());
  auto r = decode(profile, store, "sw", 0);
  EXPECT_NE(findPort(r, "et-0/0/1"), nullptr) << "alias mapping -> ifName: " << ports(r);
  EXPECT_NE(findPort(r, "Optics 0/0/2"), nullptr) << "no alias: entPhysicalName: " << ports(r);
}

TEST(ProfileFormat, ExplainSaysWhyRowsWereSkipped) {
  Trace trace;
  auto store = storeFrom(
      "1.3.6.1.4.1.32473.1.1.5.502|2|0\n1.3.6.1.4.1.32473.1.1.6.502|2|0\n1.3.6.1.4.1.32473.1.1.8.502|2|0\n"
      "1.3.6.1.4.1.32473.1.1.8.503|2|29\n");
  auto profile = profileFrom(kJunosLike);
  auto r = apply(profile, resolve(profile, store, &trace), store, "sw", 0, &trace);
  std::string all;
  for (const auto& l : trace.lines()) all += l + "\n";
  EXPECT_NE(all.find("domEntry.502: row skipped (no module): all_zero 5,6,8"), std::string::npos) << all;
  EXPECT_NE(all.find("domEntry.8.503: temperature_celsius port ifIndex503 lane 1 = 29"), std::string::npos) << all;
}

TEST(ProfileFormat, BadNewKeysAreRefusedWithTheirPlace) {
  const char* bad[] = {
      "name: t\ntables:\n  - {name: e, entry: 1.3.6.1.4.1.1, skip_rows: [{column: 2}], columns: [{column: 1, metric: "
      "temperature}]}\n",
      "name: t\ntables:\n  - {name: e, entry: 1.3.6.1.4.1.1, columns: [{column: 1, metric: temperature_celsius, "
      "format: "
      "bcd}]}\n",
      "name: t\ntables:\n  - {name: e, entry: 1.3.6.1.4.1.1, columns: [{column: 1, metric: temperature_celsius, "
      "absent: "
      "x}]}\n",
      "name: t\ntables:\n  - {name: e, entry: 1.3.6.1.4.1.1, port: {if_index_column: 2, name_column: 3}, columns: "
      "[{column: 1, metric: temperature_celsius}]}\n",
      "name: t\ntables:\n  - {name: e, entry: 1.3.6.1.4.1.1, columns: [{column: 1, metric: temperature_celsius, lane: "
      "65}]}\n",
  };
  for (const char* yaml : bad) {
    auto p = loadProfile(yaml, "bad.yaml");
    EXPECT_FALSE(p) << yaml;
    if (!p) {
      EXPECT_NE(p.error().message.find("bad.yaml:"), std::string::npos) << p.error().message;
    }
  }
}

TEST(ProfileFormat, ExtendsAShippedProfileInsteadOfCopyingIt) {
  const std::string dir = ::testing::TempDir() + "/extends-profiles";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/junos-evo.yaml") << R"(name: junos-evo-site
extends: juniper-dom
sys_object_id: 1.3.6.1.4.1.2636.1.1.1.4
tables:
  - name: jnxDomModuleLaneEntry            # replaced: lane Rx power only
    entry: 1.3.6.1.4.1.2636.3.60.1.2.1.1
    lane_arc: 2
    lane_base: 0
    columns:
      - {column: 6, metric: rx_power_dbm, unit: dbm, divisor: 100}
  - name: siteCoherentEntry                # added
    entry: 1.3.6.1.4.1.32473.9.1
    columns:
      - {column: 2, metric: q_factor_decibels, divisor: 10}
      - {column: 3, metric: osnr_decibels, divisor: 10}
)";
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles", dir});
  ASSERT_TRUE(catalog) << catalog.error().message;
  auto child = (*catalog)->byName("junos-evo-site");
  auto base = (*catalog)->byName("juniper-dom");
  ASSERT_TRUE(child && base);
  ASSERT_EQ(child->tables.size(), base->tables.size() + 1);
  EXPECT_EQ(child->tables[0].columns.size(), base->tables[0].columns.size()) << "the base table is inherited";
  EXPECT_EQ(child->tables[0].skip_rows.size(), 1u);
  auto lanes = std::find_if(child->tables.begin(), child->tables.end(),
                            [](const auto& t) { return t.name == "jnxDomModuleLaneEntry"; });
  ASSERT_NE(lanes, child->tables.end());
  EXPECT_EQ(lanes->columns.size(), 1u) << "a table of the same name replaces the base's";
  EXPECT_EQ(child->tables.back().name, "siteCoherentEntry") << "an added table comes after the base's";
  ASSERT_EQ(child->sys_object_ids.size(), 1u);
  EXPECT_EQ(child->sys_object_ids[0].toString(), "1.3.6.1.4.1.2636.1.1.1.4");
  EXPECT_EQ((*catalog)->bySysObjectId(*Oid::parse("1.3.6.1.4.1.2636.1.1.1.4.99"))->name, "junos-evo-site");
  EXPECT_EQ((*catalog)->bySysObjectId(*Oid::parse("1.3.6.1.4.1.2636.1.1.1.2.90"))->name, "juniper-dom");

  auto r = decode(*child,
                  storeFrom("1.3.6.1.4.1.32473.9.1.2.5|2|121\n1.3.6.1.4.1.32473.9.1.3.5|2|185\n"
                            "1.3.6.1.2.1.31.1.1.1.1.5|4|et-0/0/5\n"),
                  "ptx", 0);
  const Sample* p = findPort(r, "et-0/0/5");
  ASSERT_NE(p, nullptr) << ports(r);
  EXPECT_DOUBLE_EQ(*p->lanes.at(0).values[LaneMetric::kQFactorDecibels], 12.1);
  EXPECT_DOUBLE_EQ(*p->lanes.at(0).values[LaneMetric::kOsnrDecibels], 18.5);
}

TEST(ProfileFormat, ExtendsAnUnknownProfileFailsTheCatalogWithTheFile) {
  const std::string dir = ::testing::TempDir() + "/extends-broken";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/x.yaml") << "name: x\nextends: no-such-profile\n";
  auto catalog = ProfileCatalog::load({dir});
  ASSERT_FALSE(catalog);
  EXPECT_NE(catalog.error().message.find("x.yaml: extends 'no-such-profile'"), std::string::npos)
      << catalog.error().message;
}

// The fuzz-only profile (tests/fuzz/snmp/profiles) must load, or the decode
// fuzzer silently loses the features it is there to drive.
TEST(ProfileFormat, FuzzOnlyProfileLoadsAndDecodesEveryFixture) {
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/tests/fuzz/snmp/profiles"});
  ASSERT_TRUE(catalog) << catalog.error().message;
  auto profile = (*catalog)->byName("fuzz-formats");
  ASSERT_TRUE(profile);
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/snmp")) {
    if (entry.path().extension() != ".snmprec") continue;
    auto rows = readSnmprecFile(entry.path().string());
    ASSERT_TRUE(rows) << entry.path();
    auto r = decode(*profile, VarbindStore(*rows), "fuzz", 0);
    for (const auto& sample : r.samples) {
      for (const auto& lane : sample.lanes) {
        for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
          const auto& v = lane.values[static_cast<LaneMetric>(m)];
          EXPECT_TRUE(!v || std::isfinite(*v)) << entry.path();
        }
      }
    }
  }
}

}  // namespace
}  // namespace opticsd::snmp
