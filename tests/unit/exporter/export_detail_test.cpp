// The series budget: what the default and full levels carry for one 8-lane
// CMIS module that reports everything, and where thresholds go.
#include "daemon/exporter/export_detail.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/exporter/exposition_text.hpp"
#include "exposition.hpp"

namespace opticsd {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::size_t kLanes = 8;

// A module that reports every value, threshold, flag and status there is:
// the worst case for the budget.
Sample everythingModule(const std::string& port) {
  Sample s;
  s.target = "leaf-1";
  s.port = port;
  s.mutableIdentity().vendor = "ACME";
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    s.module.set(static_cast<ModuleMetric>(i), 1.5);
    s.shared_thresholds.mutate().module[i] = Thresholds{2.0, 1.8, 0.2, 0.1};
    s.module_flags[i] = AlarmFlags{};
  }
  for (std::size_t i = 0; i < kLaneMetricCount; ++i)
    s.shared_thresholds.mutate().lane[i] = Thresholds{2.0, 1.8, 0.2, 0.1};
  for (std::uint16_t n = 1; n <= kLanes; ++n) {
    Lane lane;
    lane.number = n;
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
      lane.values.set(static_cast<LaneMetric>(i), 0.5);
      lane.flags[i] = AlarmFlags{};
    }
    lane.status = LaneStatus{false, false, false, false, false, false, false, std::uint8_t{4}};
    s.lanes.push_back(lane);
    s.fec.lane_corrected_bits_total.push_back(10);
  }
  s.fec.corrected_blocks_total = 1;
  s.fec.uncorrectable_blocks_total = 0;
  s.fec.corrected_bits_total = 2;
  s.link.up = true;
  s.link.down_events_total = 0;
  s.link.speed_gbps = 800;
  // A NIC that counts the codeword histogram per lane (kernel 6.18+).
  for (std::uint16_t k = 0; k <= 15; ++k) {
    s.fec.histogram.push_back({k, k, 100u - k, std::vector<std::uint64_t>(kLanes, 10)});
  }
  s.fec.correctable_symbols = 15;
  s.fec.tail.symbols = 9;
  s.fec.tail.lane_symbols.assign(kLanes, std::uint16_t{7});
  s.link.last_down_reason = LinkDownReason{3, 4};
  return s;
}

LatestSamples::Snapshot snapshotOf(std::vector<Sample> samples) {
  return {{"leaf-1", std::make_shared<const std::vector<Sample>>(std::move(samples))}};
}

std::string render(const LatestSamples::Snapshot& snapshot, const SeriesSelection& selection) {
  std::string text;
  appendSampleExposition(snapshot, text, selection);
  return text;
}

TEST(ExportDetail, DefaultLevelStaysWithinFiftySeriesPerEightLaneModule) {
  const ExportPolicy policy;  // default everywhere
  const std::string text = render(snapshotOf({everythingModule("Ethernet1")}), {&policy, true, false});
  const auto series = test::parseSeries(text);
  EXPECT_LE(series.size(), 50u) << text;
  // What dashboards and alerts use is there ...
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_rx_power_dbm{target="leaf-1",port="Ethernet1",lane="8"})"), 0.5);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_tx_bias_amperes{target="leaf-1",port="Ethernet1",lane="1"})"), 0.5e-3);
  EXPECT_TRUE(test::valueOf(text, R"(opticsd_lane_pre_fec_ber_ratio{target="leaf-1",port="Ethernet1",lane="1"})"));
  EXPECT_TRUE(test::valueOf(text, R"(opticsd_module_laser_temperature_celsius{target="leaf-1",port="Ethernet1"})"));
  EXPECT_TRUE(test::valueOf(text, R"(opticsd_fec_uncorrectable_blocks_total{target="leaf-1",port="Ethernet1"})"));
  EXPECT_THAT(text, HasSubstr("opticsd_module_info{"));
  // ... VDM statistics, zero statuses, an activated data path and thresholds are not.
  EXPECT_THAT(text, Not(HasSubstr("opticsd_lane_pre_fec_ber_max_ratio")));
  EXPECT_THAT(text, Not(HasSubstr("opticsd_lane_rx_los")));
  EXPECT_THAT(text, Not(HasSubstr("opticsd_lane_data_path_state")));
  EXPECT_THAT(text, Not(HasSubstr("threshold")));
  EXPECT_THAT(text, Not(HasSubstr("opticsd_lane_fec_corrected_bit_errors_total")));
  // The FEC tail and margin: two series for the port, no bins, no lanes.
  EXPECT_EQ(test::valueOf(text, R"(opticsd_port_fec_tail_symbols{target="leaf-1",port="Ethernet1"})"), 9);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_port_fec_margin_symbols{target="leaf-1",port="Ethernet1"})"), 6);
  EXPECT_THAT(text, Not(HasSubstr("opticsd_port_fec_codewords_total{")));
  EXPECT_THAT(text, Not(HasSubstr("opticsd_lane_fec_tail_symbols{")));
  // An up link has no down reason; a module not in maintenance no gauge.
  EXPECT_THAT(text, Not(HasSubstr("opticsd_port_link_down_reason{")));
  EXPECT_THAT(text, Not(HasSubstr("opticsd_module_maintenance{")));
  // 43 before issue 30, plus the port's FEC tail and margin; a link down with
  // its reason and a module in maintenance add one each (test below).
  EXPECT_EQ(series.size(), 45u) << "the series count of an 8-lane module at default changed: update the budget notes";
}

// The worst the default level can be: a link down with a reason, a module
// in maintenance, on top of everything else.
TEST(ExportDetail, DownLinkAndMaintenanceStayWithinTheBudget) {
  Sample s = everythingModule("Ethernet1");
  s.link.up = false;
  s.link.down_reason = LinkDownReason{3, 4};  // bad signal integrity, SerDes ALOS
  s.maintenance = Maintenance{"firmware_flashing"};
  const ExportPolicy policy;
  const std::string text = render(snapshotOf({s}), {&policy, true, false});
  EXPECT_EQ(test::parseSeries(text).size(), 47u) << text;  // 45 + the reason + maintenance: within 50
  EXPECT_EQ(
      test::valueOf(
          text,
          R"(opticsd_port_link_down_reason{target="leaf-1",port="Ethernet1",reason="bad_signal_integrity",substate="bsi_serdes_alos"})"),
      1);
  EXPECT_EQ(
      test::valueOf(text, R"(opticsd_module_maintenance{target="leaf-1",port="Ethernet1",reason="firmware_flashing"})"),
      1);
}

TEST(ExportDetail, FullLevelCarriesTheHistogramAndLaneTails) {
  const ExportPolicy policy(ExportDetail::kFull);
  const std::string text = render(snapshotOf({everythingModule("Ethernet1")}), {&policy, true, false});
  EXPECT_EQ(
      test::valueOf(text, R"(opticsd_port_fec_codewords_total{target="leaf-1",port="Ethernet1",low="3",high="3"})"),
      97);
  EXPECT_EQ(
      test::valueOf(
          text, R"(opticsd_lane_fec_codewords_total{target="leaf-1",port="Ethernet1",lane="8",low="15",high="15"})"),
      10);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_fec_tail_symbols{target="leaf-1",port="Ethernet1",lane="2"})"), 7);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_fec_margin_symbols{target="leaf-1",port="Ethernet1",lane="2"})"), 8);
}

// A host whose kernel or NIC reports no histogram and no reason shows none
// of the new series, and nothing in their place.
TEST(ExportDetail, NoHistogramNoTailSeries) {
  Sample s = everythingModule("Ethernet1");
  s.fec.histogram.clear();
  s.fec.tail = {};
  s.fec.correctable_symbols.reset();
  const ExportPolicy policy(ExportDetail::kFull);
  const std::string text = render(snapshotOf({s}), {&policy, true, false});
  for (const char* family :
       {"opticsd_port_fec_tail_symbols{", "opticsd_port_fec_margin_symbols{", "opticsd_port_fec_codewords_total{",
        "opticsd_lane_fec_tail_symbols{", "opticsd_lane_fec_codewords_total{", "opticsd_port_link_down_reason{"}) {
    EXPECT_THAT(text, Not(HasSubstr(family)));
  }
}

TEST(ExportDetail, DefaultLevelCarriesRaisedStatusesAndAPathNotActivated) {
  Sample s = everythingModule("Ethernet1");
  s.lanes[2].status.rx_los = true;
  s.lanes[2].status.data_path_state = 1;  // deactivated
  s.lanes[3].flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]->low_alarm = true;
  const ExportPolicy policy;
  const std::string text = render(snapshotOf({s}), {&policy, true, false});
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_rx_los{target="leaf-1",port="Ethernet1",lane="3"})"), 1);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_data_path_state{target="leaf-1",port="Ethernet1",lane="3"})"), 1);
  EXPECT_EQ(
      test::valueOf(
          text,
          R"(opticsd_lane_alarm_flag{target="leaf-1",port="Ethernet1",lane="4",metric="rx_power_dbm",level="low_alarm"})"),
      1);
  EXPECT_FALSE(test::valueOf(text, R"(opticsd_lane_rx_los{target="leaf-1",port="Ethernet1",lane="1"})"));
}

TEST(ExportDetail, FullLevelCarriesEveryValueButNoThresholds) {
  const ExportPolicy policy(ExportDetail::kFull);
  const auto snapshot = snapshotOf({everythingModule("Ethernet1")});
  const std::string text = render(snapshot, {&policy, true, false});
  EXPECT_TRUE(test::valueOf(text, R"(opticsd_lane_pre_fec_ber_max_ratio{target="leaf-1",port="Ethernet1",lane="1"})"));
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_rx_los{target="leaf-1",port="Ethernet1",lane="1"})"), 0);
  EXPECT_EQ(test::valueOf(text, R"(opticsd_lane_data_path_state{target="leaf-1",port="Ethernet1",lane="1"})"), 4);
  EXPECT_THAT(text, HasSubstr("opticsd_link_speed_bytes_per_second{"));
  EXPECT_THAT(text, Not(HasSubstr("threshold")));
  // Full values plus thresholds are everything there is, as before the budget.
  const std::string thresholds = render(snapshot, {&policy, false, true});
  EXPECT_EQ(test::parseSeries(text).size() + test::parseSeries(thresholds).size(),
            test::parseSeries(render(snapshot, {})).size());
}

TEST(ExportDetail, ThresholdsAloneForTheSlowJob) {
  const std::string text = render(snapshotOf({everythingModule("Ethernet1")}), {nullptr, false, true});
  EXPECT_EQ(
      test::valueOf(text, R"(opticsd_lane_threshold_rx_power_dbm{target="leaf-1",port="Ethernet1",level="low_alarm"})"),
      0.1);
  for (const auto& [name, value] : test::parseSeries(text)) EXPECT_THAT(name, HasSubstr("_threshold_"));
}

TEST(ExportDetail, PortOverridesBeatTargetOverridesBeatTheInstanceLevel) {
  ExportPolicy policy;
  policy.setTarget("leaf-1", ExportDetail::kFull, {"Ethernet2"});
  policy.setTarget("leaf-2", ExportDetail::kFull, {});
  policy.setTarget("leaf-2", ExportDetail::kDefault, {"Ethernet9"});
  EXPECT_EQ(policy.detailFor("leaf-1", "Ethernet1"), ExportDetail::kDefault);
  EXPECT_EQ(policy.detailFor("leaf-1", "Ethernet2"), ExportDetail::kFull);
  EXPECT_EQ(policy.detailFor("leaf-2", "Ethernet1"), ExportDetail::kFull);
  EXPECT_EQ(policy.detailFor("leaf-2", "Ethernet9"), ExportDetail::kDefault);
  EXPECT_EQ(policy.detailFor("leaf-3", "Ethernet1"), ExportDetail::kDefault);
  EXPECT_EQ(ExportPolicy(ExportDetail::kFull).detailFor("leaf-3", "Ethernet1"), ExportDetail::kFull);

  const std::string text =
      render(snapshotOf({everythingModule("Ethernet1"), everythingModule("Ethernet2")}), {&policy, true, false});
  EXPECT_TRUE(test::valueOf(text, R"(opticsd_lane_esnr_decibels{target="leaf-1",port="Ethernet2",lane="1"})"));
  EXPECT_FALSE(test::valueOf(text, R"(opticsd_lane_esnr_decibels{target="leaf-1",port="Ethernet1",lane="1"})"));
}

ExportSetting read(const std::string& yaml, bool allow_ports, std::vector<ConfigIssue>& issues) {
  return readExportSetting(OptionReader(YAML::Load(yaml), "test.yaml", "export", issues), allow_ports);
}

TEST(ExportDetail, ConfigSettingsAndTheirErrors) {
  std::vector<ConfigIssue> issues;
  auto full = read("{detail: full, ports: [Ethernet3, Ethernet4]}", true, issues);
  EXPECT_TRUE(issues.empty());
  EXPECT_EQ(full.detail, ExportDetail::kFull);
  EXPECT_EQ(full.ports, (std::vector<std::string>{"Ethernet3", "Ethernet4"}));

  (void)read("{detail: everything}", false, issues);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_THAT(issues[0].format(), HasSubstr("expected default or full"));
  issues.clear();
  (void)read("{detail: full, ports: [Ethernet1]}", false, issues);  // ports only on a target
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_THAT(issues[0].format(), HasSubstr("ports"));
  issues.clear();
  (void)read("{ports: [Ethernet1]}", true, issues);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_THAT(issues[0].format(), HasSubstr("needs a detail"));
}

}  // namespace
}  // namespace opticsd
