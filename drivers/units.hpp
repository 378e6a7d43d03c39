#pragma once
// The zero-light rule (the -40 dBm floor plus a no-light flag) for powers in
// mW or dBm: SNMP profiles and the simulator. The EEPROM decoders apply the
// same rule to registers in 0.1 uW with their own faster log
// (eeprom/decode_common.hpp, opticalPowerFromTenthMicrowatts; the two paths
// side by side: tests/bench/eeprom/optical_power_bench.cpp).

#include <cmath>

#include "drivers/measurement.hpp"

namespace opticsd {

struct OpticalPower {
  double dbm = kNoLightFloorDbm;
  bool no_light = true;
};

// mW to dBm with the -40 dBm floor: at or below 0.0001 mW (and for 0, negative
// or non-finite input) the module is dark, reported as the floor plus the flag.
inline OpticalPower opticalPowerFromMilliwatts(double milliwatts) {
  if (!std::isfinite(milliwatts) || milliwatts <= 0.0001) return {};
  return {10.0 * std::log10(milliwatts), false};
}

// A dBm reading from a device: below the floor (or -inf) is dark.
inline OpticalPower opticalPowerFromDbm(double dbm) {
  if (!std::isfinite(dbm) || dbm <= kNoLightFloorDbm) return {};
  return {dbm, false};
}

}  // namespace opticsd
