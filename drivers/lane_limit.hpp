#pragma once
// The Sample model's lane limit: the most lanes of one module opticsd carries,
// end to end, and the one limit every part uses. The decoders (gNMI, SNMP
// profiles) refuse a lane beyond it, the sim simulates at most this many, the
// rules and baselines judge every lane up to it, and the store packs lanes
// 1..kMaxSampleLanes as one 64-bit mask (hence at most 64). Lane::number
// (drivers/sample.hpp) runs 1..kMaxSampleLanes.

namespace opticsd {

inline constexpr int kMaxSampleLanes = 64;

}  // namespace opticsd
