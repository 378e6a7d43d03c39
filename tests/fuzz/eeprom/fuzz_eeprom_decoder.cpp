// Fuzzes one decoder family: the input is a stream of page records
// (i2c selector, bank, page, then up to 128 bytes), byte 0 of lower memory
// is forced to the family's identifier so the fuzzer explores that decoder.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "drivers/eeprom/decoder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opticsd::eeprom;
  ModuleMemory memory;
  std::size_t at = 0;
  bool first = true;
  while (at + 4 <= size) {
    const std::uint8_t i2c = (data[at] & 1) ? kI2cAddressA2 : kI2cAddressA0;
    const bool upper = (data[at] & 2) != 0;
    const std::uint8_t bank = data[at + 1] & 0x03;
    const std::uint8_t page = data[at + 2];
    const std::size_t length = std::min<std::size_t>(data[at + 3] % 129, size - at - 4);
    at += 4;
    if (first) {
      // Always give the decoder an identifier of its family.
      const std::uint8_t id = OPTICSD_FUZZ_IDENTIFIER;
      memory.write(kI2cAddressA0, 0, 0, 0, std::span<const std::uint8_t>(&id, 1));
      first = false;
    }
    memory.write(i2c, bank, page, upper ? 128 : 0, std::span<const std::uint8_t>(data + at, length));
    if (!upper && i2c == kI2cAddressA0 && length > 0) {
      const std::uint8_t id = OPTICSD_FUZZ_IDENTIFIER;  // keep the family after an overwrite
      memory.write(kI2cAddressA0, 0, 0, 0, std::span<const std::uint8_t>(&id, 1));
    }
    at += length;
  }
  opticsd::Sample sample;
  decodeModule(memory, sample);
  (void)advertisedPages(memory);
  // Invariants: nothing NaN or infinite ever leaves the decoder.
  for (std::size_t i = 0; i < opticsd::kModuleMetricCount; ++i) {
    if (auto v = sample.module[static_cast<opticsd::ModuleMetric>(i)]; v && !std::isfinite(*v)) std::abort();
  }
  for (const auto& lane : sample.lanes) {
    for (std::size_t i = 0; i < opticsd::kLaneMetricCount; ++i) {
      if (auto v = lane.values[static_cast<opticsd::LaneMetric>(i)]; v && !std::isfinite(*v)) std::abort();
    }
  }
  return 0;
}
