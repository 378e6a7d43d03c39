#pragma once
// What a module's monitor registers make of a simulated reading: each value
// is rounded to its register's step and range and read back through the
// conversions the EEPROM decoders use (eeprom/decode_common.hpp, CMIS VDM's
// F16), so a simulated Sample carries the digits a real module gives and no
// more. The physics (sim_switch.cpp) is unchanged; only the reading is.

#include "drivers/units.hpp"

namespace opticsd::sim {

double temperatureRegisterC(double celsius);  // signed, 1/256 C
double supplyVoltageRegisterV(double volts);  // unsigned, 100 uV
double biasRegisterMa(double milliamperes);   // unsigned, 2 uA (CMIS multiplier 1)
OpticalPower powerRegister(double dbm);       // unsigned, 0.1 uW, with the dark rule
double decibelRegister(double decibels);      // VDM eSNR/LTP: unsigned, 1/256 dB
double f16Register(double ratio);             // VDM F16: 11-bit mantissa x 10^(5-bit exponent - 24)

}  // namespace opticsd::sim
