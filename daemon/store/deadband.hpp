#pragma once
// Deadband (exception) recording, as a process historian does it: a module's
// values are stored when one of them moved beyond its tolerance from the last
// stored row, when a state changed (presence, link, a lane flag, data path
// state, a link-down count), and at a heartbeat otherwise. DOM values of a
// healthy module sit within a few register steps for hours, so most polls
// store nothing. FEC counters never trigger a row (they move every poll),
// but for uncorrectable codewords, which count only lost frames;
// their value is in every row that is kept.
//
// Tolerances by the unit in the key (DeadbandOptions in store_options.hpp;
// defaults documented in the README's History section):
//   _dbm, _decibels  power_db            _celsius   temperature_c
//   _volts           voltage_v           _milliamperes, other units  relative
//   BER/frame ratios ber_decades         _percent   percent_points

#include "daemon/store/packed_sample.hpp"
#include "daemon/store/store_options.hpp"

namespace opticsd {

// True when `now` differs from `kept` by more than the tolerances: a value
// beyond its tolerance, a flag or state changed, a value appeared or went.
bool exceedsDeadband(const PackedValues& kept, const PackedValues& now, const MetricCodes& codes,
                     const DeadbandOptions& options);

}  // namespace opticsd
