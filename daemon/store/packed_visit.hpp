#pragma once
// Reads a packed history blob (packed_sample.hpp says the layout) value by
// value and hands each to a visitor. unpackInto() collects them into a list;
// a reader that turns them straight into something else (the backtest's
// Sample, millions of rows) skips the list.

#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "drivers/lane_limit.hpp"
#include "drivers/result.hpp"

namespace opticsd {

inline constexpr std::uint8_t kPackedBlobVersion = 1;

struct PackedValue {
  std::uint32_t code = 0;
  std::uint8_t lane = 0;  // 0: module level
  bool flag = false;
  std::int64_t stored = 0;
  bool operator==(const PackedValue&) const = default;
};

namespace packed_detail {

inline std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// Reads the varints of one blob. A read that fails leaves `error()` saying
// why and every later read failing too, so a decoder checks once per value
// and builds the message only for a bad blob (a history walk reads millions).
class Reader {
 public:
  explicit Reader(std::string_view in) : pos_(in.data()), end_(in.data() + in.size()) {}
  bool done() const { return pos_ >= end_; }
  const char* error() const { return error_; }
  [[gnu::always_inline]] bool varint(std::uint64_t& v) {
    // Most values fit one byte, key tags and lane masks two.
    if (end_ - pos_ >= 2) {
      const auto b0 = static_cast<std::uint8_t>(pos_[0]);
      if ((b0 & 0x80) == 0) {
        v = b0;
        pos_ += 1;
        return true;
      }
      const auto b1 = static_cast<std::uint8_t>(pos_[1]);
      if ((b1 & 0x80) == 0) {
        v = (b0 & 0x7fU) | static_cast<std::uint64_t>(b1) << 7;
        pos_ += 2;
        return true;
      }
    }
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= end_) return failed("history blob truncated");
      const auto byte = static_cast<std::uint8_t>(*pos_++);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return failed("history blob has an overlong varint");
  }

 private:
  bool failed(const char* why) {
    error_ = why;
    pos_ = end_;
    return false;
  }
  const char* pos_;
  const char* end_;
  const char* error_ = nullptr;
};

}  // namespace packed_detail

// Calls visit(const PackedValue&) for each value of `blob` in the order
// pack() wrote them: by code, module value before lane values, lanes lowest
// first. A bad blob stops the walk with an error (values visited before it
// have been visited).
// `visit` is inlined where the compiler chooses to (a lambda declared
// `__attribute__((always_inline))` always is): a call per value is much of a
// walk's time.
template <typename Visit>
Result<void> visitPacked(std::string_view blob, Visit&& visit) {
  using packed_detail::unzigzag;
  if (blob.empty() || static_cast<std::uint8_t>(blob[0]) != kPackedBlobVersion) {
    return fail("history blob of an unknown format (version " +
                (blob.empty() ? std::string("none") : std::to_string(static_cast<std::uint8_t>(blob[0]))) + ")");
  }
  packed_detail::Reader in(blob.substr(1));
  while (!in.done()) {
    std::uint64_t tag = 0;
    if (!in.varint(tag)) return fail(in.error());
    if (tag >> 2 > std::numeric_limits<std::uint32_t>::max()) return fail("history blob has a bad key code");
    const auto code = static_cast<std::uint32_t>(tag >> 2);
    const bool flag = (tag & 1) != 0;
    if ((tag & 2) == 0) {
      std::uint64_t v = 0;
      if (!in.varint(v)) return fail(in.error());
      visit(PackedValue{code, 0, flag, unzigzag(v)});
      continue;
    }
    std::uint64_t mask = 0;
    if (!in.varint(mask)) return fail(in.error());
    std::uint64_t set = 0;
    if (flag && !in.varint(set)) return fail(in.error());
    std::int64_t previous = 0;
    // The lanes present, lowest first (bit n-1 = lane n), without walking the absent ones.
    for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest) + 1;
      if (lane > kMaxSampleLanes) break;
      const std::uint64_t bit = std::uint64_t{1} << (lane - 1);
      std::int64_t stored = (set & bit) != 0 ? 1 : 0;
      if (!flag) {
        std::uint64_t v = 0;
        if (!in.varint(v)) return fail(in.error());
        stored =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(previous) + static_cast<std::uint64_t>(unzigzag(v)));
        previous = stored;
      }
      visit(PackedValue{code, static_cast<std::uint8_t>(lane), flag, stored});
    }
  }
  return {};
}

}  // namespace opticsd
