#pragma once
// A decoded module as text, laid out like `ethtool -m`: what `opticsd decode`
// prints (its --json twin is sample_json.hpp). Identity, module values, each
// lane, thresholds, then every VDM observable the memory holds, including
// those the Sample does not carry, and what the dump parser noted.
// Pure functions; safe from any thread.

#include <cstdint>
#include <string>

#include "drivers/eeprom/dump_file.hpp"
#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

std::string sampleToText(const Sample& sample, const eeprom::ModuleMemory& memory, const eeprom::DumpParse& dump);

// SFF-8024 interface names of a CMIS Application ("400GAUI-4-S C2M"), or
// "host interface 0x4f" for a code the tables do not name.
std::string hostInterfaceName(std::uint8_t code);
std::string mediaInterfaceName(const ModuleIdentity& identity, std::uint8_t code);

}  // namespace opticsd
