#include "daemon/store/threshold_rows.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "drivers/measurement.hpp"

namespace opticsd {
namespace {

// The four limits in the order their "lane" numbers them (1-4, 5-8).
constexpr std::array<Reading Thresholds::*, 4> kLimits{&Thresholds::high_alarm, &Thresholds::high_warning,
                                                       &Thresholds::low_warning, &Thresholds::low_alarm};
constexpr std::uint8_t kLaneMetricLimits = 4;  // added to the limit's number for a lane metric

void add(const std::optional<Thresholds>& t, std::string_view key, std::uint8_t first, const MetricCodes& codes,
         PackedValues& out) {
  if (!t) return;
  const std::uint32_t code = codes.code(key);
  if (code == 0) return;
  for (std::size_t i = 0; i < kLimits.size(); ++i) {
    const Reading& limit = (*t).*kLimits[i];
    if (!limit) continue;
    if (const auto stored = codes.codec(code).encode(*limit)) {
      out.push_back({code, static_cast<std::uint8_t>(first + i), false, *stored});
    }
  }
}

}  // namespace

std::string packThresholds(const ModuleThresholds& table, const MetricCodes& codes) {
  PackedValues values;
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) add(table.module[m], kModuleMetricInfo[m].key, 1, codes, values);
  for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
    add(table.lane[m], kLaneMetricInfo[m].key, 1 + kLaneMetricLimits, codes, values);
  }
  std::sort(values.begin(), values.end(), [](const PackedValue& a, const PackedValue& b) {
    return std::pair(a.code, a.lane) < std::pair(b.code, b.lane);
  });
  return pack(values);
}

Result<ModuleThresholds> unpackThresholds(std::string_view blob, const MetricCodes& codes) {
  auto values = unpack(blob);
  if (!values) return tl::unexpected(values.error());
  ModuleThresholds table;
  for (const PackedValue& v : *values) {
    if (v.lane < 1 || v.lane > 2 * kLaneMetricLimits) continue;
    const std::string_view key = codes.key(v.code);
    const bool lane_metric = v.lane > kLaneMetricLimits;
    const auto limit = kLimits[static_cast<std::size_t>((v.lane - 1) % kLaneMetricLimits)];
    const double value = codes.codec(v.code).decode(v.stored);
    const auto set = [&](std::optional<Thresholds>& t) {
      if (!t) t.emplace();
      (*t).*limit = value;
    };
    if (lane_metric) {
      for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
        if (kLaneMetricInfo[m].key == key) set(table.lane[m]);
      }
    } else {
      for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
        if (kModuleMetricInfo[m].key == key) set(table.module[m]);
      }
    }
  }
  return table;
}

Result<ThresholdRows> ThresholdRows::prepare(SqliteDb& db) {
  ThresholdRows rows;
  auto select =
      db.prepare("SELECT data FROM module_thresholds WHERE module_id = ?1 ORDER BY first_seen_ms DESC LIMIT 1");
  if (!select) return tl::unexpected(select.error());
  auto insert =
      db.prepare("INSERT OR REPLACE INTO module_thresholds (module_id, first_seen_ms, data) VALUES (?1, ?2, ?3)");
  if (!insert) return tl::unexpected(insert.error());
  rows.select_last_ = std::move(*select);
  rows.insert_ = std::move(*insert);
  return rows;
}

Result<void> ThresholdRows::record(SqliteDb& db, std::int64_t module_id, const Sample& sample,
                                   const MetricCodes& codes) {
  Last& last = last_[module_id];
  // Drivers hand every poll of a module the same table: the common case is one pointer compare.
  if (last.loaded && last.table.sharesWith(sample.shared_thresholds)) return {};
  // None reported (unset, or an empty table): nothing to record.
  static const CopyOnWrite<ModuleThresholds> kUnset;
  if (sample.shared_thresholds.sharesWith(kUnset) || *sample.shared_thresholds == ModuleThresholds{}) return {};
  if (last.loaded && *last.table == *sample.shared_thresholds) {
    last.table = sample.shared_thresholds;
    return {};
  }
  if (!last.loaded) {
    select_last_.bind(1, std::optional<std::int64_t>(module_id));
    const int rc = select_last_.step();
    if (rc == SQLITE_ROW) {
      const void* blob = sqlite3_column_blob(select_last_.get(), 0);
      const int size = sqlite3_column_bytes(select_last_.get(), 0);
      if (blob != nullptr) last.data.assign(static_cast<const char*>(blob), static_cast<std::size_t>(size));
    }
    select_last_.reset();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return fail(db.error("reading module thresholds"));
    last.loaded = true;
  }
  std::string data = packThresholds(*sample.shared_thresholds, codes);
  if (data != last.data) {
    insert_.bind(1, std::optional<std::int64_t>(module_id));
    insert_.bind(2, std::optional<std::int64_t>(sample.timestamp_ms));
    sqlite3_bind_blob(insert_.get(), 3, data.data(), static_cast<int>(data.size()), SQLITE_TRANSIENT);
    const int rc = insert_.step();
    insert_.reset();
    if (rc != SQLITE_DONE) return fail(db.error("recording module thresholds"));
  }
  // From here the table itself stands for what was recorded (a pointer kept
  // per module, not its packed copy: the writer holds one per module).
  last.table = sample.shared_thresholds;
  std::string().swap(last.data);
  return {};
}

}  // namespace opticsd
