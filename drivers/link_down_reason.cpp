#include "drivers/link_down_reason.hpp"

#include <array>
#include <span>

namespace opticsd {
namespace {

struct StateRow {
  std::string_view name;
  std::string_view next_step;
  std::span<const std::string_view> substates;  // index = substate - 1
};

// uapi linux/ethtool.h enum ethtool_link_ext_substate_autoneg (1-based).
constexpr std::array<std::string_view, 6> kAutoneg{
    "an_no_partner_detected",          "an_ack_not_received",
    "an_next_page_exchange_failed",    "an_no_partner_detected_force_mode",
    "an_fec_mismatch_during_override", "an_no_hcd"};
// enum ethtool_link_ext_substate_link_training.
constexpr std::array<std::string_view, 4> kTraining{"lt_kr_frame_lock_not_acquired", "lt_kr_link_inhibit_timeout",
                                                    "lt_kr_link_partner_did_not_set_receiver_ready", "lt_remote_fault"};
// enum ethtool_link_ext_substate_link_logical_mismatch.
constexpr std::array<std::string_view, 5> kLogical{
    "llm_pcs_did_not_acquire_block_lock", "llm_pcs_did_not_acquire_am_lock", "llm_pcs_did_not_get_align_status",
    "llm_fc_fec_is_not_locked", "llm_rs_fec_is_not_locked"};
// enum ethtool_link_ext_substate_bad_signal_integrity.
constexpr std::array<std::string_view, 4> kSignal{"bsi_large_number_of_physical_errors", "bsi_unsupported_rate",
                                                  "bsi_serdes_reference_clock_lost", "bsi_serdes_alos"};
// enum ethtool_link_ext_substate_cable_issue.
constexpr std::array<std::string_view, 2> kCable{"ci_unsupported_cable", "ci_cable_test_failure"};
// enum ethtool_link_ext_substate_module.
constexpr std::array<std::string_view, 1> kModule{"module_cmis_not_ready"};

// enum ethtool_link_ext_state, in its order (0-based).
constexpr std::array<StateRow, 11> kStates{{
    {"autoneg", "autonegotiation failed: check the far end's speed/FEC settings and that it is up", kAutoneg},
    {"link_training_failure", "link training failed: look at the far end (port state, SerDes settings, its optic)",
     kTraining},
    {"link_logical_mismatch", "PCS/FEC lock lost: compare FEC mode and speed on both ends, then the optics", kLogical},
    {"bad_signal_integrity",
     "bad signal: clean both connector ends and check Rx power; reseat or replace the optic or cable", kSignal},
    {"no_cable", "no cable or module detected: check that it is plugged in and seated", {}},
    {"cable_issue", "cable or module not supported or failed its test: replace it with a qualified part", kCable},
    {"eeprom_issue", "the module's EEPROM could not be read: reseat the module, replace it if it persists", {}},
    {"calibration_failure", "PHY calibration failed: reset the port; replace the module if it persists", {}},
    {"power_budget_exceeded", "module power class beyond what the cage allows: use a lower-power module or slot", {}},
    {"overheat", "the module overheats: check airflow, fans and inlet temperature before replacing it", {}},
    {"module", "the module is not ready (CMIS state machine): wait for it, then reset or reseat it", kModule},
}};

}  // namespace

std::string linkDownReasonName(const LinkDownReason& reason) {
  if (reason.state < kStates.size()) return std::string(kStates[reason.state].name);
  return "unknown_" + std::to_string(reason.state);
}

std::string linkDownSubstateName(const LinkDownReason& reason) {
  if (!reason.substate || *reason.substate == 0 || reason.state >= kStates.size()) return "";
  const auto& names = kStates[reason.state].substates;
  if (*reason.substate > names.size()) return "unknown_" + std::to_string(*reason.substate);
  return std::string(names[*reason.substate - 1]);
}

std::string_view linkDownNextStep(const LinkDownReason& reason) {
  if (reason.state < kStates.size()) return kStates[reason.state].next_step;
  return "the device gave a reason this opticsd does not know: see its ethtool output";
}

std::string describeLinkDown(const LinkDownReason& reason) {
  std::string text = linkDownReasonName(reason);
  if (auto sub = linkDownSubstateName(reason); !sub.empty()) text += "/" + sub;
  return text + ": " + std::string(linkDownNextStep(reason));
}

}  // namespace opticsd
