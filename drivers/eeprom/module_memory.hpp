#pragma once
// The bytes of one module's memory map as a transport read them, kept apart
// from decoding (in the manner of FBOSS's TransceiverImpl): the ethtool,
// replay and capture paths fill a ModuleMemory, the decoders read it.
//
// Addressing follows the kernel's ETHTOOL_MSG_MODULE_EEPROM_GET: an I2C
// address (0x50 = A0h, 0x51 = A2h), a bank, a page and an offset in the
// 256-byte window (0-127 lower memory, 128-255 the selected upper page).
// A span that was never read is absent, not zero: decoders report it missing.
//
// Value type; not thread-safe.

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace opticsd::eeprom {

inline constexpr std::uint8_t kI2cAddressA0 = 0x50;
inline constexpr std::uint8_t kI2cAddressA2 = 0x51;
inline constexpr std::size_t kPageSize = 128;

// One 128-byte half-window: the lower memory (upper == false) or an upper
// page (upper == true, selected by bank and page).
struct PageKey {
  std::uint8_t i2c_address = kI2cAddressA0;
  std::uint8_t bank = 0;
  std::uint8_t page = 0;
  bool upper = false;
  friend bool operator==(const PageKey&, const PageKey&) = default;
};

class ModuleMemory {
 public:
  // Stores `bytes` at window offset `offset` (0-255) of (i2c, bank, page).
  // Bytes below 128 go to the lower memory, from 128 to the upper page.
  void write(std::uint8_t i2c_address, std::uint8_t bank, std::uint8_t page, std::size_t offset,
             std::span<const std::uint8_t> bytes);

  // The 128 bytes of one half-window, or nullptr when none of it was read.
  // `valid` (when given) says which of the 128 bytes were read.
  // Inline: a decode looks pages up dozens of times.
  const std::array<std::uint8_t, kPageSize>* find(const PageKey& key,
                                                  const std::bitset<kPageSize>** valid = nullptr) const {
    const std::size_t i = indexOf(key);
    if (i == kAbsent) return nullptr;
    if (valid != nullptr) *valid = &pages_[i].valid;
    return &pages_[i].bytes;
  }

  // One byte, or nullopt when it was not read.
  std::optional<std::uint8_t> byte(const PageKey& key, std::size_t offset_in_half) const;

  bool empty() const { return pages_.empty(); }
  void clear() {
    pages_.clear();
    bank0_.fill(0);
  }

  struct Page {
    PageKey key;
    std::array<std::uint8_t, kPageSize> bytes{};
    std::bitset<kPageSize> valid;
  };
  const std::vector<Page>& pages() const { return pages_; }

 private:
  Page& pageFor(const PageKey& key);
  static constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
  // The bank0_ entry of a key: bank 0 of A0h/A2h, upper page N at N, lower memory at 256; else kAbsent.
  static std::size_t slot(const PageKey& key) {
    if (key.bank != 0 || (key.i2c_address != kI2cAddressA0 && key.i2c_address != kI2cAddressA2)) return kAbsent;
    if (!key.upper && key.page != 0) return kAbsent;
    return (key.i2c_address == kI2cAddressA2 ? 257u : 0u) + (key.upper ? key.page : 256u);
  }
  // Position in pages_, or kAbsent: the bank0_ index, else a scan.
  std::size_t indexOf(const PageKey& key) const {
    if (const std::size_t at = slot(key); at != kAbsent) return bank0_[at] == 0 ? kAbsent : bank0_[at] - 1;
    return scan(key);
  }
  std::size_t scan(const PageKey& key) const;

  std::vector<Page> pages_;  // few pages per module: a vector beats a map here
  // Position + 1 in pages_ (0: absent) of the pages a decode looks up most,
  // found without a scan (see slot()).
  std::array<std::uint32_t, 2 * 257> bank0_{};
};

// A read the decoder asks a transport to make: `length` bytes at window
// `offset` (0-255) of (i2c address, bank, page).
struct PageRequest {
  std::uint8_t i2c_address = kI2cAddressA0;
  std::uint8_t bank = 0;
  std::uint8_t page = 0;
  std::uint8_t offset = 0;
  std::uint8_t length = 128;
  friend bool operator==(const PageRequest&, const PageRequest&) = default;
};

}  // namespace opticsd::eeprom
