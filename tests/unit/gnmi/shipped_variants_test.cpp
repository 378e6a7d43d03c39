// The shipped variants are files (schemas/gnmi-variants) compiled in as text
// and loaded by the user files' loader: every one loads, in the documented
// order, and each maps an update of its own model as the compiled tables it
// replaced did (leaf, metric, lane, severity, scale as they were).
#include <gtest/gtest.h>

#include <algorithm>

#include "drivers/gnmi/leaf_rules.hpp"
#include "drivers/gnmi/vendor_variants.hpp"
#include "drivers/sample.hpp"

namespace opticsd::gnmi {
namespace {

TEST(GnmiShippedVariants, EveryShippedFileLoads) {
  for (const auto& e : shippedVariantErrors()) ADD_FAILURE() << e;
  ASSERT_EQ(vendorVariants().size(), embeddedVariantFiles().size());
  std::vector<std::string_view> names;
  for (const auto& v : vendorVariants()) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"openconfig", "cumulus", "srlinux", "sonic", "junos", "iosxr"}));
  for (const auto& v : vendorVariants()) {
    EXPECT_FALSE(v.summary.empty()) << v.name;
    EXPECT_FALSE(v.rules.empty()) << v.name;
    EXPECT_TRUE(LeafRules::compile(v.rules, v.origins)) << v.name;
  }
}

struct Expected {
  std::string_view variant;
  std::string_view path;
  Leaf leaf;
  std::uint8_t metric;
  std::optional<long> lane;
  std::string_view severity;
  double scale;
};

constexpr auto lane(LaneMetric m) { return static_cast<std::uint8_t>(m); }
constexpr auto mod(ModuleMetric m) { return static_cast<std::uint8_t>(m); }

TEST(GnmiShippedVariants, EachMapsAnUpdateOfItsModelAsTheCompiledTablesDid) {
  const std::uint8_t rx_los = static_cast<std::uint8_t>(
      std::find_if(kLaneFlagInfo.begin(), kLaneFlagInfo.end(), [](const auto& f) { return f.key == "rx_los"; }) -
      kLaneFlagInfo.begin());
  const Expected cases[] = {
      {"openconfig",
       "/components/component[name=Ethernet1/1]/transceiver/physical-channels/channel[index=2]/state/input-power/"
       "instant",
       Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm), 2, "", 1},
      {"openconfig",
       "/components/component[name=Ethernet1/1]/transceiver/thresholds/threshold[severity=WARNING]/state/"
       "module-temperature-upper",
       Leaf::kModuleThresholdUpper, mod(ModuleMetric::kTemperatureCelsius), std::nullopt, "WARNING", 1},
      {"cumulus", "/interfaces/interface[name=swp1]/phy/fec/state/corrected-bits", Leaf::kInterfaceFecCorrectedBits, 0,
       std::nullopt, "", 1},
      {"srlinux", "/interface[name=ethernet-1/1]/transceiver/channel[index=1]/output-power/latest-value",
       Leaf::kLaneValue, lane(LaneMetric::kTxPowerDbm), 1, "", 1},
      {"sonic", "/TRANSCEIVER_DOM_SENSOR/Ethernet0/tx3bias", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMilliamperes), 3,
       "", 1},
      {"junos", "/interfaces/interface[name=et-0/0/1]/optics/laser_rx_power_low_warning_threshold_dbm",
       Leaf::kLaneThresholdLower, lane(LaneMetric::kRxPowerDbm), std::nullopt, "WARNING", 1},
      {"junos",
       "/interfaces/interface[name=et-0/0/1]/optics/lanediags/lane[lane_number=0]/lane_rx_loss_of_signal_alarm",
       Leaf::kLaneStatus, rx_los, 0, "", 1},
      {"iosxr",
       "Cisco-IOS-XR-controller-optics-oper:/optics-oper/optics-ports/optics-port[name=Optics0/0/0/1]/optics-info/"
       "lane-data[lane-index=1]/receive-power",
       Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm), 1, "", 0.01},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " " + std::string(c.path));
    const VendorVariant* v = findVendorVariant(c.variant);
    ASSERT_NE(v, nullptr);
    auto rules = LeafRules::compile(v->rules, v->origins);
    ASSERT_TRUE(rules);
    auto path = parsePath(c.path);
    ASSERT_TRUE(path);
    auto b = rules->match(*path);
    ASSERT_TRUE(b) << rules->explainMiss(*path);
    EXPECT_EQ(b->rule->leaf, c.leaf);
    EXPECT_EQ(b->rule->metric, c.metric);
    EXPECT_EQ(b->lane, c.lane);
    EXPECT_EQ(b->severity, c.severity);
    EXPECT_DOUBLE_EQ(b->rule->scale, c.scale);
  }
}

// What each subscribes, its prefix and channel numbering, as before.
TEST(GnmiShippedVariants, SubscriptionsAndConventionsAsBefore) {
  struct Shape {
    std::string_view name;
    std::size_t rules, sample, on_change;
    std::string_view origin, target;
    int first_channel;
    bool detect, zero_is_dark;
  };
  const Shape shapes[] = {
      {"openconfig", 49, 7, 14, "", "", 0, true, true},
      {"cumulus", 49, 8, 14, "", "", 0, true, true},
      {"srlinux", 11, 3, 6, "", "", 1, true, false},
      {"sonic", 52, 2, 2, "", "STATE_DB", 1, false, false},
      {"junos", 22, 1, 0, "", "", 0, true, false},
      {"iosxr", 6, 1, 0, "Cisco-IOS-XR-controller-optics-oper", "", 1, true, false},
  };
  for (const auto& s : shapes) {
    SCOPED_TRACE(s.name);
    const VendorVariant* v = findVendorVariant(s.name);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->rules.size(), s.rules);
    EXPECT_EQ(v->sample_paths.size(), s.sample);
    EXPECT_EQ(v->on_change_paths.size(), s.on_change);
    EXPECT_EQ(v->origin, s.origin);
    EXPECT_EQ(v->target, s.target);
    EXPECT_EQ(v->first_channel_index, s.first_channel);
    EXPECT_EQ(v->detect_channel_base, s.detect);
    EXPECT_EQ(v->zero_power_when_down_is_dark, s.zero_is_dark);
  }
  const auto& cumulus = findVendorVariant("cumulus")->sample_paths;
  EXPECT_NE(std::find(cumulus.begin(), cumulus.end(), "/interfaces/interface/phy/fec/state"), cumulus.end());
}

}  // namespace
}  // namespace opticsd::gnmi
