#pragma once
// ENTITY-SENSOR-MIB value scaling (RFC 3433 section 4, EntitySensorDataScale
// and EntitySensorPrecision; the same encoding in CISCO-ENTITY-SENSOR-MIB and
// ARISTA-PHY-MIB's L1TelemetryDataScale). Pure functions, no I/O.

#include <cmath>
#include <cstdint>
#include <optional>

namespace opticsd::snmp {

// RFC 3433 EntitySensorDataType codes (14 = dBm from CISCO-ENTITY-SENSOR-MIB SensorDataType).
enum SensorType : int {
  kSensorOther = 1,
  kSensorUnknown = 2,
  kSensorVoltsAc = 3,
  kSensorVoltsDc = 4,
  kSensorAmperes = 5,
  kSensorWatts = 6,
  kSensorHertz = 7,
  kSensorCelsius = 8,
  kSensorPercentRh = 9,
  kSensorRpm = 10,
  kSensorCmm = 11,
  kSensorTruthValue = 12,
  kSensorSpecialEnum = 13,
  kSensorDbm = 14,
};

// Scale code 1 (yocto, 10^-24) .. 9 (units) .. 17 (yotta, 10^24), RFC 3433.
inline std::optional<double> scaleFactor(std::int64_t scale_code) {
  if (scale_code < 1 || scale_code > 17) return std::nullopt;
  return std::pow(10.0, 3.0 * static_cast<double>(scale_code - 9));
}

// Precision -8..9: the value carries that many decimal places (negative:
// multiply), RFC 3433 EntitySensorPrecision.
inline std::optional<double> precisionFactor(std::int64_t precision) {
  if (precision < -8 || precision > 9) return std::nullopt;
  return std::pow(10.0, -static_cast<double>(precision));
}

}  // namespace opticsd::snmp
