#pragma once
// A read-only view of one 256-byte window (lower memory + one upper page) of
// a ModuleMemory, addressed by the byte numbers the specs use (0-255), so a
// decoder line reads like its spec table row. Every accessor checks that the
// bytes were actually read: a missing byte is std::nullopt, never 0.
//
// Holds pointers into a ModuleMemory; valid only while that memory lives and
// is not written. Not thread-safe (neither is ModuleMemory).

#include <array>
#include <bit>
#include <bitset>
#include <cstdint>
#include <cstring>
#include <optional>

#include "drivers/eeprom/module_memory.hpp"

namespace opticsd::eeprom {

class PageWindow {
 public:
  PageWindow() = default;
  // Lower memory of `i2c_address` plus upper page (bank, page) of the same address.
  PageWindow(const ModuleMemory& memory, std::uint8_t i2c_address, std::uint8_t bank, std::uint8_t page) {
    lower_ = memory.find(PageKey{i2c_address, 0, 0, false}, &lower_valid_);
    upper_ = memory.find(PageKey{i2c_address, bank, page, true}, &upper_valid_);
    lower_full_ = lower_ != nullptr && lower_valid_->all();
    upper_full_ = upper_ != nullptr && upper_valid_->all();
  }

  bool hasLower() const { return lower_ != nullptr; }
  bool hasUpper() const { return upper_ != nullptr; }
  bool upperComplete() const { return upper_full_; }

  // True when bytes [offset, offset + length) were all read.
  bool has(std::size_t offset, std::size_t length = 1) const {
    const std::size_t end = offset + length;
    if (end > 2 * kPageSize) return false;
    // Fast path: every touched half was read in full (the usual case).
    if ((offset >= kPageSize || lower_full_) && (end <= kPageSize || upper_full_)) return true;
    for (std::size_t at = offset; at < end; ++at) {
      if (!hasByte(at)) return false;
    }
    return true;
  }

  // Unchecked reads: call has() first.
  std::uint8_t raw(std::size_t offset) const {
    return offset < kPageSize ? (*lower_)[offset] : (*upper_)[offset - kPageSize];
  }
  std::uint16_t rawU16(std::size_t offset) const {
    return static_cast<std::uint16_t>((raw(offset) << 8) | raw(offset + 1));
  }
  std::int16_t rawS16(std::size_t offset) const { return static_cast<std::int16_t>(rawU16(offset)); }

  std::optional<std::uint8_t> u8(std::size_t offset) const {
    if (!has(offset)) return std::nullopt;
    return raw(offset);
  }
  std::optional<std::uint16_t> u16(std::size_t offset) const {
    if (!has(offset, 2)) return std::nullopt;
    return rawU16(offset);
  }
  std::optional<std::int16_t> s16(std::size_t offset) const {
    if (!has(offset, 2)) return std::nullopt;
    return rawS16(offset);
  }
  // IEEE-754 single precision, big-endian (SFF-8472 calibration constants).
  std::optional<float> f32(std::size_t offset) const {
    if (!has(offset, 4)) return std::nullopt;
    const std::uint32_t bits = (std::uint32_t{raw(offset)} << 24) | (std::uint32_t{raw(offset + 1)} << 16) |
                               (std::uint32_t{raw(offset + 2)} << 8) | std::uint32_t{raw(offset + 3)};
    return std::bit_cast<float>(bits);
  }
  // Pointer to `length` contiguous bytes, or nullptr when any is missing.
  const std::uint8_t* span(std::size_t offset, std::size_t length) const {
    if (length == 0 || !has(offset, length)) return nullptr;
    if (offset < kPageSize && offset + length > kPageSize) return nullptr;  // straddles lower/upper
    return offset < kPageSize ? lower_->data() + offset : upper_->data() + (offset - kPageSize);
  }

 private:
  bool hasByte(std::size_t at) const {
    if (at < kPageSize) return lower_ != nullptr && (lower_full_ || lower_valid_->test(at));
    return upper_ != nullptr && (upper_full_ || upper_valid_->test(at - kPageSize));
  }

  const std::array<std::uint8_t, kPageSize>* lower_ = nullptr;
  const std::array<std::uint8_t, kPageSize>* upper_ = nullptr;
  const std::bitset<kPageSize>* lower_valid_ = nullptr;
  const std::bitset<kPageSize>* upper_valid_ = nullptr;
  bool lower_full_ = false;
  bool upper_full_ = false;
};

}  // namespace opticsd::eeprom
