// Variants as data: the example file decodes a notification built from its
// own made-up model; errors say file:line:col; extends starts from a shipped
// variant.
#include "drivers/gnmi/variant_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "drivers/gnmi/telemetry_state.hpp"

namespace opticsd::gnmi {
namespace {

std::string exampleText() {
  std::ifstream in(std::string(OPTICSD_SOURCE_DIR) + "/schemas/gnmi-variants/example-native-optics.yaml");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string errorOf(std::string_view yaml) {
  auto r = parseVariantFile(yaml, "v.yaml");
  return r ? std::string("(loaded)") : r.error().message;
}

TEST(GnmiVariantFile, ExampleMapsItsModel) {
  auto loaded = parseVariantFile(exampleText(), "example-native-optics.yaml");
  ASSERT_TRUE(loaded) << loaded.error().message;
  const VendorVariant& v = (*loaded)->variant;
  EXPECT_EQ(v.name, "acme-native");
  EXPECT_EQ(v.sample_paths.size(), 1u);
  EXPECT_EQ(v.on_change_paths.size(), 1u);
  auto rules = LeafRules::compile(v.rules, v.origins);
  ASSERT_TRUE(rules);
  TelemetryState state(v, *rules);
  auto set = [&](std::string_view p, LeafValue value) { return state.apply(*parsePath(p), value, 1000); };
  for (int lane = 1; lane <= 4; ++lane) {
    const std::string base = "acme-optics:/optics/port[name=p1]/lane[id=" + std::to_string(lane) + "]";
    EXPECT_EQ(set(base + "/rx-power", LeafValue::ofNumber(-250 - lane)), Applied::kMapped);
    EXPECT_EQ(set(base + "/los", LeafValue::ofBool(false)), Applied::kMapped);
  }
  EXPECT_EQ(set("/optics/port[name=p1]/rx-power-low-alarm", LeafValue::ofNumber(-1400)), Applied::kMapped);
  EXPECT_EQ(set("/optics/port[name=p1]/identity/vendor", LeafValue::ofText("ACME")), Applied::kMapped);
  EXPECT_EQ(set("other:/optics/port[name=p1]/temperature", LeafValue::ofNumber(40)), Applied::kUnknownPath);
  auto samples = state.snapshot(2000, 0);
  ASSERT_EQ(samples.size(), 1u);
  ASSERT_EQ(samples[0].lanes.size(), 4u);
  EXPECT_EQ(samples[0].lanes[0].number, 1);
  EXPECT_DOUBLE_EQ(*samples[0].lanes[0].values[LaneMetric::kRxPowerDbm], -2.51);
  EXPECT_EQ(samples[0].identity().vendor, "ACME");
  EXPECT_DOUBLE_EQ(*samples[0].shared_thresholds->lane[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]->low_alarm,
                   -14.0);
}

TEST(GnmiVariantFile, ExtendsAShippedVariantAndItsRulesComeFirst) {
  auto loaded = parseVariantFile(
      "name: oc-plus\nextends: openconfig\nrules:\n"
      "  - {path: \"/components/component[name=$component]/transceiver/state/laser-temp\", module: "
      "laser_temperature_celsius}\n",
      "v.yaml");
  ASSERT_TRUE(loaded) << loaded.error().message;
  const VendorVariant& v = (*loaded)->variant;
  EXPECT_EQ(v.rules.size(), findVendorVariant("openconfig")->rules.size() + 1);
  EXPECT_EQ(v.sample_paths.size(), findVendorVariant("openconfig")->sample_paths.size());
  EXPECT_EQ(v.origins.size(), 3u);
  EXPECT_EQ(v.first_channel_index, 0);
}

TEST(GnmiVariantFile, ErrorsSayFileLineColumn) {
  EXPECT_EQ(errorOf("name: x\nextends: openconfig\nrules:\n  - {path: /a/b, lane: rx_powr_dbm}\n"),
            "v.yaml:4:24: no lane metric 'rx_powr_dbm' in the catalogue (drivers/measurement.hpp)");
  EXPECT_EQ(errorOf("name: x\nextends: nosuch\n"), "v.yaml:2:10: extends an unknown variant 'nosuch'");
  EXPECT_EQ(errorOf("name: openconfig\n"), "v.yaml:1:7: 'openconfig' is a shipped variant's name");
  EXPECT_NE(errorOf("name: x\nextends: openconfig\nrulez: []\n").find("v.yaml:3:1: unknown key 'rulez'"),
            std::string::npos);
  EXPECT_NE(errorOf("name: x\nextends: openconfig\nrules:\n  - {path: /a, lane: rx_power_dbm, module: "
                    "temperature_celsius}\n")
                .find("exactly one of"),
            std::string::npos);
  EXPECT_NE(errorOf("name: x\nsubscribe: [{path: /a, mode: sample}]\nrules:\n  - {path: \"/a[k=$bogus]/b\", "
                    "lane: rx_power_dbm}\n")
                .find("unknown role $bogus"),
            std::string::npos);
  EXPECT_NE(errorOf("name: x\nrules: [\n").find("v.yaml:"), std::string::npos);
  EXPECT_NE(errorOf("name: x\nsubscribe: [{path: /a, mode: sometimes}]\n").find("sample or on_change"),
            std::string::npos);
  EXPECT_NE(errorOf("name: x\nextends: openconfig\nchannel_base: {default: 2}\n").find("0 or 1"), std::string::npos);
}

// `fec_bin:` names the histogram bin a counter leaf holds (N or [low, high]);
// a subscription may name its own prefix target, and extending keeps the
// base's (sonic's COUNTERS_DB call).
TEST(GnmiVariantFile, FecBinsAndAPrefixTargetPerSubscription) {
  auto loaded = parseVariantFile(
      "name: x\ntarget: DB_A\nsubscribe:\n  - {path: /a, mode: sample}\n  - {path: /c, mode: sample, target: DB_C}\n"
      "rules:\n  - {path: /c/$port/s2, field: interface_fec_codewords_total, fec_bin: 2}\n"
      "  - {path: /c/$port/s4to7, field: interface_fec_codewords_total, fec_bin: [4, 7]}\n",
      "v.yaml");
  ASSERT_TRUE(loaded) << loaded.error().message;
  const VendorVariant& v = (*loaded)->variant;
  ASSERT_EQ(v.sample_path_targets.size(), 2u);
  EXPECT_EQ(v.sample_path_targets[0], "DB_A");
  EXPECT_EQ(v.sample_path_targets[1], "DB_C");
  ASSERT_EQ(v.rules.size(), 2u);
  EXPECT_EQ(v.rules[0].bin_low, 2);
  EXPECT_EQ(v.rules[0].bin_high, 2);
  EXPECT_EQ(v.rules[1].bin_low, 4);
  EXPECT_EQ(v.rules[1].bin_high, 7);

  auto extended = parseVariantFile("name: y\nextends: sonic\n", "v.yaml");
  ASSERT_TRUE(extended) << extended.error().message;
  const auto& targets = (*extended)->variant.sample_path_targets;
  EXPECT_NE(std::find(targets.begin(), targets.end(), "COUNTERS_DB"), targets.end());

  const std::string head = "name: x\nsubscribe: [{path: /a, mode: sample}]\nrules:\n";
  EXPECT_NE(errorOf(head + "  - {path: /a/$port/s, field: interface_fec_codewords_total}\n").find("needs fec_bin"),
            std::string::npos);
  EXPECT_NE(errorOf(head + "  - {path: /a/$port/s, field: vendor, fec_bin: 3}\n").find("goes with field"),
            std::string::npos);
  EXPECT_NE(errorOf(head + "  - {path: /a/$port/s, field: interface_fec_codewords_total, fec_bin: [7, 4]}\n")
                .find("low <= high"),
            std::string::npos);
  EXPECT_NE(
      errorOf(head + "  - {path: /a/$port/s, field: interface_fec_codewords_total, fec_bin: -1}\n").find("0..1024"),
      std::string::npos);
  EXPECT_NE(errorOf("name: x\nsubscribe: [{path: /a, mode: sample, db: X}]\nrules: [{path: /a/b, field: vendor}]\n")
                .find("unknown key 'db'"),
            std::string::npos);
}

// `unit: mw | uw | w` (the SNMP profiles' words): power in mW lands in dBm
// 0 mW is dark (the -40 dBm floor and the no-light flag), a 0 mW limit is no
// limit; a unit on a metric that is not optical power is refused.
TEST(GnmiVariantFile, PowerInMilliwattsLandsInDbm) {
  auto loaded = parseVariantFile(
      "name: mw-nos\nsubscribe: [{path: /ports, mode: sample}]\nchannel_base: {default: 1, detect: false}\nrules:\n"
      "  - {path: \"/ports/port[name=$port]/lane[id=$lane]/rx\", lane: rx_power_dbm, unit: mw}\n"
      "  - {path: \"/ports/port[name=$port]/lane[id=$lane]/tx-uw\", lane: tx_power_dbm, unit: uw, scale: 0.1}\n"
      "  - {path: \"/ports/port[name=$port]/rx-high\", threshold: {lane: rx_power_dbm, bound: upper, severity: "
      "CRITICAL}, unit: mw}\n"
      "  - {path: \"/ports/port[name=$port]/rx-low\", threshold: {lane: rx_power_dbm, bound: lower, severity: "
      "CRITICAL}, unit: mw}\n",
      "v.yaml");
  ASSERT_TRUE(loaded) << loaded.error().message;
  const VendorVariant& v = (*loaded)->variant;
  auto rules = LeafRules::compile(v.rules, v.origins);
  ASSERT_TRUE(rules);
  TelemetryState state(v, *rules);
  auto set = [&](std::string_view p, double value) {
    return state.apply(*parsePath(p), LeafValue::ofNumber(value), 1);
  };
  EXPECT_EQ(set("/ports/port[name=p1]/lane[id=1]/rx", 0.5), Applied::kMapped);
  EXPECT_EQ(set("/ports/port[name=p1]/lane[id=2]/rx", 0), Applied::kMapped);
  EXPECT_EQ(set("/ports/port[name=p1]/lane[id=1]/tx-uw", 20000), Applied::kMapped);  // 2000 uW = 2 mW
  EXPECT_EQ(set("/ports/port[name=p1]/rx-high", 2), Applied::kMapped);
  EXPECT_EQ(set("/ports/port[name=p1]/rx-low", 0), Applied::kMapped);
  auto samples = state.snapshot(2, 0);
  ASSERT_EQ(samples.size(), 1u);
  ASSERT_EQ(samples[0].lanes.size(), 2u);
  EXPECT_DOUBLE_EQ(*samples[0].lanes[0].values[LaneMetric::kRxPowerDbm], -3.0103);
  EXPECT_EQ(samples[0].lanes[0].status.rx_no_light, std::optional<bool>(false));
  EXPECT_DOUBLE_EQ(*samples[0].lanes[0].values[LaneMetric::kTxPowerDbm], 3.0103);
  EXPECT_DOUBLE_EQ(*samples[0].lanes[1].values[LaneMetric::kRxPowerDbm], kNoLightFloorDbm);
  EXPECT_EQ(samples[0].lanes[1].status.rx_no_light, std::optional<bool>(true));
  const auto& rx = samples[0].shared_thresholds->lane[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)];
  ASSERT_TRUE(rx);
  EXPECT_DOUBLE_EQ(*rx->high_alarm, 3.0103);
  EXPECT_FALSE(rx->low_alarm);

  EXPECT_EQ(errorOf("name: x\nextends: openconfig\nrules:\n  - {path: /a/b, module: temperature_celsius, unit: mw}\n"),
            "v.yaml:4:53: unit: mw needs an optical power metric (a catalogue key in _dbm)");
  EXPECT_EQ(errorOf("name: x\nextends: openconfig\nrules:\n  - {path: /a/b, lane: rx_power_dbm, unit: nw}\n"),
            "v.yaml:4:44: unit must be dbm, mw, uw or w");
}

}  // namespace
}  // namespace opticsd::gnmi
