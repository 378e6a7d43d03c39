#pragma once
// A plot's view of the history: a few hundred time buckets per series, each
// kept as its lowest, highest and last value (at their own times). A plot is
// a few hundred pixels wide, so 14 days of 30 s rows (40,000 instants, nine
// rows each) read as 600 buckets draw the same picture: a spike inside a
// bucket still shows, because its min and max are kept, not a mean. A bucket
// without a value has no point (absent stays absent).
//
// SeriesBuckets is fed in time order per series, by the store's stepping
// query (HistoryQuery::series) or from full rows (seriesFromRows). Not
// thread-safe; one per query.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/history_query.hpp"

namespace opticsd {

struct HistoryPoint {
  std::int64_t ts_ms = 0;
  double value = 0;
  bool operator==(const HistoryPoint&) const = default;
};

// What a plot asks for: which keys, over which time, at which resolution.
struct SeriesRequest {
  std::string target;
  std::string port;
  std::vector<std::string> module_keys;  // read from module-level values
  std::vector<std::string> lane_keys;    // read per lane
  std::int64_t since_ms = 0;             // inclusive
  std::int64_t until_ms = 0;             // inclusive
  int buckets = 600;                     // at most this many buckets over [since, until]
};

struct HistorySeries {
  std::string key;
  int lane = 0;                      // 0: module level
  std::vector<HistoryPoint> points;  // per bucket its min, max and last, in time order, each once
};

struct SeriesResult {
  std::string target;
  std::string port;
  std::int64_t bucket_ms = 0;
  std::uint64_t rows_read = 0;              // stored instants stepped over
  std::optional<std::int64_t> last_row_ms;  // the newest stored instant in the range
  std::vector<HistorySeries> series;        // by module key, then lane key and lane; only series with values
  std::vector<IdentityRow> identities;      // every identity of the module, oldest first
};

class SeriesBuckets {
 public:
  // `keys` names the series' keys; add() refers to them by index.
  SeriesBuckets(const SeriesRequest& request, std::vector<std::string> keys);

  std::int64_t bucketMs() const { return bucket_ms_; }
  // One value of key `key_index` at `lane` (0: module level). Values outside
  // the range are ignored; per series, `ts_ms` must not go back.
  void add(std::size_t key_index, int lane, std::int64_t ts_ms, double value);
  // The series with values, by key index then lane. Call once.
  std::vector<HistorySeries> finish();

 private:
  static constexpr int kSlots = 65;  // lane 0 (module) and lanes 1..64
  struct Open {
    std::int64_t bucket = -1;  // -1: no value yet
    HistoryPoint min, max, last;
    std::vector<HistoryPoint> points;
  };
  static void close(Open& open);

  std::int64_t since_ms_;
  std::int64_t until_ms_;
  std::int64_t bucket_ms_;
  std::vector<std::string> keys_;
  std::vector<Open> open_;  // key_index * kSlots + lane
};

// The same buckets from full rows (a PageData that only has query()).
SeriesResult seriesFromRows(const HistoryResult& rows, const SeriesRequest& request);

}  // namespace opticsd
