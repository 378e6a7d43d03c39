#include "drivers/fec_tail.hpp"

#include <algorithm>

namespace opticsd {
namespace {

// Grew: +1, unchanged: 0, went down (a reset): -1.
int growth(std::optional<std::uint64_t> before, std::optional<std::uint64_t> now) {
  if (!before || !now) return 0;
  if (*now < *before) return -1;
  return *now > *before ? 1 : 0;
}

}  // namespace

FecTail fecTail(const std::vector<FecHistogramBin>& previous, const std::vector<FecHistogramBin>& current) {
  FecTail tail;
  if (previous.size() != current.size() || current.empty()) return tail;
  std::size_t lanes = 0;
  for (std::size_t i = 0; i < current.size(); ++i) {
    if (previous[i].low != current[i].low || previous[i].high != current[i].high) return {};
    lanes = std::max(lanes, current[i].lane_codewords_total.size());
  }
  std::vector<std::optional<std::uint16_t>> lane_tail(lanes);
  bool any_lane = false;
  for (std::size_t i = 0; i < current.size(); ++i) {
    const FecHistogramBin& a = previous[i];
    const FecHistogramBin& b = current[i];
    // A port total where given; else the sum of the lanes grows when one does.
    const int port = growth(a.codewords_total, b.codewords_total);
    if (port < 0) return {};
    bool lane_grew = false;
    for (std::size_t l = 0; l < b.lane_codewords_total.size(); ++l) {
      if (l >= a.lane_codewords_total.size()) continue;
      const int g = growth(a.lane_codewords_total[l], b.lane_codewords_total[l]);
      if (g < 0) return {};
      if (g > 0) {
        lane_tail[l] = std::max<std::uint16_t>(lane_tail[l].value_or(0), b.high);
        lane_grew = any_lane = true;
      }
    }
    if (port > 0 || lane_grew) tail.symbols = std::max<std::uint16_t>(tail.symbols.value_or(0), b.high);
  }
  if (any_lane) {
    // Lanes counted but quiet in the window have a tail of nothing: absent.
    tail.lane_symbols = std::move(lane_tail);
  }
  return tail;
}

void FecTailTracker::apply(Sample& sample) {
  if (sample.fec.histogram.empty()) {
    last_.erase(sample.port);
    return;
  }
  const std::string& serial = sample.identity().serial;
  auto it = last_.find(sample.port);
  if (it != last_.end() && it->second.serial == serial) {
    sample.fec.tail = fecTail(it->second.histogram, sample.fec.histogram);
  }
  Last& last = last_[sample.port];
  last.serial = serial;
  last.histogram = sample.fec.histogram;
}

}  // namespace opticsd
