#include "daemon/exporter/sample_collector.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "drivers/units.hpp"
#include "exposition.hpp"

namespace opticsd {
namespace {

using test::valueOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kModule = R"(target="leaf-1",port="Ethernet1/1")";
std::string lane(int n) { return kModule + ",lane=\"" + std::to_string(n) + "\""; }

// One CMIS module with every kind of value, and gaps where a real module has them.
Sample handBuiltSample() {
  Sample s;
  s.target = "leaf-1";
  s.port = "Ethernet1/1";
  s.mutableIdentity().family = ModuleFamily::kCmis;
  s.mutableIdentity().form_factor = "QSFP-DD";
  s.mutableIdentity().media = "400GBASE-DR4";
  s.mutableIdentity().vendor = "ACME\xFF\xFEOPTICS";  // garbage bytes from a module EEPROM
  s.mutableIdentity().part_number = "QDD-400G-DR4";
  s.mutableIdentity().serial = "SN\"12\\3";  // quote and backslash must be escaped, not break the line
  s.mutableIdentity().revision = "A1";
  s.mutableIdentity().firmware_version = "4.2";
  s.mutableIdentity().modulation = Modulation::kPam4;
  s.module.set(ModuleMetric::kTemperatureCelsius, 45.5);
  // Vcc not reported.
  s.mutableThresholds(ModuleMetric::kTemperatureCelsius) = Thresholds{75, 70, std::nullopt, -5};
  s.module_flags[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)] = AlarmFlags{false, false, true, false};
  s.mutableThresholds(LaneMetric::kRxPowerDbm) = Thresholds{3.4, 2.4, -10.4, -13.9};

  Lane l1;
  l1.number = 1;
  l1.values.set(LaneMetric::kTxBiasMilliamperes, 6.5);
  l1.values.set(LaneMetric::kTxPowerDbm, 1.25);
  const OpticalPower dark = opticalPowerFromMilliwatts(0.0);
  l1.values.set(LaneMetric::kRxPowerDbm, dark.dbm);
  l1.status.rx_no_light = dark.no_light;
  l1.status.tx_no_light = false;
  l1.status.rx_los = true;
  l1.status.data_path_state = 4;
  l1.values.set(LaneMetric::kPreFecBerRatio, 2.5e-5);
  l1.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = AlarmFlags{false, true, false, false};  // low alarm
  s.lanes.push_back(l1);

  Lane l2;
  l2.number = 2;
  l2.values.set(LaneMetric::kTxBiasMilliamperes, 7.0);
  l2.values.set(LaneMetric::kTxPowerDbm, std::numeric_limits<double>::quiet_NaN());  // driver bug: not reported
  s.lanes.push_back(l2);
  Lane duplicate = l2;  // a second lane 2 must not produce duplicate series
  duplicate.values.set(LaneMetric::kTxBiasMilliamperes, 99.0);
  s.lanes.push_back(duplicate);

  s.fec.corrected_blocks_total = 1000;
  s.fec.uncorrectable_blocks_total = 0;  // reported as zero: present as 0
  s.fec.lane_corrected_bits_total = {5, std::nullopt};
  s.link.up = true;
  s.link.down_events_total = 2;
  s.link.speed_gbps = 400;
  return s;
}

std::string renderOne(std::vector<Sample> samples, const std::string& target = "leaf-1") {
  LatestSamples cache;
  cache.replaceTarget(target, std::move(samples));
  return test::serialize(SampleCollector::render(cache.snapshot()));
}

TEST(SampleCollector, ModuleValuesThresholdsAndFlags) {
  const std::string text = renderOne({handBuiltSample()});
  EXPECT_EQ(valueOf(text, "opticsd_module_temperature_celsius{" + kModule + "}"), 45.5);
  EXPECT_EQ(valueOf(text, "opticsd_module_threshold_temperature_celsius{" + kModule + R"(,level="high_alarm"})"), 75);
  EXPECT_EQ(valueOf(text, "opticsd_module_threshold_temperature_celsius{" + kModule + R"(,level="low_alarm"})"), -5);
  EXPECT_EQ(valueOf(text, "opticsd_module_threshold_temperature_celsius{" + kModule + R"(,level="low_warning"})"),
            std::nullopt);
  const std::string flag = "opticsd_module_alarm_flag{" + kModule + R"(,metric="temperature_celsius",level=")";
  EXPECT_EQ(valueOf(text, flag + "high_warning\"}"), 1);
  // Flags that are not raised have no series.
  EXPECT_EQ(valueOf(text, flag + "high_alarm\"}"), std::nullopt);
  EXPECT_EQ(valueOf(text, flag + "low_alarm\"}"), std::nullopt);
  EXPECT_EQ(valueOf(text, "opticsd_module_present{" + kModule + "}"), 1);
}

TEST(SampleCollector, AbsentValuesHaveNoSeriesAndNoFamily) {
  const std::string text = renderOne({handBuiltSample()});
  EXPECT_THAT(text, Not(HasSubstr("supply_voltage")));  // never reported
  EXPECT_THAT(text, Not(HasSubstr("opticsd_lane_esnr_decibels")));
  EXPECT_THAT(text, Not(HasSubstr("opticsd_fec_corrected_bit_errors_total")));
  EXPECT_EQ(valueOf(text, "opticsd_lane_tx_power_dbm{" + lane(2) + "}"), std::nullopt);  // NaN
  EXPECT_EQ(valueOf(text, "opticsd_lane_rx_power_dbm{" + lane(2) + "}"), std::nullopt);
  EXPECT_EQ(valueOf(text, "opticsd_lane_rx_los{" + lane(2) + "}"), std::nullopt);
  EXPECT_EQ(valueOf(text, "opticsd_lane_alarm_flag{" + lane(2) + R"(,metric="rx_power_dbm",level="low_alarm"})"),
            std::nullopt);
  EXPECT_THAT(text, Not(HasSubstr("NaN")));
  EXPECT_THAT(text, Not(HasSubstr("Nan")));
}

TEST(SampleCollector, LaneValuesStatusAndNoLightFloor) {
  const std::string text = renderOne({handBuiltSample()});
  // Bias is reported in mA and exported in the base unit.
  EXPECT_DOUBLE_EQ(valueOf(text, "opticsd_lane_tx_bias_amperes{" + lane(1) + "}").value_or(0), 6.5e-3);
  EXPECT_THAT(text, Not(HasSubstr("_milliamperes")));
  EXPECT_EQ(valueOf(text, "opticsd_lane_tx_power_dbm{" + lane(1) + "}"), 1.25);
  EXPECT_EQ(valueOf(text, "opticsd_lane_rx_power_dbm{" + lane(1) + "}"), kNoLightFloorDbm);
  EXPECT_EQ(valueOf(text, "opticsd_lane_rx_no_light{" + lane(1) + "}"), 1);
  EXPECT_EQ(valueOf(text, "opticsd_lane_tx_no_light{" + lane(1) + "}"), 0);
  EXPECT_EQ(valueOf(text, "opticsd_lane_rx_los{" + lane(1) + "}"), 1);
  EXPECT_EQ(valueOf(text, "opticsd_lane_tx_fault{" + lane(1) + "}"), std::nullopt);
  EXPECT_EQ(valueOf(text, "opticsd_lane_data_path_state{" + lane(1) + "}"), 4);
  EXPECT_DOUBLE_EQ(valueOf(text, "opticsd_lane_pre_fec_ber_ratio{" + lane(1) + "}").value_or(0), 2.5e-5);
  const std::string flag = "opticsd_lane_alarm_flag{" + lane(1) + R"(,metric="rx_power_dbm",level=")";
  EXPECT_EQ(valueOf(text, flag + "low_alarm\"}"), 1);
  EXPECT_EQ(valueOf(text, flag + "high_alarm\"}"), std::nullopt);
  EXPECT_EQ(valueOf(text, "opticsd_lane_threshold_rx_power_dbm{" + kModule + R"(,level="low_warning"})"), -10.4);
  // Lane 2 is rendered once, from its first occurrence.
  EXPECT_DOUBLE_EQ(valueOf(text, "opticsd_lane_tx_bias_amperes{" + lane(2) + "}").value_or(0), 7.0e-3);
  EXPECT_EQ(test::linesStartingWith(text, "opticsd_lane_tx_bias_amperes{").size(), 2u);
}

TEST(SampleCollector, FecAndLinkAreTypedCounters) {
  const std::string text = renderOne({handBuiltSample()});
  EXPECT_THAT(text, HasSubstr("# TYPE opticsd_fec_corrected_blocks_total counter\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE opticsd_link_down_events_total counter\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE opticsd_lane_rx_power_dbm gauge\n"));
  EXPECT_EQ(valueOf(text, "opticsd_fec_corrected_blocks_total{" + kModule + "}"), 1000);
  EXPECT_EQ(valueOf(text, "opticsd_fec_uncorrectable_blocks_total{" + kModule + "}"), 0);
  EXPECT_EQ(valueOf(text, "opticsd_lane_fec_corrected_bit_errors_total{" + lane(1) + "}"), 5);
  EXPECT_EQ(valueOf(text, "opticsd_lane_fec_corrected_bit_errors_total{" + lane(2) + "}"), std::nullopt);
  EXPECT_EQ(valueOf(text, "opticsd_link_up{" + kModule + "}"), 1);
  EXPECT_EQ(valueOf(text, "opticsd_link_down_events_total{" + kModule + "}"), 2);
  EXPECT_EQ(valueOf(text, "opticsd_link_speed_bytes_per_second{" + kModule + "}"), 50e9);
}

TEST(SampleCollector, OneInfoSeriesWithEscapedIdentity) {
  const std::string text = renderOne({handBuiltSample()});
  const auto info = test::linesStartingWith(text, "opticsd_module_info{");
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0], "opticsd_module_info{" + kModule +
                         R"(,family="cmis",form_factor="QSFP-DD",media="400GBASE-DR4",vendor="ACME\\xFF\\xFEOPTICS",)"
                         R"(part_number="QDD-400G-DR4",serial="SN\"12\\3",revision="A1",firmware_version="4.2",)"
                         R"(modulation="pam4"} 1)");
  EXPECT_TRUE(test::isValidUtf8(text));
  // Identity rides on the info metric only.
  EXPECT_EQ(test::linesStartingWith(text, "opticsd_lane_rx_power_dbm{")[0].find("vendor"), std::string::npos);
}

TEST(SampleCollector, AbsentModuleHasPresenceZeroAndNoInfo) {
  Sample empty;
  empty.port = "Ethernet9";
  empty.module_present = false;
  const std::string text = renderOne({empty});
  EXPECT_EQ(valueOf(text, R"(opticsd_module_present{target="leaf-1",port="Ethernet9"})"), 0);
  EXPECT_THAT(text, Not(HasSubstr("opticsd_module_info")));
  EXPECT_EQ(test::parseSeries(text).size(), 1u);
}

TEST(SampleCollector, DuplicatePortsAndInvalidTargetBytes) {
  Sample a;
  a.port = "eth\x80";
  a.module.set(ModuleMetric::kTemperatureCelsius, 30);
  Sample b = a;
  b.module.set(ModuleMetric::kTemperatureCelsius, 31);
  const std::string text = renderOne({a, b}, "host\xC3");
  EXPECT_TRUE(test::isValidUtf8(text));
  const auto lines = test::linesStartingWith(text, "opticsd_module_temperature_celsius{");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], R"(opticsd_module_temperature_celsius{target="host\\xC3",port="eth\\x80"} 30)");
}

TEST(SampleCollector, CollectReadsTheLiveCache) {
  auto cache = std::make_shared<LatestSamples>();
  SampleCollector collector(cache);
  EXPECT_TRUE(collector.Collect().empty());
  cache->replaceTarget("leaf-1", {handBuiltSample()});
  EXPECT_THAT(test::serialize(collector.Collect()), HasSubstr("opticsd_lane_rx_power_dbm{"));
  cache->removeTarget("leaf-1");
  EXPECT_TRUE(collector.Collect().empty());
}

}  // namespace
}  // namespace opticsd
