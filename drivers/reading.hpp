#pragma once
// An optional double in 8 bytes: the Sample holds a few hundred of them per
// module (every lane metric, every threshold), and std::optional<double>
// spends 16 bytes on each, half the fleet's memory at 64,000 modules.
//
// "Not reported" is one signalling-NaN bit pattern that no value can take: a
// NaN given as a value is stored as the quiet NaN, and arithmetic on any NaN
// yields a quiet one, so absence never turns into a number or a NaN and a
// NaN never turns into absence. The interface is std::optional's (has_value,
// operator bool, operator*, value, value_or, reset, emplace, comparisons with
// nullopt, a double or another optional), and it converts to and from
// std::optional<double>, so code written for the optional reads the same.
//
// A plain value type.

#include <bit>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>

namespace opticsd {

class Reading {
 public:
  constexpr Reading() noexcept = default;
  constexpr Reading(std::nullopt_t) noexcept {}
  constexpr Reading(double v) noexcept : bits_(encode(v)) {}
  constexpr Reading(const std::optional<double>& v) noexcept : bits_(v ? encode(*v) : kAbsent) {}

  constexpr Reading& operator=(std::nullopt_t) noexcept {
    bits_ = kAbsent;
    return *this;
  }
  constexpr Reading& operator=(double v) noexcept {
    bits_ = encode(v);
    return *this;
  }
  constexpr Reading& operator=(const std::optional<double>& v) noexcept {
    bits_ = v ? encode(*v) : kAbsent;
    return *this;
  }

  constexpr bool has_value() const noexcept { return bits_ != kAbsent; }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  // As std::optional: only meaningful when has_value().
  constexpr double operator*() const noexcept { return std::bit_cast<double>(bits_); }
  constexpr double value() const {
    if (!has_value()) throw std::bad_optional_access();
    return std::bit_cast<double>(bits_);
  }
  constexpr double value_or(double fallback) const noexcept {
    return has_value() ? std::bit_cast<double>(bits_) : fallback;
  }
  constexpr void reset() noexcept { bits_ = kAbsent; }
  constexpr double emplace(double v) noexcept {
    bits_ = encode(v);
    return **this;
  }

  constexpr operator std::optional<double>() const noexcept {
    return has_value() ? std::optional<double>(**this) : std::nullopt;
  }

  // std::optional's comparisons: absent equals absent and sorts first; values
  // compare as doubles (a NaN equals nothing).
  friend constexpr bool operator==(const Reading& a, const Reading& b) noexcept {
    if (!a.has_value() || !b.has_value()) return a.has_value() == b.has_value();
    return *a == *b;
  }
  friend constexpr bool operator==(const Reading& a, std::nullopt_t) noexcept { return !a.has_value(); }
  friend constexpr bool operator==(const Reading& a, double b) noexcept { return a.has_value() && *a == b; }
  friend constexpr bool operator==(const Reading& a, const std::optional<double>& b) noexcept {
    return a == Reading(b);
  }
  friend constexpr std::partial_ordering operator<=>(const Reading& a, const Reading& b) noexcept {
    if (!a.has_value() || !b.has_value()) return a.has_value() <=> b.has_value();
    return *a <=> *b;
  }
  friend constexpr std::partial_ordering operator<=>(const Reading& a, double b) noexcept {
    if (!a.has_value()) return std::partial_ordering::less;
    return *a <=> b;
  }

 private:
  // A signalling NaN with a payload: no arithmetic result, and no value
  // stored through encode(), has this pattern.
  static constexpr std::uint64_t kAbsent = 0x7ff4'0000'0000'a65dULL;

  static constexpr std::uint64_t kExponent = 0x7ff0'0000'0000'0000ULL;
  static constexpr std::uint64_t kSign = 0x8000'0000'0000'0000ULL;

  static constexpr std::uint64_t encode(double v) noexcept {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    const bool nan = (bits & kExponent) == kExponent && (bits & ~kExponent & ~kSign) != 0;
    return nan ? std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN()) : bits;
  }

  std::uint64_t bits_ = kAbsent;
};

static_assert(sizeof(Reading) == sizeof(double));

}  // namespace opticsd
