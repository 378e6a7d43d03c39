#include "daemon/rules/lane_trend_windows.hpp"

#include <bit>

namespace opticsd {

void LaneTrendWindows::reset(std::size_t blocks, std::size_t lanes) {
  lanes_ = static_cast<std::uint8_t>(lanes);
  made_ = 0;
  const std::size_t eager = blocks > kLazyBlocks ? blocks - kLazyBlocks : 0;
  std::vector<TrendWindow>(eager * lanes).swap(windows_);
}

std::size_t LaneTrendWindows::position(std::size_t block) const {
  if (block >= kLazyBlocks) return static_cast<std::size_t>(std::popcount(made_)) + (block - kLazyBlocks);
  return static_cast<std::size_t>(std::popcount(made_ & ((std::uint64_t{1} << block) - 1)));
}

TrendWindow* LaneTrendWindows::window(std::size_t block, std::size_t idx) {
  if (idx >= lanes_) return nullptr;
  const std::size_t at = position(block) * lanes_;
  if (block < kLazyBlocks && (made_ & (std::uint64_t{1} << block)) == 0) {
    // Grown to the exact size: a vector's own growth would keep spare windows.
    std::vector<TrendWindow> grown;
    grown.reserve(windows_.size() + lanes_);
    const auto split = windows_.begin() + static_cast<std::ptrdiff_t>(at);
    grown.insert(grown.end(), windows_.begin(), split);
    grown.resize(grown.size() + lanes_);
    grown.insert(grown.end(), split, windows_.end());
    windows_.swap(grown);
    made_ |= std::uint64_t{1} << block;
  }
  return &windows_[at + idx];
}

}  // namespace opticsd
