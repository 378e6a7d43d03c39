#include "drivers/sim/module_registers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "drivers/eeprom/cmis_vdm.hpp"
#include "drivers/eeprom/decode_common.hpp"

namespace opticsd::sim {
namespace {

// The nearest register value of `value` / `step`, held to the register's range.
double registerSteps(double value, double step, double lowest, double highest) {
  return std::clamp(std::nearbyint(value / step), lowest, highest);
}

constexpr double kU16Max = 65535;
constexpr int kF16MantissaMax = 2047;
constexpr int kF16ExponentMax = 31;
constexpr int kF16ExponentBias = 24;

}  // namespace

double temperatureRegisterC(double celsius) {
  return eeprom::temperatureFromRaw(static_cast<std::int16_t>(registerSteps(celsius, 1.0 / 256, -32768, 32767)));
}

double supplyVoltageRegisterV(double volts) {
  return eeprom::voltageFromRaw(static_cast<std::uint16_t>(registerSteps(volts, 100e-6, 0, kU16Max)));
}

double biasRegisterMa(double milliamperes) {
  return eeprom::biasMilliampsFromRaw(static_cast<std::uint16_t>(registerSteps(milliamperes, 2e-3, 0, kU16Max)));
}

OpticalPower powerRegister(double dbm) {
  const double milliwatts = std::isfinite(dbm) ? std::pow(10.0, dbm / 10.0) : 0.0;
  return eeprom::opticalPowerFromTenthMicrowatts(registerSteps(milliwatts, 1e-4, 0, kU16Max));
}

double decibelRegister(double decibels) { return registerSteps(decibels, 1.0 / 256, 0, kU16Max) / 256; }

double f16Register(double ratio) {
  if (!(ratio > 0)) return 0;
  // The smallest exponent whose mantissa still fits 11 bits: the most digits.
  int exponent = std::clamp(static_cast<int>(std::ceil(std::log10(ratio / (kF16MantissaMax + 0.5)))) + kF16ExponentBias,
                            0, kF16ExponentMax);
  auto mantissa = [&] { return std::nearbyint(ratio / std::pow(10.0, exponent - kF16ExponentBias)); };
  if (exponent < kF16ExponentMax && mantissa() > kF16MantissaMax) ++exponent;  // log10's rounding at the edge
  const auto m = static_cast<unsigned>(std::min<double>(mantissa(), kF16MantissaMax));
  return eeprom::decodeF16(static_cast<std::uint16_t>((static_cast<unsigned>(exponent) << 11) | m));
}

}  // namespace opticsd::sim
