#pragma once
// A module's per-lane trend windows: one block of a window per lane for each
// rule that judges every lane against its own past (ResolvedRule::lane_trend).
// A block is made at its first use, when a lane first reports the rule's
// signal, so a signal the module never reports (per-lane BER on a module
// without lane FEC counters) costs no memory. A window made late is the fresh
// window it would have been all along: windows change only when a value is
// added, and every use adds one.
//
// Value type; not thread-safe (one module's state, one polling thread).
// A pointer from window() is valid until the next call of window() or reset().

#include <cstddef>
#include <cstdint>
#include <vector>

#include "daemon/rules/trend_window.hpp"

namespace opticsd {

class LaneTrendWindows {
 public:
  // Forgets every window: `blocks` blocks of `lanes` windows each, none made.
  void reset(std::size_t blocks, std::size_t lanes);
  // Lane `idx`'s window in `block`, made with its block at the first use;
  // null for lanes beyond the ones given to reset().
  TrendWindow* window(std::size_t block, std::size_t idx);
  std::size_t lanes() const { return lanes_; }
  std::size_t held() const { return windows_.size(); }
  const TrendWindow* data() const { return windows_.data(); }
  std::size_t capacity() const { return windows_.capacity(); }

 private:
  static constexpr std::size_t kLazyBlocks = 64;  // blocks beyond these are made at reset()
  std::size_t position(std::size_t block) const;  // of the block's first window in windows_

  std::vector<TrendWindow> windows_;  // the made blocks, in block order, exactly sized
  std::uint64_t made_ = 0;            // bit b: block b is made
  std::uint8_t lanes_ = 0;
};

}  // namespace opticsd
