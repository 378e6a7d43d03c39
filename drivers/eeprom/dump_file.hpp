#pragma once
// Module memory dump files: what `opticsd decode`, the capture command and
// the replay driver read and write. Format auto-detected:
//   - the page-addressed text format (schemas/module-dump.md): `[i2c=.. bank=.. page=..]`
//     headers, an offset column and 16 bytes a line, `#` comments; carries CMIS
//     upper pages and banks;
//   - ethtool `-m ... hex on` text output (offset column, linear layout);
//   - ethtool `-m ... raw on` binary output (linear layout);
//   - a bare hex string (`#` comments allowed), read as the linear layout.
// Linear layout (ethtool's legacy layout): SFF-8472 A0h bytes 0-255 then A2h;
// SFF-8636 and CMIS lower memory 0-127, then upper page N at 128 x (N + 1).
// Pure functions: no I/O.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/result.hpp"

namespace opticsd::eeprom {

struct DumpParse {
  ModuleMemory memory;
  std::string format;              // "page-dump", "ethtool-hex", "hex", "raw"
  std::vector<std::string> notes;  // what was odd or missing; the memory still holds what was there
};

// Errors: empty input, no bytes found, a malformed page header or data line (with its line number).
Result<DumpParse> parseDumpFileDetailed(std::span<const std::uint8_t> bytes);

// The same, memory only.
Result<ModuleMemory> parseDumpFile(std::span<const std::uint8_t> bytes);

// Writes `memory` in the page-addressed text format; bytes never read are written as `--`.
std::string writePageDump(const ModuleMemory& memory);

}  // namespace opticsd::eeprom
