#pragma once
// The order of page reads for one module in one cycle, independent of how
// the bytes are fetched: initialPages() first, then what advertisedPages()
// asks for given what was read, each page at most once. The ethtool driver
// drives it with netlink replies, the replay driver with a dump's bytes.
//
// Value type; not thread-safe.

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/result.hpp"

namespace opticsd::module {

class ModuleReadSession {
 public:
  // The first round of reads.
  std::vector<eeprom::PageRequest> start();

  // Records the outcome of one read: its bytes (possibly fewer than asked,
  // which becomes an issue) or the reason it failed.
  void deliver(const eeprom::PageRequest& request, const Result<std::vector<std::uint8_t>>& bytes);

  // The next round: pages the module advertises that were not requested
  // yet. Empty when the module is fully read.
  std::vector<eeprom::PageRequest> nextRound();

  eeprom::ModuleMemory& memory() { return memory_; }
  std::vector<std::string>& issues() { return issues_; }

 private:
  eeprom::ModuleMemory memory_;
  std::vector<std::string> issues_;
  std::vector<eeprom::PageRequest> requested_;
  int rounds_ = 0;
};

std::string describe(const eeprom::PageRequest& request);

// Runs a whole session against a synchronous page source.
using PageSource = std::function<Result<std::vector<std::uint8_t>>(const eeprom::PageRequest&)>;
void readModule(ModuleReadSession& session, const PageSource& source);

}  // namespace opticsd::module
