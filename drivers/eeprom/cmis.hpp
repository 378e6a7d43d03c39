#pragma once
// CMIS 4.0 / 5.x (QSFP-DD, OSFP, QSFP112 ...): lower memory monitors and
// flags, page 00h identity, 01h advertising, 02h thresholds, 11h lane
// monitors/flags per bank, and VDM (cmis_vdm.hpp). Pure functions; no I/O.

#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd::eeprom {

void decodeCmis(const ModuleMemory& memory, Sample& sample);

// Pages 01h, 02h, 11h for every advertised bank, and VDM pages, unless flat memory.
void appendCmisPages(const ModuleMemory& memory, std::vector<PageRequest>& out);

// Banks the module advertises (page 01h byte 142 bits 1-0): 1, 2 or 4.
int cmisBankCount(const ModuleMemory& memory);

}  // namespace opticsd::eeprom
