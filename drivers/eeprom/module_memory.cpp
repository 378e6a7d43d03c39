#include "drivers/eeprom/module_memory.hpp"

#include <algorithm>

namespace opticsd::eeprom {

std::size_t ModuleMemory::scan(const PageKey& key) const {
  for (std::size_t i = 0; i < pages_.size(); ++i) {
    if (pages_[i].key == key) return i;
  }
  return kAbsent;
}

ModuleMemory::Page& ModuleMemory::pageFor(const PageKey& key) {
  if (const std::size_t i = indexOf(key); i != kAbsent) return pages_[i];
  pages_.push_back(Page{key, {}, {}});
  if (const std::size_t at = slot(key); at != kAbsent) bank0_[at] = static_cast<std::uint32_t>(pages_.size());
  return pages_.back();
}

void ModuleMemory::write(std::uint8_t i2c_address, std::uint8_t bank, std::uint8_t page, std::size_t offset,
                         std::span<const std::uint8_t> bytes) {
  // Past the 256-byte window is not addressable: dropped.
  const std::size_t end = std::min(offset + bytes.size(), 2 * kPageSize);
  std::size_t at = offset;
  while (at < end) {
    const bool upper = at >= kPageSize;
    const std::size_t half_end = upper ? end : std::min(end, kPageSize);
    // The lower memory does not depend on the selected bank or page.
    Page& target = pageFor(PageKey{i2c_address, upper ? bank : std::uint8_t{0}, upper ? page : std::uint8_t{0}, upper});
    for (; at < half_end; ++at) {
      target.bytes[at % kPageSize] = bytes[at - offset];
      target.valid.set(at % kPageSize);
    }
  }
}

std::optional<std::uint8_t> ModuleMemory::byte(const PageKey& key, std::size_t offset_in_half) const {
  const std::bitset<kPageSize>* valid = nullptr;
  const auto* bytes = find(key, &valid);
  if (bytes == nullptr || offset_in_half >= kPageSize || !valid->test(offset_in_half)) return std::nullopt;
  return (*bytes)[offset_in_half];
}

}  // namespace opticsd::eeprom
