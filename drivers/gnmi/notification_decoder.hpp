#pragma once
// gNMI Notifications into the TelemetryState: prefix and path joined, each
// TypedValue reduced to a LeafValue (PROTO scalars, decimal64, leaf-lists,
// JSON and JSON_IETF with containers expanded into their leaves).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drivers/gnmi/telemetry_state.hpp"
#include "schemas/gnmi/gnmi.pb.h"

namespace opticsd::gnmi {

struct DecodeCounts {
  std::size_t mapped = 0;
  std::size_t unknown_paths = 0;
  std::size_t bad_values = 0;
  std::size_t over_limit = 0;
  std::string first_unknown_path;  // one example, for the log
  std::string first_bad_value_path;
  void add(const DecodeCounts& other);
};

// The value of a scalar TypedValue; nullopt for JSON (expanded by the
// decoder), bytes and anything without a number, text or boolean in it.
std::optional<LeafValue> scalarValue(const ::gnmi::TypedValue& value);

// Joins `prefix` and `path` into `out` (reusing its storage).
void joinPath(const ::gnmi::Path& prefix, const ::gnmi::Path& path, GnmiPath& out);

class NotificationDecoder {
 public:
  explicit NotificationDecoder(TelemetryState& state) : state_(state) {}
  DecodeCounts apply(const ::gnmi::Notification& notification, std::int64_t now_ms);

 private:
  void applyJson(std::string_view json, std::int64_t now_ms, DecodeCounts& counts);
  void count(Applied applied, DecodeCounts& counts);

  TelemetryState& state_;
  GnmiPath path_;  // scratch, reused across updates
};

}  // namespace opticsd::gnmi
