// Fuzzes the dump-file parser (every format) and decodes whatever it yields;
// a page dump that parses must also survive writePageDump -> parse.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "drivers/eeprom/decoder.hpp"
#include "drivers/eeprom/dump_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opticsd::eeprom;
  auto parsed = parseDumpFile(std::span<const std::uint8_t>(data, size));
  if (!parsed) return 0;
  opticsd::Sample sample;
  decodeModule(*parsed, sample);
  const std::string text = writePageDump(*parsed);
  auto again =
      parseDumpFile(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  if (!again || again->pages().size() != parsed->pages().size()) std::abort();
  return 0;
}
