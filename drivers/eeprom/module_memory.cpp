#include "drivers/eeprom/module_memory.hpp"

namespace opticsd::eeprom {

ModuleMemory::Page& ModuleMemory::pageFor(const PageKey& key) {
  for (auto& page : pages_) {
    if (page.key == key) return page;
  }
  pages_.push_back(Page{key, {}, {}});
  return pages_.back();
}

void ModuleMemory::write(std::uint8_t i2c_address, std::uint8_t bank, std::uint8_t page, std::size_t offset,
                         std::span<const std::uint8_t> bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::size_t at = offset + i;
    if (at >= 2 * kPageSize) break;  // past the 256-byte window: not addressable
    const bool upper = at >= kPageSize;
    // The lower memory does not depend on the selected bank or page.
    PageKey key{i2c_address, upper ? bank : std::uint8_t{0}, upper ? page : std::uint8_t{0}, upper};
    Page& target = pageFor(key);
    target.bytes[at % kPageSize] = bytes[i];
    target.valid.set(at % kPageSize);
  }
}

const std::array<std::uint8_t, kPageSize>* ModuleMemory::find(const PageKey& key,
                                                              const std::bitset<kPageSize>** valid) const {
  for (const auto& page : pages_) {
    if (page.key == key) {
      if (valid != nullptr) *valid = &page.valid;
      return &page.bytes;
    }
  }
  return nullptr;
}

std::optional<std::uint8_t> ModuleMemory::byte(const PageKey& key, std::size_t offset_in_half) const {
  const std::bitset<kPageSize>* valid = nullptr;
  const auto* bytes = find(key, &valid);
  if (bytes == nullptr || offset_in_half >= kPageSize || !valid->test(offset_in_half)) return std::nullopt;
  return (*bytes)[offset_in_half];
}

}  // namespace opticsd::eeprom
