#include "daemon/store/packed_sample.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "daemon/store/schema.hpp"
#include "drivers/lane_limit.hpp"
#include "drivers/measurement.hpp"

namespace opticsd {
namespace {

constexpr int kMaxLanes = kMaxSampleLanes;  // the lane mask is 64 bits

void putVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

std::vector<std::string_view> collect(auto&& metrics, auto&& columns, std::vector<std::string_view> first = {}) {
  for (const auto& m : metrics) first.push_back(m.key);
  for (const auto& c : columns) first.push_back(c);
  return first;
}

}  // namespace

const std::vector<std::string_view>& moduleHistoryKeys() {
  static const auto keys = collect(kModuleMetricInfo, kModuleCounterColumns, {"present"});
  return keys;
}

const std::vector<std::string_view>& laneHistoryKeys() {
  static const auto keys = [] {
    auto all = collect(kLaneMetricInfo, kLaneStatusColumns);
    all.insert(all.end(), kLaneFecColumns.begin(), kLaneFecColumns.end());
    return all;
  }();
  return keys;
}

Result<MetricCodes> MetricCodes::load(SqliteDb& db, bool add_missing) {
  MetricCodes out;
  auto read = [&]() -> Result<void> {
    out.codes_.clear();
    out.keys_.clear();
    auto st = db.prepare("SELECT code, key FROM metric_codes");
    if (!st) return tl::unexpected(st.error());
    int rc = SQLITE_ROW;
    while ((rc = st->step()) == SQLITE_ROW) {
      const auto code = static_cast<std::uint32_t>(st->columnInt(0).value_or(0));
      std::string key = st->columnText(1);
      out.codes_[key] = code;
      out.keys_[code] = {key, codecFor(key)};
    }
    if (rc != SQLITE_DONE) return fail(db.error("reading metric codes"));
    return {};
  };
  if (auto ok = read(); !ok) return tl::unexpected(ok.error());
  if (!add_missing) return out;
  std::vector<std::string_view> missing;
  for (const auto* keys : {&moduleHistoryKeys(), &laneHistoryKeys()}) {
    for (auto key : *keys) {
      if (!out.codes_.count(std::string(key)) && std::find(missing.begin(), missing.end(), key) == missing.end()) {
        missing.push_back(key);
      }
    }
  }
  if (missing.empty()) return out;
  auto insert = db.prepare("INSERT OR IGNORE INTO metric_codes (key) VALUES (?1)");
  if (!insert) return tl::unexpected(insert.error());
  for (auto key : missing) {
    insert->bind(1, key);
    const int rc = insert->step();
    insert->reset();
    if (rc != SQLITE_DONE) return fail(db.error("adding metric code for " + std::string(key)));
  }
  if (auto ok = read(); !ok) return tl::unexpected(ok.error());
  return out;
}

std::uint32_t MetricCodes::code(std::string_view key) const {
  auto it = codes_.find(std::string(key));
  return it == codes_.end() ? 0 : it->second;
}

std::string_view MetricCodes::key(std::uint32_t code) const {
  auto it = keys_.find(code);
  return it == keys_.end() ? std::string_view() : std::string_view(it->second.first);
}

const ValueCodec& MetricCodes::codec(std::uint32_t code) const {
  static const ValueCodec kDefault;
  auto it = keys_.find(code);
  return it == keys_.end() ? kDefault : it->second.second;
}

PackedValues packedValues(const Sample& sample, const MetricCodes& codes) {
  PackedValues out;
  out.reserve(16 + sample.lanes.size() * 12);
  auto add = [&](std::string_view key, int lane, std::optional<double> value) {
    if (!value) return;
    const std::uint32_t code = codes.code(key);
    if (code == 0) return;
    const ValueCodec& codec = codes.codec(code);
    auto stored = codec.encode(*value);
    if (!stored) return;
    out.push_back({code, static_cast<std::uint8_t>(lane), codec.kind == ValueKind::kFlag, *stored});
  };
  auto real = [](const auto& v) -> std::optional<double> {
    if (!v) return std::nullopt;
    return static_cast<double>(*v);
  };
  add("present", 0, sample.module_present ? 1.0 : 0.0);
  for (std::size_t k = 0; k < kModuleMetricCount; ++k) {
    add(kModuleMetricInfo[k].key, 0, sample.module[static_cast<ModuleMetric>(k)]);
  }
  add("fec_corrected_blocks_total", 0, real(sample.fec.corrected_blocks_total));
  add("fec_uncorrectable_blocks_total", 0, real(sample.fec.uncorrectable_blocks_total));
  add("fec_corrected_bits_total", 0, real(sample.fec.corrected_bits_total));
  add("link_up", 0, real(sample.link.up));
  add("link_down_events_total", 0, real(sample.link.down_events_total));
  add("link_speed_gbps", 0, sample.link.speed_gbps);
  const FecCounters& fec = sample.fec;
  add("fec_tail_symbols", 0, real(fec.tail.symbols));
  add("fec_margin_symbols", 0, real(fec.margin(fec.tail.symbols)));
  if (const auto& r = sample.link.down_reason)
    add("link_down_reason_code", 0, r->state * 256.0 + r->substate.value_or(0));
  if (sample.maintenance) add("maintenance", 0, 1.0);
  for (std::size_t l = 0; l < fec.tail.lane_symbols.size() && l < kMaxLanes; ++l) {
    const int n = static_cast<int>(l + 1);
    add("fec_tail_symbols", n, real(fec.tail.lane_symbols[l]));
    add("fec_margin_symbols", n, real(fec.margin(fec.tail.lane_symbols[l])));
  }
  for (const Lane& lane : sample.lanes) {
    if (lane.number < 1 || lane.number > kMaxLanes) continue;
    const int n = lane.number;
    for (std::size_t k = 0; k < kLaneMetricCount; ++k)
      add(kLaneMetricInfo[k].key, n, lane.values[static_cast<LaneMetric>(k)]);
    for (const LaneFlagInfo& flag : kLaneFlagInfo) add(flag.key, n, real(lane.status.*flag.member));
    add("data_path_state", n, real(lane.status.data_path_state));
  }
  std::sort(out.begin(), out.end(), [](const PackedValue& a, const PackedValue& b) {
    return a.code != b.code ? a.code < b.code : a.lane < b.lane;
  });
  // A lane reported twice keeps its first values.
  out.erase(
      std::unique(out.begin(), out.end(),
                  [](const PackedValue& a, const PackedValue& b) { return a.code == b.code && a.lane == b.lane; }),
      out.end());
  return out;
}

std::string pack(const PackedValues& values) {
  std::string out;
  out.reserve(1 + values.size() * 3);
  out.push_back(static_cast<char>(kPackedBlobVersion));
  for (std::size_t i = 0; i < values.size();) {
    const PackedValue& first = values[i];
    const std::uint64_t code = first.code;
    if (first.lane == 0) {
      putVarint(out, code << 2 | (first.flag ? 1 : 0));
      putVarint(out, zigzag(first.stored));
      ++i;
      continue;
    }
    std::size_t end = i;
    std::uint64_t mask = 0;
    std::uint64_t set = 0;
    while (end < values.size() && values[end].code == first.code) {
      const std::uint64_t bit = std::uint64_t{1} << (values[end].lane - 1);
      mask |= bit;
      if (values[end].stored != 0) set |= bit;
      ++end;
    }
    putVarint(out, code << 2 | 2 | (first.flag ? 1 : 0));
    putVarint(out, mask);
    if (first.flag) {
      putVarint(out, set);
    } else {
      // Lanes of one module read alike: each lane after the first is kept as
      // its difference from the lane before, which fits fewer varint bytes.
      std::int64_t previous = 0;
      for (std::size_t j = i; j < end; ++j) {
        putVarint(out, zigzag(static_cast<std::int64_t>(static_cast<std::uint64_t>(values[j].stored) -
                                                        static_cast<std::uint64_t>(previous))));
        previous = values[j].stored;
      }
    }
    i = end;
  }
  return out;
}

Result<PackedValues> unpack(std::string_view blob) {
  PackedValues out;
  if (auto ok = unpackInto(blob, out); !ok) return tl::unexpected(ok.error());
  return out;
}

Result<void> unpackInto(std::string_view blob, PackedValues& out) {
  out.clear();
  return visitPacked(blob, [&](const PackedValue& v) { out.push_back(v); });
}

}  // namespace opticsd
