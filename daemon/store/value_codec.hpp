#pragma once
// How one history value is kept: an integer at the quantity's register
// resolution, chosen from the unit in the catalogue key (units are explicit in
// every key, drivers/measurement.hpp), so a new catalogue row is stored
// without a migration or a code change here:
//   _dbm, _decibels 0.01 dB      _celsius 1/256 C      _volts 100 uV
//   _milliamperes 2 uA           _percent 0.01 %       _gbps 0.001 Gb/s
//   BER and frame-error ratios: log10 in 0.01 decade steps (0 kept as 0)
//   other _ratio 1e-4            flags (present, link_up, LOS/LOL/fault/no-light) 0/1
//   counters (_total) and data_path_state exact      any other unit 0.001
// A decoded value is the integer divided by its steps per unit, so the text
// of a stored -3.21 dBm reads back as -3.21.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace opticsd {

enum class ValueKind : std::uint8_t { kFlag, kInteger, kFixed, kLog10 };

struct ValueCodec {
  ValueKind kind = ValueKind::kFixed;
  double steps_per_unit = 1000;  // kFixed: integer steps per unit; kLog10: steps per decade

  // nullopt for a value that cannot be kept (NaN, infinite).
  std::optional<std::int64_t> encode(double value) const;
  // Inline: a history walk decodes millions.
  double decode(std::int64_t stored) const {
    switch (kind) {
      case ValueKind::kFlag:
      case ValueKind::kInteger:
        return static_cast<double>(stored);
      case ValueKind::kLog10:
        if (stored == 0) return 0;
        return std::pow(10.0, static_cast<double>(stored > 0 ? stored - 1 : stored) / steps_per_unit);
      case ValueKind::kFixed:
        return static_cast<double>(stored) / steps_per_unit;
    }
    return 0;
  }
  bool operator==(const ValueCodec&) const = default;
};

ValueCodec codecFor(std::string_view key);

}  // namespace opticsd
