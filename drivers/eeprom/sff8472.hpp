#pragma once
// SFF-8472 (SFP/SFP+/SFP28): A0h identity, A2h diagnostics with internal or
// external calibration. Pure functions of the bytes; no I/O.

#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd::eeprom {

// Decodes an SFF-8472 module into `sample` (already reset by decodeModule).
void decodeSff8472(const ModuleMemory& memory, Sample& sample);

// A2h (both halves) when A0h byte 92 says DDM is implemented and it is not read yet.
void appendSff8472Pages(const ModuleMemory& memory, std::vector<PageRequest>& out);

}  // namespace opticsd::eeprom
