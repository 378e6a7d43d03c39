#pragma once
// The zero-light rule (the -40 dBm floor plus a no-light flag) for powers in
// mW or dBm: SNMP profiles and the simulator. The EEPROM decoders apply the
// same rule to registers in 0.1 uW with their own faster log
// (eeprom/decode_common.hpp, opticalPowerFromTenthMicrowatts; the two paths
// side by side: tests/bench/eeprom/optical_power_bench.cpp).

#include <cmath>

#include "drivers/measurement.hpp"

namespace opticsd {

// dBm is given to 0.0001 dB. That keeps every step of the modules' 0.1 uW
// power registers apart up to +6.4 dBm (the step is 0.0004 dB at 0 dBm and
// wider below; the registers end at +8.2 dBm), and drops the digits a log of
// a register value would invent past that. Every conversion to dBm below and
// in eeprom/decode_common.hpp rounds here, so the exporter, remote write, JSON
// output and the rules all see the same value.
inline constexpr double kDbmStepsPerDb = 1e4;
inline double roundedDbm(double dbm) {
  // Rounds to the nearest step, ties to even, as nearbyint does in the default
  // rounding mode: adding and taking away 1.5 x 2^52 leaves no fraction bits
  // below 2^51. Inline, where nearbyint is a library call on baseline x86-64.
  // Division by the exact step count gives the double nearest the decimal;
  // + 0.0 turns a rounded -0 into 0.
  double steps = dbm * kDbmStepsPerDb;
  if (std::fabs(steps) < 0x1p51) steps = (steps + 0x1.8p52) - 0x1.8p52;
  return steps / kDbmStepsPerDb + 0.0;
}

struct OpticalPower {
  double dbm = kNoLightFloorDbm;
  bool no_light = true;
};

// mW to dBm with the -40 dBm floor: at or below 0.0001 mW (and for 0, negative
// or non-finite input) the module is dark, reported as the floor plus the flag.
inline OpticalPower opticalPowerFromMilliwatts(double milliwatts) {
  if (!std::isfinite(milliwatts) || milliwatts <= 0.0001) return {};
  return {roundedDbm(10.0 * std::log10(milliwatts)), false};
}

// A dBm reading from a device: below the floor (or -inf) is dark.
inline OpticalPower opticalPowerFromDbm(double dbm) {
  if (!std::isfinite(dbm) || dbm <= kNoLightFloorDbm) return {};
  return {roundedDbm(dbm), false};
}

}  // namespace opticsd
