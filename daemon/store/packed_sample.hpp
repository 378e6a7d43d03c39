#pragma once
// One module's values at one instant as history keeps them: every reported
// value as (key code, lane, integer at the key's resolution, value_codec.hpp),
// packed into one BLOB per module per stored instant (module_history.data).
// Not reported is absent, never 0.
//
// Keys are the catalogue keys of drivers/measurement.hpp plus the state and
// counter columns of schema.hpp; each has a stable small code in the
// metric_codes table, added at open for keys the file has not seen. So a new
// catalogue row needs no migration: its key gets the next code.
//
// Blob layout (version 1): one byte 1, then per key, in code order, a varint
// tag = code << 2 | has_lanes << 1 | is_flag, then
//   module value:  zigzag varint
//   lane values:   varint lane mask (bit n-1 = lane n, lanes 1..64), then a
//                  varint mask of the lanes whose flag is set (is_flag) or a
//                  zigzag varint per lane in lane order: the first lane's
//                  value, then each lane's difference from the lane before.
// A module-level value (lane 0) and lane values of one key are two entries.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "daemon/store/packed_visit.hpp"
#include "daemon/store/sqlite_handle.hpp"
#include "daemon/store/value_codec.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

// Sorted by (code, lane): the order pack() writes and unpack() returns.
using PackedValues = std::vector<PackedValue>;

// Every key history keeps at module level and at lane level, in catalogue order.
const std::vector<std::string_view>& moduleHistoryKeys();
const std::vector<std::string_view>& laneHistoryKeys();

// The file's key codes. load() adds the keys this binary knows and the file
// does not (inside the caller's write transaction or on its own).
class MetricCodes {
 public:
  static Result<MetricCodes> load(SqliteDb& db, bool add_missing);

  // 0 when unknown.
  std::uint32_t code(std::string_view key) const;
  // "" when unknown (a key of a newer opticsd).
  std::string_view key(std::uint32_t code) const;
  const ValueCodec& codec(std::uint32_t code) const;

 private:
  std::unordered_map<std::string, std::uint32_t> codes_;
  std::unordered_map<std::uint32_t, std::pair<std::string, ValueCodec>> keys_;
};

// The values of `sample` (lanes above 64 are left out).
PackedValues packedValues(const Sample& sample, const MetricCodes& codes);

std::string pack(const PackedValues& values);
Result<PackedValues> unpack(std::string_view blob);
// The same into `out` (cleared first), reusing its memory: a query stepping
// over thousands of rows allocates once.
Result<void> unpackInto(std::string_view blob, PackedValues& out);

}  // namespace opticsd
