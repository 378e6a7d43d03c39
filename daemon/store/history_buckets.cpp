#include "daemon/store/history_buckets.hpp"

#include <algorithm>

namespace opticsd {

SeriesBuckets::SeriesBuckets(const SeriesRequest& request, std::vector<std::string> keys)
    : since_ms_(request.since_ms),
      until_ms_(std::max(request.since_ms, request.until_ms)),
      keys_(std::move(keys)),
      open_(keys_.size() * kSlots) {
  const std::int64_t span = until_ms_ - since_ms_ + 1;
  const std::int64_t buckets = std::max(1, request.buckets);
  bucket_ms_ = std::max<std::int64_t>(1, (span + buckets - 1) / buckets);
}

void SeriesBuckets::close(Open& open) {
  if (open.bucket < 0) return;
  // The three in time order, each instant once (min, max and last are often one point).
  HistoryPoint p[3] = {open.min, open.max, open.last};
  std::sort(std::begin(p), std::end(p), [](const auto& a, const auto& b) { return a.ts_ms < b.ts_ms; });
  for (const auto& point : p) {
    if (open.points.empty() || open.points.back().ts_ms != point.ts_ms || open.points.back().value != point.value) {
      open.points.push_back(point);
    }
  }
}

void SeriesBuckets::add(std::size_t key_index, int lane, std::int64_t ts_ms, double value) {
  if (ts_ms < since_ms_ || ts_ms > until_ms_ || key_index >= keys_.size() || lane < 0 || lane >= kSlots) return;
  Open& open = open_[key_index * kSlots + static_cast<std::size_t>(lane)];
  const std::int64_t bucket = (ts_ms - since_ms_) / bucket_ms_;
  const HistoryPoint point{ts_ms, value};
  if (bucket != open.bucket) {
    close(open);
    open.bucket = bucket;
    open.min = open.max = open.last = point;
    return;
  }
  if (value < open.min.value) open.min = point;
  if (value > open.max.value) open.max = point;
  open.last = point;
}

std::vector<HistorySeries> SeriesBuckets::finish() {
  std::vector<HistorySeries> out;
  for (std::size_t i = 0; i < open_.size(); ++i) {
    Open& open = open_[i];
    close(open);
    open.bucket = -1;
    if (open.points.empty()) continue;
    out.push_back({keys_[i / kSlots], static_cast<int>(i % kSlots), std::move(open.points)});
  }
  return out;
}

namespace {

std::optional<double> number(const HistoryValue& v) {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::nullopt;
}

}  // namespace

SeriesResult seriesFromRows(const HistoryResult& rows, const SeriesRequest& request) {
  SeriesResult result;
  result.target = rows.target;
  result.port = rows.port;
  result.identities = rows.identities;
  // Keys: the module ones, then the lane ones; a column feeds the matching level only.
  std::vector<std::string> keys = request.module_keys;
  keys.insert(keys.end(), request.lane_keys.begin(), request.lane_keys.end());
  struct Feed {
    std::size_t column;
    std::size_t key;
    bool lane;
  };
  std::vector<Feed> feeds;
  for (std::size_t c = 0; c < rows.columns.size(); ++c) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (keys[k] == rows.columns[c].name) feeds.push_back({c, k, k >= request.module_keys.size()});
    }
  }
  SeriesBuckets buckets(request, keys);
  for (const auto& row : rows.rows) {
    if (row.ts_ms < request.since_ms || row.ts_ms > request.until_ms) continue;
    if (!result.last_row_ms || *result.last_row_ms != row.ts_ms) ++result.rows_read;
    result.last_row_ms = row.ts_ms;
    for (const auto& f : feeds) {
      if (f.lane != row.lane.has_value() || f.column >= row.values.size()) continue;
      if (auto v = number(row.values[f.column])) buckets.add(f.key, row.lane.value_or(0), row.ts_ms, *v);
    }
  }
  result.bucket_ms = buckets.bucketMs();
  result.series = buckets.finish();
  return result;
}

}  // namespace opticsd
