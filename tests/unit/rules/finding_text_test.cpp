// Finding and suspect texts say the right direction and magnitude: "below"
// for a low limit, "above" for a high one, "at" when the value sits on the
// limit, and never "0 decades below" for a BER at or past the FEC limit.
#include <gtest/gtest.h>

#include "daemon/rules/rule_outcome.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "daemon/rules/suspect_score.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

using test::optic;

// One module, changed by `change` from a healthy optic, polled until `rule`
// raises; its detail must read `text`.
struct Case {
  const char* name;
  const char* rule;
  void (*change)(Sample&);
  const char* text;
};

constexpr auto kRx = static_cast<std::size_t>(LaneMetric::kRxPowerDbm);
constexpr auto kBias = static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes);
constexpr auto kTemp = static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius);

const Case kCases[] = {
    {"high_level", "temperature_high", [](Sample& s) { s.module.set(ModuleMetric::kTemperatureCelsius, 72); },
     "temperature_celsius=72 C above 70 C"},
    {"low_warning_level", "rx_power_low", [](Sample& s) { s.lanes[1].values.set(LaneMetric::kRxPowerDbm, -11.2); },
     "rx_power_dbm=-11.2 dBm below -10 dBm (lane 2)"},
    {"low_critical_level", "rx_power_low", [](Sample& s) { s.lanes[2].values.set(LaneMetric::kRxPowerDbm, -14.5); },
     "rx_power_dbm=-14.5 dBm below -13 dBm (lane 3)"},
    {"low_level_printed_exactly", "supply_voltage",
     [](Sample& s) { s.module.set(ModuleMetric::kSupplyVoltageVolts, 3.1); },
     "supply_voltage_volts=3.1 V below 3.135 V"},
    {"module_low_alarm", "module_alarm",
     [](Sample& s) {
       s.shared_thresholds.mutate().lane[kRx] = Thresholds{3.0, 2.0, -12.0, -14.0};
       s.lanes[0].values.set(LaneMetric::kRxPowerDbm, -15.0);
     },
     "rx_power_dbm=-15 dBm below the module's low alarm -14 dBm (lane 1)"},
    {"module_high_warning", "module_alarm",
     [](Sample& s) {
       s.shared_thresholds.mutate().module[kTemp] = Thresholds{75, 70, -5, -10};
       s.module.set(ModuleMetric::kTemperatureCelsius, 71.5);
     },
     "temperature_celsius=71.5 C above the module's high warning 70 C"},
    {"module_limit_reached", "module_alarm",
     [](Sample& s) {
       s.shared_thresholds.mutate().lane[kBias] = Thresholds{12, 10, 2, 1};
       s.lanes[3].values.set(LaneMetric::kTxBiasMilliamperes, 1.0);
     },
     "tx_bias_milliamperes=1 mA at the module's low alarm 1 mA (lane 4)"},
    // A latched flag without limits names the flag, not a direction.
    {"latched_flag_only", "module_alarm",
     [](Sample& s) {
       AlarmFlags flags;
       flags.low_alarm = true;
       s.lanes[0].flags[kRx] = flags;
     },
     "rx_power_dbm=-3 dBm (lane 1): the module's low-alarm flag is set"},
};

class FindingText : public ::testing::TestWithParam<Case> {};

TEST_P(FindingText, SaysTheDirectionAndTheLevelCrossed) {
  const Case& c = GetParam();
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  const Finding* raised = nullptr;
  for (int i = 1; i <= 5 && raised == nullptr; ++i) {
    auto s = optic("sw", "p1", i * 30'000LL);
    c.change(s);
    engine.evaluate("sw", {s});
    raised = sink.firstRaise("p1", c.rule);
  }
  ASSERT_NE(raised, nullptr) << c.rule << " never raised";
  EXPECT_EQ(raised->detail, c.text);
}

INSTANTIATE_TEST_SUITE_P(Rules, FindingText, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.name); });

TEST(FindingTextFormat, NumbersNextToEachOtherNeverPrintAlike) {
  Outcome o;
  o.what = "rx_power_dbm";
  o.value = -14.0004;
  o.limit = -14;
  o.bound = Bound::kBelow;
  EXPECT_EQ(describe(o), "rx_power_dbm=-14.0004 dBm below -14 dBm");
  o.value = -14;
  EXPECT_EQ(describe(o), "rx_power_dbm=-14 dBm at -14 dBm");
  EXPECT_EQ(formatNumber(2.4e-4), "2.40e-04");
  EXPECT_EQ(formatLimit(3.135), "3.135");
  EXPECT_EQ(formatLimit(-10), "-10");
}

TEST(FindingTextFormat, BerReasonGivesTheDistanceToTheFecLimitBothWays) {
  EXPECT_EQ(berReason(2.4e-6, 2.4e-4), "pre-FEC BER 2.40e-06 is 2.0 decades below the FEC limit 2.40e-04");
  EXPECT_EQ(berReason(2.4e-4, 2.4e-4), "pre-FEC BER 2.40e-04 is at the FEC limit 2.40e-04");
  EXPECT_EQ(berReason(2.41e-4, 2.4e-4), "pre-FEC BER 2.41e-04 is at the FEC limit 2.40e-04");
  EXPECT_EQ(berReason(1e-3, 2.4e-4), "pre-FEC BER 0.001 is 0.6 decades above the FEC limit 2.40e-04");

  // Through the engine: one poll (nothing raised yet) of a PAM4 port past the KP4 limit.
  RulesEngine engine(defaultRuleSet(), Topology{}, nullptr);
  auto s = optic("sw", "p1", 30'000);
  s.mutableIdentity().modulation = Modulation::kPam4;
  s.module.set(ModuleMetric::kPreFecBerRatio, 5e-4);
  engine.evaluate("sw", {s});
  const auto suspects = engine.suspects();
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].reason, "pre-FEC BER 5.00e-04 is 0.3 decades above the FEC limit 2.40e-04");
}

}  // namespace
}  // namespace opticsd
