#pragma once
// The sim target's options, read from its config mapping:
//
//   module: osfp-800g-2fr4    # sfp-10g-lr | qsfp28-100g-cwdm4 | qsfp-dd-400g-dr4 | osfp-800g-2fr4
//   seed: 42                  # default: a hash of the target name
//   ports: 32                 # Ethernet1 .. Ethernet32
//   lanes: 8                  # default: the module's media lanes
//   port_prefix: Ethernet
//   epoch_ms: 1700000000000   # default: the first poll's time
//   scenarios:
//     - {scenario: dirty_connector, port: Ethernet3, onset: 2m, ramp: 30m}
//     - {scenario: lane_failure, port: 7, lane: 3, onset: 10m}
//
// Problems go to the OptionReader with the key that caused them; the caller
// rejects unknown top-level keys, this reader rejects unknown keys inside
// each scenario.

#include <optional>
#include <string>

#include "drivers/options/option_reader.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {

// nullopt when any option was invalid (every problem is in `options`).
std::optional<SimSwitchConfig> readSimOptions(const std::string& target_name, OptionReader& options);

}  // namespace opticsd::sim
