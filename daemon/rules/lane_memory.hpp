#pragma once
// What the rules engine keeps per lane of a module between polls: the lane's
// own baselines (learned over the module's first polls, or restored) and its
// last Tx power, which the far end's link analysis reads. Held for the lanes
// the module has reported, exactly sized; a lane beyond them reads as fresh
// (no baseline, Tx unknown), as it would have been had it been held.
//
// Value type; not thread-safe (one module's state, one polling thread).

#include <cstddef>
#include <limits>
#include <vector>

namespace opticsd {

struct LaneMemory {
  static constexpr float kNone = std::numeric_limits<float>::quiet_NaN();

  float bias_baseline_ma = 0;  // 0: none
  // Learned with the bias baseline; NaN: none (dark or absent while learned).
  float rx_baseline_dbm = kNone;
  float tx_baseline_dbm = kNone;
  float last_tx_dbm = kNone;  // NaN: unknown or dark
};

class LaneMemories {
 public:
  // Lane `idx` (0 = lane 1); a fresh one beyond the lanes held.
  LaneMemory operator[](std::size_t idx) const { return idx < lanes_.size() ? lanes_[idx] : LaneMemory{}; }
  // Lane `idx`, held from now on (with every lane before it).
  LaneMemory& at(std::size_t idx) {
    hold(idx + 1);
    return lanes_[idx];
  }
  // Holds at least `lanes` lanes, growing to exactly that many.
  void hold(std::size_t lanes) {
    if (lanes <= lanes_.size()) return;
    lanes_.reserve(lanes);
    lanes_.resize(lanes);
  }
  std::size_t held() const { return lanes_.size(); }
  const LaneMemory* data() const { return lanes_.data(); }
  auto begin() { return lanes_.begin(); }
  auto end() { return lanes_.end(); }

 private:
  std::vector<LaneMemory> lanes_;
};

}  // namespace opticsd
