#pragma once
// CMIS Applications and data paths (CMIS 4.0 / 5.x): the advertised
// Application Descriptors, and which of them each host lane runs according to
// the Active Control Set (page 11h DPConfigLane, one per host lane of a bank).
// The media lanes a data path drives follow from its descriptor's media lane
// count and the page 01h media lane assignment. Pure functions of the bytes.

#include <array>
#include <cstdint>
#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/eeprom/page_window.hpp"
#include "drivers/sample.hpp"

namespace opticsd::eeprom {

inline constexpr int kLanesPerBank = 8;

// Reads Application Descriptors 1-8 (lower page) and 9-15 (page 01h) into
// `out`, up to the first unused one (host ID 0xFF or an all-zero descriptor).
void readApplications(const PageWindow& lower, const PageWindow& page01, std::vector<ModuleApplication>& out);

// Which media lanes of each bank are in a data path: bit n of entry b is lane 8b + n + 1.
using BankLaneMasks = std::array<std::uint8_t, 4>;

struct ActiveLanes {
  BankLaneMasks media{};
  // For each media lane (index 8b + n), the host lanes (bit n of the bank) whose Tx
  // input and data path state it reports: the one matching host lane, or all host
  // lanes of its data path when host and media lane counts differ.
  std::array<std::uint8_t, 32> host_of_media{};
  std::array<std::uint8_t, 32> first_host_of_media{};  // 0-7 within the bank
};

// Fills id.data_paths from the Active Control Set of each bank (page 11h bytes
// 206-213) or, when no host lane has a non-zero AppSel (or the set was not
// read), from Application 1, the default; sets id.default_application.
// `one_to_one` treats media lanes as host lanes (passive copper, BASE-T, no
// applications at all). Appends an issue for an AppSel naming no descriptor.
ActiveLanes resolveDataPaths(const ModuleMemory& memory, int banks, bool one_to_one, Sample& sample);

}  // namespace opticsd::eeprom
