#pragma once
// SFF-8636 (QSFP+/QSFP28): lower page monitors and latched flags, page 00h
// identity, page 03h thresholds. Pure functions of the bytes; no I/O.

#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd::eeprom {

void decodeSff8636(const ModuleMemory& memory, Sample& sample);

// Page 03h unless the module has flat memory (lower page byte 2 bit 2).
void appendSff8636Pages(const ModuleMemory& memory, std::vector<PageRequest>& out);

}  // namespace opticsd::eeprom
