#pragma once
// A module's hysteresis per rule slot (a rule, or one lane of a per-lane
// rule), held only for the slots where something is counted or active: a
// healthy module, the common case, holds none and costs no memory, whatever
// the number of rules and lanes. A slot not held reads as a fresh one.
//
// Value type; not thread-safe (one module's state, one polling thread).

#include <cstdint>
#include <vector>

#include "daemon/rules/finding.hpp"

namespace opticsd {

struct Hysteresis {
  std::uint8_t breach = 0;  // consecutive breaching polls
  std::uint8_t clean = 0;   // consecutive clean polls while active
  Severity active = Severity::kNone;

  bool idle() const { return breach == 0 && active == Severity::kNone; }
  bool fresh() const { return breach == 0 && clean == 0 && active == Severity::kNone; }
};

class HysteresisSlots {
 public:
  // The slot's state; a fresh one when not held.
  Hysteresis get(std::uint16_t slot) const {
    for (const auto& e : held_) {
      if (e.slot == slot) return e.h;
    }
    return {};
  }
  bool idle(std::uint16_t slot) const { return held_.empty() || get(slot).idle(); }
  // Holds `h` for the slot, or lets the slot go when `h` is fresh.
  void set(std::uint16_t slot, Hysteresis h);
  // No slot breaching or active: a healthy poll skips per-slot work.
  bool allIdle() const { return busy_ == 0; }
  std::size_t held() const { return held_.size(); }
  std::size_t capacity() const { return held_.capacity(); }
  void clear() {
    std::vector<Entry>().swap(held_);
    busy_ = 0;
  }

 private:
  struct Entry {
    std::uint16_t slot = 0;
    Hysteresis h;
  };
  std::vector<Entry> held_;  // unordered; a handful at most
  std::uint32_t busy_ = 0;   // held slots that are not idle
};

inline void HysteresisSlots::set(std::uint16_t slot, Hysteresis h) {
  for (std::size_t i = 0; i < held_.size(); ++i) {
    if (held_[i].slot != slot) continue;
    busy_ -= held_[i].h.idle() ? 0 : 1;
    if (h.fresh()) {
      held_[i] = held_.back();
      held_.pop_back();
      if (held_.empty()) std::vector<Entry>().swap(held_);  // a healed module gives its memory back
    } else {
      held_[i].h = h;
      busy_ += h.idle() ? 0 : 1;
    }
    return;
  }
  if (h.fresh()) return;
  held_.push_back(Entry{slot, h});
  busy_ += h.idle() ? 0 : 1;
}

}  // namespace opticsd
