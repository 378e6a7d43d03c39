#pragma once
// gNMI Notifications into the TelemetryState: prefix and path joined, each
// TypedValue reduced to a LeafValue (PROTO scalars, decimal64, leaf-lists,
// JSON and JSON_IETF with containers expanded into their leaves).

#include <cstdint>
#include <map>
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
// decoder) and anything without a number, text or boolean in it.
// bytes_val is an IEEE 754 float32 or float64 by its length.
std::optional<LeafValue> scalarValue(const ::gnmi::TypedValue& value);
// Why scalarValue refused `value`, in words (for explain and the log).
std::string refusalReason(const ::gnmi::TypedValue& value);

// Joins `prefix` and `path` into `out` (reusing its storage).
void joinPath(const ::gnmi::Path& prefix, const ::gnmi::Path& path, GnmiPath& out);

// `poll-once --explain`: each distinct received path once, with the rule
// that mapped it or why it was ignored. Bounded: a target may send millions.
struct DecodeTrace {
  static constexpr std::size_t kMaxPaths = 4000;
  std::map<std::string, std::string> outcome_by_path;
  std::size_t more = 0;  // distinct paths beyond kMaxPaths, not listed
};

class NotificationDecoder {
 public:
  explicit NotificationDecoder(TelemetryState& state) : state_(state) {}
  DecodeCounts apply(const ::gnmi::Notification& notification, std::int64_t now_ms);
  // Records each path's outcome into `trace` (null: no tracing, the daemon's case).
  void setTrace(DecodeTrace* trace) { trace_ = trace; }

 private:
  void note(Applied applied, std::string_view refusal);
  // A path no rule maps may be a keyless list (IOS-XR's lane-data): a key
  // leaf is remembered for the rest of the notification, and a path under the
  // same list without keys is tried again with it.
  Applied applyKeyless(const LeafValue& value, std::int64_t now_ms);
  void applyJson(std::string_view json, std::int64_t now_ms, DecodeCounts& counts);
  void count(Applied applied, DecodeCounts& counts);

  TelemetryState& state_;
  DecodeTrace* trace_ = nullptr;
  GnmiPath path_;  // scratch, reused across updates
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> list_keys_seen_;  // list -> key, value
};

}  // namespace opticsd::gnmi
