#pragma once
// The entry points every raw-page path (ethtool, replay, capture, `opticsd
// decode`) uses. Pure functions: no I/O, no clock, no globals.

#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd::eeprom {

// The reads a transport should make first: enough to identify the module
// (lower memory and upper page 00h at A0h).
std::vector<PageRequest> initialPages();

// Given what has been read so far (at least initialPages()), the further
// pages the module advertises and the decoder needs (SFF-8472 A2h when DDM is
// implemented, SFF-8636 page 03h unless flat memory, CMIS pages 01h/02h/11h
// per bank and VDM pages as page 01h advertises them). Pages already present
// are not requested again.
std::vector<PageRequest> advertisedPages(const ModuleMemory& memory);

// Decodes identity, monitors, thresholds, flags and lanes into `sample`
// (target, port and timestamp are left to the caller). Never throws: a module
// that is unsupported or malformed yields sample.issues and whatever fields
// could be decoded.
void decodeModule(const ModuleMemory& memory, Sample& sample);

}  // namespace opticsd::eeprom
