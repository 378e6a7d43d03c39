#include "drivers/fec_tail.hpp"

#include <algorithm>
#include <functional>

namespace opticsd {
namespace {

// Grew: +1, unchanged: 0, went down (a reset): -1.
int growth(std::optional<std::uint64_t> before, std::optional<std::uint64_t> now) {
  if (!before || !now) return 0;
  if (*now < *before) return -1;
  return *now > *before ? 1 : 0;
}

// What fecTail needs of the previous histogram, from either form: the bins
// themselves or a tracker's flat counts of the same shape.
struct BinsView {
  const std::vector<FecHistogramBin>& bins;
  std::optional<std::uint64_t> total(std::size_t bin) const { return bins[bin].codewords_total; }
  std::size_t lanes(std::size_t bin) const { return bins[bin].lane_codewords_total.size(); }
  std::uint64_t lane(std::size_t bin, std::size_t l) const { return bins[bin].lane_codewords_total[l]; }
};

// Flat counts laid out as `shape` (the current histogram's) says: per bin its
// total where given, then its lanes'. offsets[i] is bin i's first count.
struct CountsView {
  const std::vector<FecHistogramBin>& shape;
  std::span<const std::uint64_t> counts;
  std::vector<std::size_t> offsets;
  CountsView(const std::vector<FecHistogramBin>& s, std::span<const std::uint64_t> c) : shape(s), counts(c) {
    std::size_t at = 0;
    offsets.reserve(s.size());
    for (const auto& bin : s) {
      offsets.push_back(at);
      at += (bin.codewords_total ? 1 : 0) + bin.lane_codewords_total.size();
    }
  }
  std::optional<std::uint64_t> total(std::size_t bin) const {
    if (!shape[bin].codewords_total) return std::nullopt;
    return counts[offsets[bin]];
  }
  std::size_t lanes(std::size_t bin) const { return shape[bin].lane_codewords_total.size(); }
  std::uint64_t lane(std::size_t bin, std::size_t l) const {
    return counts[offsets[bin] + (shape[bin].codewords_total ? 1 : 0) + l];
  }
};

// The tail of `current` against `previous`, whose bins have current's bounds.
template <typename Previous>
FecTail tailAgainst(const Previous& previous, const std::vector<FecHistogramBin>& current) {
  FecTail tail;
  std::size_t lanes = 0;
  for (const auto& bin : current) lanes = std::max(lanes, bin.lane_codewords_total.size());
  std::vector<std::optional<std::uint16_t>> lane_tail(lanes);
  bool any_lane = false;
  for (std::size_t i = 0; i < current.size(); ++i) {
    const FecHistogramBin& b = current[i];
    // A port total where given; else the sum of the lanes grows when one does.
    const int port = growth(previous.total(i), b.codewords_total);
    if (port < 0) return {};
    bool lane_grew = false;
    for (std::size_t l = 0; l < b.lane_codewords_total.size(); ++l) {
      if (l >= previous.lanes(i)) continue;
      const int g = growth(previous.lane(i, l), b.lane_codewords_total[l]);
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

// The bins' shape in one number: bounds, whether a port total is given and
// how many lanes are counted, bin by bin. Equal shapes lay their counts out
// alike (a collision would pair two shapes' counts for one window at worst).
std::uint64_t shapeOf(const std::vector<FecHistogramBin>& bins) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the shape's words
  auto mix = [&](std::uint64_t word) {
    for (int i = 0; i < 8; ++i) {
      h ^= (word >> (8 * i)) & 0xFF;
      h *= 1099511628211ull;
    }
  };
  mix(bins.size());
  for (const auto& bin : bins) {
    mix(std::uint64_t{bin.low} | std::uint64_t{bin.high} << 16 | std::uint64_t{bin.codewords_total.has_value()} << 32 |
        std::uint64_t{bin.lane_codewords_total.size()} << 33);
  }
  return h;
}

std::size_t countsOf(const std::vector<FecHistogramBin>& bins) {
  std::size_t n = 0;
  for (const auto& bin : bins) n += (bin.codewords_total ? 1 : 0) + bin.lane_codewords_total.size();
  return n;
}

void flatten(const std::vector<FecHistogramBin>& bins, std::vector<std::uint64_t>& out) {
  out.clear();
  out.reserve(countsOf(bins));  // exact on a port's first histogram: no growth slack kept per port
  for (const auto& bin : bins) {
    if (bin.codewords_total) out.push_back(*bin.codewords_total);
    out.insert(out.end(), bin.lane_codewords_total.begin(), bin.lane_codewords_total.end());
  }
}

}  // namespace

FecTail fecTail(const std::vector<FecHistogramBin>& previous, const std::vector<FecHistogramBin>& current) {
  if (previous.size() != current.size() || current.empty()) return {};
  for (std::size_t i = 0; i < current.size(); ++i) {
    if (previous[i].low != current[i].low || previous[i].high != current[i].high) return {};
  }
  return tailAgainst(BinsView{previous}, current);
}

void FecTailTracker::apply(Sample& sample) {
  if (sample.fec.histogram.empty()) {
    last_.erase(sample.port);
    return;
  }
  const auto& bins = sample.fec.histogram;
  const std::uint64_t serial = std::hash<std::string>{}(sample.identity().serial);
  const std::uint64_t shape = shapeOf(bins);
  Last& last = last_[sample.port];
  // A new port, a swapped module or other bins: no window, this histogram starts one.
  if (!last.counts.empty() && last.serial_hash == serial && last.shape == shape &&
      last.counts.size() == countsOf(bins)) {
    sample.fec.tail = tailAgainst(CountsView(bins, last.counts), bins);
  }
  last.serial_hash = serial;
  last.shape = shape;
  flatten(bins, last.counts);
}

std::size_t FecTailTracker::bytes() const {
  std::size_t total = last_.bucket_count() * sizeof(void*);
  for (const auto& [port, last] : last_) {
    total += sizeof(std::pair<const std::string, Last>) + 2 * sizeof(void*);  // the node, its link and hash
    if (port.size() > 15) total += port.capacity() + 1;
    total += last.counts.capacity() * sizeof(std::uint64_t);
  }
  return total;
}

}  // namespace opticsd
