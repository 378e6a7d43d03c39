#include "daemon/store/history_decimator.hpp"

#include <algorithm>
#include <functional>

namespace opticsd {
namespace {

// FNV-1a over small values: order-sensitive and cheap; collisions only cost
// one decimated row, never a wrong value.
class Fnv {
 public:
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xFF;
      h_ *= 0x100000001B3ULL;
    }
  }
  void add(const std::optional<bool>& v) { add(v ? (*v ? 2u : 1u) : 0u); }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xCBF29CE484222325ULL;
};

}  // namespace

std::uint64_t stateSignature(const Sample& sample) {
  Fnv h;
  h.add(sample.module_present ? 1u : 0u);
  h.add(sample.link.up);
  h.add(sample.link.down_events_total.value_or(~0ULL));
  h.add(std::hash<std::string>{}(sample.identity().serial));
  h.add(sample.lanes.size());
  for (const Lane& lane : sample.lanes) {
    const LaneStatus& s = lane.status;
    for (const LaneFlagInfo& flag : kLaneFlagInfo) h.add(s.*flag.member);
    h.add(s.data_path_state ? *s.data_path_state + 1u : 0u);
  }
  return h.value();
}

bool HistoryDecimator::keep(const Sample& sample) {
  key_.assign(sample.target);
  key_.push_back('\0');
  key_.append(sample.port);
  const std::uint64_t state = stateSignature(sample);
  auto [it, inserted] = modules_.try_emplace(key_);
  Seen& seen = it->second;
  const bool changed = seen.state != state;
  seen.state = state;
  seen.seen_ms = sample.timestamp_ms;
  // A clock that steps back (NTP) restarts the interval instead of muting history.
  const bool due = sample.timestamp_ms - seen.kept_ms >= interval_ms_ || sample.timestamp_ms < seen.kept_ms;
  if (!inserted && !changed && !due) return false;
  seen.kept_ms = sample.timestamp_ms;
  return true;
}

std::size_t HistoryDecimator::thin(std::vector<Sample>& cycle) {
  if (interval_ms_ <= 0) return 0;
  const auto end = std::remove_if(cycle.begin(), cycle.end(), [this](const Sample& s) { return !keep(s); });
  const auto removed = static_cast<std::size_t>(cycle.end() - end);
  std::int64_t now_ms = 0;
  for (const Sample& s : cycle) now_ms = std::max(now_ms, s.timestamp_ms);
  cycle.erase(end, cycle.end());
  forgetIdle(now_ms);
  return removed;
}

std::size_t HistoryDecimator::select(const std::vector<Sample>& cycle, std::vector<std::size_t>& kept) {
  kept.clear();
  std::int64_t now_ms = 0;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (interval_ms_ <= 0 || keep(cycle[i])) kept.push_back(i);
    now_ms = std::max(now_ms, cycle[i].timestamp_ms);
  }
  if (interval_ms_ > 0) forgetIdle(now_ms);
  return cycle.size() - kept.size();
}

void HistoryDecimator::forgetIdle(std::int64_t now_ms) {
  constexpr std::int64_t kSweepEveryMs = 10 * 60'000;
  const std::int64_t forget_after_ms = std::max<std::int64_t>(60 * 60'000, 2 * interval_ms_);
  if (now_ms - last_sweep_ms_ < kSweepEveryMs) return;
  last_sweep_ms_ = now_ms;
  std::erase_if(modules_, [&](const auto& entry) { return entry.second.seen_ms < now_ms - forget_after_ms; });
}

}  // namespace opticsd
