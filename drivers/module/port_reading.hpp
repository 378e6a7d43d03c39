#pragma once
// What one read of one port produced, before decoding: the module's page
// bytes, FEC counters and link state. The live ethtool path, the replay
// driver and `opticsd capture` all meet here, so a replayed capture goes
// through exactly the decode a live read does.
//
// Value type; not thread-safe.

#include <cstdint>
#include <string>
#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd::module {

struct PortReading {
  std::string port;
  bool module_present = false;
  eeprom::ModuleMemory memory;
  std::vector<std::string> issues;  // pages that could not be read, and why
  FecCounters fec;
  LinkState link;
  std::optional<Maintenance> maintenance;  // the module is busy (firmware flashing): no pages read
};

// Decodes the module (when present) and attaches counters and link state.
Sample sampleFromReading(const std::string& target, std::int64_t timestamp_ms, const PortReading& reading);

// Estimated corrected bits per corrected codeword where a NIC counts blocks
// only: the symbols an RS code corrects at most, 5 bits each (FBOSS
// PhyUtils): RS(528,514) 7 symbols = 35 bits on NRZ lanes, RS(544,514) 15
// symbols = 75 bits on PAM4 lanes (50G and faster per lane). Nothing for
// other FEC modes.
std::optional<std::uint64_t> bitsPerCorrectedBlock(std::optional<std::uint32_t> active_fec_bit, const LinkState& link);

// The symbols per codeword the active RS code corrects (t): 15 for
// RS(544,514) on 50G-and-faster PAM4 lanes, 7 for RS(528,514) (IEEE 802.3
// clauses 91 and 119); nothing for other modes or an unknown lane rate.
std::optional<std::uint16_t> correctableSymbols(std::optional<std::uint32_t> active_fec_bit, const LinkState& link);

}  // namespace opticsd::module
