#include "drivers/link_down_reason.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>

namespace opticsd {
namespace {

// Every state and substate of the kernel's uapi (linux/ethtool.h) has a name
// and a next step; the numbers are the kernel's.
TEST(LinkDownReason, EveryKernelStateAndSubstateIsNamed) {
  struct Case {
    int state;
    int substates;
    const char* name;
  };
  const Case cases[] = {
      {ETHTOOL_LINK_EXT_STATE_AUTONEG, ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_HCD, "autoneg"},
      {ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE, ETHTOOL_LINK_EXT_SUBSTATE_LT_REMOTE_FAULT,
       "link_training_failure"},
      {ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH, ETHTOOL_LINK_EXT_SUBSTATE_LLM_RS_FEC_IS_NOT_LOCKED,
       "link_logical_mismatch"},
      {ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY, ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS, "bad_signal_integrity"},
      {ETHTOOL_LINK_EXT_STATE_NO_CABLE, 0, "no_cable"},
      {ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE, ETHTOOL_LINK_EXT_SUBSTATE_CI_CABLE_TEST_FAILURE, "cable_issue"},
      {ETHTOOL_LINK_EXT_STATE_EEPROM_ISSUE, 0, "eeprom_issue"},
      {ETHTOOL_LINK_EXT_STATE_CALIBRATION_FAILURE, 0, "calibration_failure"},
      {ETHTOOL_LINK_EXT_STATE_POWER_BUDGET_EXCEEDED, 0, "power_budget_exceeded"},
      {ETHTOOL_LINK_EXT_STATE_OVERHEAT, 0, "overheat"},
      {ETHTOOL_LINK_EXT_STATE_MODULE, ETHTOOL_LINK_EXT_SUBSTATE_MODULE_CMIS_NOT_READY, "module"},
  };
  for (const auto& c : cases) {
    LinkDownReason r{static_cast<std::uint8_t>(c.state), std::nullopt};
    EXPECT_EQ(linkDownReasonName(r), c.name);
    EXPECT_FALSE(linkDownNextStep(r).empty());
    EXPECT_EQ(linkDownSubstateName(r), "");
    for (int sub = 1; sub <= c.substates; ++sub) {
      r.substate = static_cast<std::uint8_t>(sub);
      const auto name = linkDownSubstateName(r);
      EXPECT_FALSE(name.empty()) << c.name << " " << sub;
      EXPECT_EQ(name.find("unknown"), std::string::npos) << c.name << " " << sub;
    }
    r.substate = static_cast<std::uint8_t>(c.substates + 1);  // past the kernel's list
    EXPECT_EQ(linkDownSubstateName(r).rfind("unknown_", 0), 0u) << c.name;
  }
  EXPECT_EQ(
      linkDownSubstateName({ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY, ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS}),
      "bsi_serdes_alos");
}

TEST(LinkDownReason, ReasonsSayDifferentThingsToDo) {
  const auto signal = describeLinkDown({ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY, 1});
  const auto heat = describeLinkDown({ETHTOOL_LINK_EXT_STATE_OVERHEAT, std::nullopt});
  const auto training = describeLinkDown({ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE, std::nullopt});
  EXPECT_NE(signal.find("clean"), std::string::npos) << signal;
  EXPECT_NE(heat.find("airflow"), std::string::npos) << heat;
  EXPECT_NE(training.find("far end"), std::string::npos) << training;
  EXPECT_EQ(signal.rfind("bad_signal_integrity/bsi_large_number_of_physical_errors: ", 0), 0u) << signal;
}

TEST(LinkDownReason, NewerKernelStateIsNamedNotAnError) {
  const LinkDownReason future{200, 3};
  EXPECT_EQ(linkDownReasonName(future), "unknown_200");
  EXPECT_EQ(linkDownSubstateName(future), "");
  EXPECT_FALSE(linkDownNextStep(future).empty());
}

}  // namespace
}  // namespace opticsd
