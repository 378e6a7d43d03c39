#include "daemon/web/next_action.hpp"

#include <array>
#include <utility>

namespace opticsd::web {
namespace {

constexpr std::array<std::pair<std::string_view, NextAction>, 19> kActions{{
    {"rx_power_low",
     {"Look at the far end's Tx, then clean and inspect both connectors",
      "Low receive power with a healthy far-end Tx is loss in between: a dirty or damaged end face first (inspect "
      "with a scope, clean with a one-click cleaner, inspect again), then patch panels and the fiber. If the far "
      "end's Tx is low too, the problem is its laser: replace that module."}},
    {"rx_power_drop",
     {"Clean and inspect the connectors on this link",
      "A step down from the module's own baseline usually means something changed in the path: a connector "
      "reseated dirty, a bent or pinched patch cord, a new patch. Check recent work on the rack, clean and inspect "
      "both ends, and compare the far end's Tx against its baseline before replacing anything."}},
    {"tx_power_low",
     {"Reseat the module; replace it if Tx stays low",
      "Tx power is produced by this module's own laser, so the fiber is not the cause. Reseat once (it can clear "
      "a bad electrical contact or a stuck state); if Tx is still low, replace the module and keep it for RMA."}},
    {"tx_power_drop",
     {"Plan a module replacement",
      "A laser losing output against its own baseline is ageing or failing; it rarely recovers. Replace the module "
      "in the next maintenance window, sooner if the far end's Rx margin is thin."}},
    {"bias_drift",
     {"Plan a module replacement",
      "Rising laser bias at steady power is the laser working harder to hold its output: the classic sign of "
      "ageing. It will keep climbing; replace the module before it reaches its bias alarm."}},
    {"pre_fec_ber",
     {"Check Rx power on both ends, then clean the connectors",
      "Pre-FEC errors near the FEC limit mean the link is about to drop frames, which stalls collective traffic. "
      "If Rx power is low, clean and inspect the connectors; if Rx power is fine, suspect the module (reseat, then "
      "replace) or the far end's transmitter. Drain the link if the job allows."}},
    {"ber_trend",
     {"Check Rx power and connectors before it reaches the FEC limit",
      "The pre-FEC error rate is climbing toward the FEC limit. Catch it now: compare Rx power with its baseline, "
      "clean and inspect the connectors, and schedule the work before the link starts dropping frames."}},
    {"fec_tail",
     {"Check Rx power per lane, then clean the connectors before the FEC runs out",
      "The FEC is correcting codewords with nearly as many symbol errors as it can (RS(544,514) corrects 15): "
      "a few more and frames are lost, often before the average pre-FEC BER looks alarming. Compare each lane's "
      "Rx power with its baseline, clean and inspect both ends, and plan to replace the module or the fiber if "
      "the tail stays high."}},
    {"post_fec_uncorrectable",
     {"Drain the link now, then clean or replace",
      "Uncorrectable FEC blocks are lost frames: training jobs on this path are already retransmitting. Take the "
      "link out of service (or shift traffic), then clean the connectors; replace the module or the fiber if the "
      "errors come back."}},
    {"lane_failure",
     {"Reseat the module, then replace it",
      "One lane dark while the others carry light is a lane failing in the module (laser or receiver) or one "
      "fiber of the cable broken. Reseat once; if the lane stays dark, swap the module; if the same lane stays "
      "dark with a new module, replace the fiber or breakout."}},
    {"rx_lane_imbalance",
     {"Clean and inspect the connector; check the MPO",
      "Receive power spread between lanes points at one fiber of a parallel (MPO) cable or a dirty ferrule: "
      "clean and inspect the MPO on both ends before changing the module."}},
    {"tx_lane_imbalance",
     {"Plan a module replacement",
      "Lanes of the same module transmitting at different powers is the module itself: one laser is weaker. "
      "Replace the module in the next window."}},
    {"temperature_high",
     {"Check airflow and the fans, then the module",
      "A hot module is usually the chassis: a failed fan, a blocked inlet, a missing blank. Check the switch's "
      "fans and neighbouring modules' temperatures; if only this module is hot, reseat and then replace it."}},
    {"temperature_climb",
     {"Check airflow around this module",
      "Temperature rising beyond the rack's trend: check the switch's fans and airflow, and whether neighbours "
      "climb too. A single module heating on its own is drawing more power and may be failing."}},
    {"supply_voltage",
     {"Reseat the module; check the switch's power",
      "Supply voltage out of range is the host side: reseat the module, check whether other modules on the same "
      "switch report it too (a power or board problem for the vendor), otherwise replace the module."}},
    {"module_alarm",
     {"Read the module's own alarm, then act on it",
      "The module raised its own alarm or warning flag against its thresholds. Look at which value it names in the "
      "lane table below; the advice for that value applies."}},
    {"alarm_forecast",
     {"Schedule work before the forecast date",
      "At its current trend the value reaches the module's alarm threshold soon. Book the maintenance now, while "
      "it is still a planned swap and not an outage."}},
    {"link_flapping",
     {"Check both ends and the cable; reseat",
      "A link going down and up stalls every job on it at each flap. Check the far end's module and port, reseat "
      "both modules, inspect the cable for damage; replace the cable if it keeps flapping."}},
    {"link_loss",
     {"Clean and inspect the path between the ends",
      "The far end transmits fine, but much less arrives here than the media's budget allows: the loss is in the "
      "fiber plant. Clean and inspect both connectors and any patch panel between, then replace the patch cord."}},
}};

constexpr NextAction kGeneric{"Look at the values below, then the far end",
                              "Compare this module's values with its thresholds and baselines, and with the far "
                              "end's. Clean and inspect the connectors before replacing hardware."};

}  // namespace

NextAction nextAction(std::string_view rule) {
  for (const auto& [name, action] : kActions) {
    if (name == rule) return action;
  }
  return kGeneric;
}

}  // namespace opticsd::web
