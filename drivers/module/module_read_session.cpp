#include "drivers/module/module_read_session.hpp"

#include <algorithm>
#include <cstdio>

#include "drivers/eeprom/decoder.hpp"

namespace opticsd::module {
namespace {
// initialPages, advertisedPages and one round of VDM pages the advertising
// pages reveal; more rounds than this means the plan is not converging.
constexpr int kMaxRounds = 4;
}  // namespace

std::string describe(const eeprom::PageRequest& request) {
  char text[96];
  std::snprintf(text, sizeof(text), "i2c 0x%02x bank %u page 0x%02x offset %u length %u", request.i2c_address,
                request.bank, request.page, request.offset, request.length);
  return text;
}

std::vector<eeprom::PageRequest> ModuleReadSession::start() {
  memory_.clear();
  issues_.clear();
  requested_ = eeprom::initialPages();
  rounds_ = 1;
  return requested_;
}

void ModuleReadSession::deliver(const eeprom::PageRequest& request, const Result<std::vector<std::uint8_t>>& bytes) {
  if (!bytes) {
    issues_.push_back("read " + describe(request) + ": " + bytes.error().message);
    return;
  }
  const auto size = std::min<std::size_t>(bytes->size(), request.length);
  if (size > 0) memory_.write(request.i2c_address, request.bank, request.page, request.offset, {bytes->data(), size});
  if (size < request.length) {
    issues_.push_back("short read " + describe(request) + ": got " + std::to_string(bytes->size()) + " bytes");
  }
}

std::vector<eeprom::PageRequest> ModuleReadSession::nextRound() {
  if (rounds_ >= kMaxRounds || memory_.empty()) return {};
  ++rounds_;
  std::vector<eeprom::PageRequest> next;
  for (const auto& request : eeprom::advertisedPages(memory_)) {
    if (std::find(requested_.begin(), requested_.end(), request) != requested_.end()) continue;
    requested_.push_back(request);
    next.push_back(request);
  }
  return next;
}

void readModule(ModuleReadSession& session, const PageSource& source) {
  for (auto round = session.start(); !round.empty(); round = session.nextRound()) {
    for (const auto& request : round) session.deliver(request, source(request));
  }
}

}  // namespace opticsd::module
