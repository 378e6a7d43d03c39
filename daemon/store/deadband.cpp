#include "daemon/store/deadband.hpp"

#include <cmath>
#include <string_view>

namespace opticsd {
namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Counters move every poll; a link-down count and an uncorrectable codeword
// count only on an event (a lost frame), which is a state change: stored as it
// happens, so a replay of history sees each one at its poll (daemon/backtest).
bool ignored(std::string_view key) {
  return endsWith(key, "_total") && key != "link_down_events_total" && key != "fec_uncorrectable_blocks_total";
}

bool moved(std::string_view key, const ValueCodec& codec, std::int64_t kept, std::int64_t now,
           const DeadbandOptions& o) {
  if (kept == now) return false;
  switch (codec.kind) {
    case ValueKind::kFlag:
    case ValueKind::kInteger:
      return true;
    case ValueKind::kLog10:
      if (kept == 0 || now == 0) return true;  // to or from no errors at all
      return std::abs(std::log10(codec.decode(now)) - std::log10(codec.decode(kept))) >
             o.ber_decades + 0.5 / codec.steps_per_unit;
    case ValueKind::kFixed:
      break;
  }
  const double delta = std::abs(codec.decode(now) - codec.decode(kept));
  double tolerance = o.relative * std::abs(codec.decode(kept));
  if (endsWith(key, "_dbm") || endsWith(key, "_decibels")) {
    tolerance = o.power_db;
  } else if (endsWith(key, "_celsius")) {
    tolerance = o.temperature_c;
  } else if (endsWith(key, "_volts")) {
    tolerance = o.voltage_v;
  } else if (endsWith(key, "_percent")) {
    tolerance = o.percent_points;
  }
  // A step of the register resolution always fits within "at least one step".
  return delta > tolerance + 0.5 / codec.steps_per_unit;
}

}  // namespace

bool exceedsDeadband(const PackedValues& kept, const PackedValues& now, const MetricCodes& codes,
                     const DeadbandOptions& options) {
  // Both are sorted by (code, lane): walk them together.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < kept.size() || j < now.size()) {
    const bool take_kept =
        j >= now.size() || (i < kept.size() && (kept[i].code < now[j].code ||
                                                (kept[i].code == now[j].code && kept[i].lane < now[j].lane)));
    const bool take_now =
        i >= kept.size() ||
        (j < now.size() && (now[j].code < kept[i].code || (now[j].code == kept[i].code && now[j].lane < kept[i].lane)));
    if (take_kept || take_now) {
      // Reported in one, not the other.
      const std::uint32_t code = take_kept ? kept[i].code : now[j].code;
      if (!ignored(codes.key(code))) return true;
      (take_kept ? i : j)++;
      continue;
    }
    const std::uint32_t code = now[j].code;
    const std::string_view key = codes.key(code);
    if (!ignored(key) && moved(key, codes.codec(code), kept[i].stored, now[j].stored, options)) return true;
    ++i;
    ++j;
  }
  return false;
}

}  // namespace opticsd
