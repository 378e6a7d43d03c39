#pragma once
// The pre-netlink way to read a module: SIOCETHTOOL with ETHTOOL_GMODULEINFO
// (which standard, how many bytes) and ETHTOOL_GMODULEEEPROM (the bytes as one
// flat dump). Used where the kernel lacks ETHTOOL_MSG_MODULE_EEPROM_GET
// (before Linux 5.13) or answers EOPNOTSUPP for it.
//
// readLegacyModule() blocks on the NIC's I2C access: call it off the event
// loop. memoryFromLegacyDump() is pure.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/result.hpp"

namespace opticsd::ethtool {

// Maps a flat dump onto pages, by the layout the kernel documents for each
// type (linux/ethtool.h ETH_MODULE_SFF_*): 8079 = A0h 0-255; 8472 = A0h 0-255
// then A2h 0-255; 8636/8436 = lower memory and page 00h, then pages 01h-03h
// in 128-byte steps when the dump is 640 bytes long.
Result<eeprom::ModuleMemory> memoryFromLegacyDump(std::uint32_t type, std::span<const std::uint8_t> dump);

// nullopt when the interface has no module (EOPNOTSUPP, ENODEV, EINVAL).
Result<std::optional<eeprom::ModuleMemory>> readLegacyModule(const std::string& ifname);

}  // namespace opticsd::ethtool
