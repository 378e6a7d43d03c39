#pragma once
// A replay directory: what `opticsd capture` writes and the replay driver
// reads (drivers/replay/README.md):
//
//   DIR/capture.txt              optional notes (host, kernel, when, how)
//   DIR/<port>/module.dump       page dump (schemas/module-dump.md), every step
//   DIR/<port>/module@N.dump     the module from poll step N on (a swap)
//   DIR/<port>/module@N.absent   no module from step N on (an emptied cage)
//   DIR/<port>/fec.seq           optional FEC counter/link sequence, a line a step
//
// Loading reads and parses everything once; stepping is pure.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/module/port_reading.hpp"
#include "drivers/replay/fec_sequence.hpp"
#include "drivers/result.hpp"

namespace opticsd::replay {

struct ReplayPort {
  std::string name;
  struct ModuleFrom {
    std::size_t step = 0;
    std::optional<eeprom::ModuleMemory> memory;  // nullopt: no module from this step
    std::vector<std::string> notes;              // what the dump parser found odd
  };
  std::vector<ModuleFrom> modules;  // sorted by step
  std::vector<FecStep> fec;         // empty: no counters
};

struct ReplayDirectory {
  std::vector<ReplayPort> ports;  // sorted by name
};

// Errors name the file (and line) at fault.
Result<ReplayDirectory> loadReplayDirectory(const std::filesystem::path& directory);

// What a live read of `port` would have returned at poll step `step`: the
// module's pages read through the same ModuleReadSession as the ethtool
// driver (so a page missing from the dump fails like a refused read, and a
// truncated one is a short read), and the step's counters (the last line
// repeats once the sequence ends).
module::PortReading readingAt(const ReplayPort& port, std::size_t step);

// The capture's time of `step` (fec.seq `time_ms=`, from the first port
// that has one): past the end of the sequence it advances by the sequence's
// last interval. None when no sequence carries times.
std::optional<std::int64_t> captureTimeMs(const ReplayDirectory& directory, std::size_t step);

// Writes one port's capture: module.dump (when a module is present) and,
// when any step has counters, fec.seq with one line per step.
Result<void> writeCapturePort(const std::filesystem::path& directory, const module::PortReading& first,
                              const std::vector<FecStep>& steps);

}  // namespace opticsd::replay
