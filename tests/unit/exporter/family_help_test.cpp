// HELP texts say the unit the exported value is in.
#include <gtest/gtest.h>

#include "daemon/exporter/sample_series.hpp"

namespace opticsd {
namespace {

TEST(FamilyHelp, AValueScaledToTheBaseUnitIsDescribedInTheBaseUnit) {
  bool found = false;
  for (const auto& family : exporter_detail::familySpecs()) {
    if (family.name != "opticsd_lane_tx_bias_amperes") continue;
    found = true;
    EXPECT_NE(family.help.find("in amperes"), std::string::npos) << family.help;
    EXPECT_EQ(family.help.find("milli"), std::string::npos) << family.help;
  }
  EXPECT_TRUE(found) << "no opticsd_lane_tx_bias_amperes family";
}

}  // namespace
}  // namespace opticsd
