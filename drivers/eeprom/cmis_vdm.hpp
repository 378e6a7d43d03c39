#pragma once
// CMIS Versatile Diagnostics Monitoring (CMIS 5.2 section 8.20, pages
// 20h-2Fh): descriptors say which observable sits in which slot; values,
// thresholds and flags follow in their own pages. Pure functions of the
// bytes; no I/O, no heap.

#include <cstdint>
#include <optional>
#include <string_view>

#include "drivers/eeprom/module_memory.hpp"
#include "drivers/sample.hpp"

namespace opticsd::eeprom {

// VDM page layout, CMIS 5.2 VDM pages 20h-2Fh (cited by page and byte; table numbers not checked).
inline constexpr std::uint8_t kVdmDescriptorPage = 0x20;   // 20h-23h: 64 two-byte descriptors per group
inline constexpr std::uint8_t kVdmValuePage = 0x24;        // 24h-27h: one 16-bit sample per descriptor slot
inline constexpr std::uint8_t kVdmThresholdPage = 0x28;    // 28h-2Bh: 16 threshold sets of 8 bytes per group
inline constexpr std::uint8_t kVdmFlagPage = 0x2C;         // 2Ch: 4 latched flag bits per slot, 32 bytes per group
inline constexpr std::uint8_t kVdmAdvertisingPage = 0x2F;  // 2Fh byte 128 bits 1-0: groups supported - 1
// 2Fh byte 144 bit 7, FreezeRequest: written by the host. While it is set the
// module holds the statistics (min/max/average) of the interval that the host
// opened by its last unfreeze; SONiC's xcvrd sets it around each read.
inline constexpr std::size_t kVdmFreezeControl = 144;

// F16 (CMIS 5.2 VDM numeric encodings): mantissa = bits 10-0, exponent = bits 15-11,
// value = mantissa x 10^(exponent - 24).
double decodeF16(std::uint16_t raw);

enum class VdmEncoding : std::uint8_t { kU16, kS16, kF16 };

struct VdmTypeInfo {
  std::string_view name;  // "Pre-FEC BER current, media input"
  std::string_view unit;  // "", "dB", "degC", "%", "MHz"
  VdmEncoding encoding = VdmEncoding::kU16;
  double scale = 1;  // applied to U16/S16 values
};

// Observable types 1-24 of the CMIS 5.2 VDM list and 128-147 of OIF C-CMIS 1.1; nullptr for other IDs.
const VdmTypeInfo* vdmTypeInfo(std::uint8_t type_id);

struct VdmObservable {
  std::uint8_t type_id = 0;
  std::uint8_t bank = 0;   // lanes 8 x bank + 1 ...
  std::uint8_t group = 0;  // 0-3 (page 20h + group)
  std::uint8_t slot = 0;   // 0-63 within the group
  std::uint16_t lane = 1;  // 1-based, across banks
  const VdmTypeInfo* info = nullptr;
  std::optional<double> value;
  std::optional<Thresholds> thresholds;  // absent when the module left its set all zero
  std::optional<AlarmFlags> flags;
};

// Observable types 9-14 and 17-22: minimum, maximum and average pre-FEC BER
// and errored frames. CMIS defines them over the interval between a host's
// unfreeze and its next freeze; the current values (15, 16, 23, 24) are not
// statistics.
bool isVdmStatistic(std::uint8_t type_id);

// Whether the statistics are a window someone chose: the FreezeRequest bit is
// set (a switch's NOS froze them to read). A read-only reader (ethtool netlink
// cannot write the module) that finds it clear sees statistics running since
// an unfreeze at an unknown time, possibly the module's power-up: they say
// nothing about a poll interval, so the decoder leaves them off the Sample.
bool vdmStatisticsFrozen(const ModuleMemory& memory);

// How many VDM groups bank `bank` has: page 2Fh byte 128, or what descriptor
// pages exist when 2Fh was not read. 0 when the module has no VDM there.
int vdmGroupCount(const ModuleMemory& memory, int bank = 0);

// Calls visit(const VdmObservable&) for each known observable of each group of
// banks 0..banks-1 present in memory, in descriptor order, skipping what
// applyVdm refuses (groups that are not VDM, thresholds out of order).
template <typename Visit>
void forEachVdmObservable(const ModuleMemory& memory, int banks, Visit&& visit);

// Maps the observables of banks 0..banks-1 onto the Sample (lane metrics,
// thresholds, flags, laser temperature/age), onto the lanes the Sample has
// (never adds lanes). What is refused gets a Sample.issues entry, never a value.
void applyVdm(const ModuleMemory& memory, int banks, Sample& sample);

// ---- implementation of the template ----
namespace detail {
const std::uint8_t* fullPage(const ModuleMemory& memory, std::uint8_t bank, std::uint8_t page);
// Why the pages of one VDM group are not VDM ("" when they look like VDM):
// a copy of page 00h, or descriptors naming mostly unknown types.
std::string_view groupProblem(const ModuleMemory& memory, const std::uint8_t* descriptors, const std::uint8_t* values);
enum class ThresholdState : std::uint8_t { kUnknown, kUsable, kUnused, kOutOfOrder };
ThresholdState thresholdState(const VdmTypeInfo& info, const std::uint8_t* thresholds, int set);
bool readVdmObservable(const std::uint8_t* descriptors, const std::uint8_t* values, const std::uint8_t* thresholds,
                       const std::uint8_t* flags, int bank, int group, int slot, VdmObservable& out);
}  // namespace detail

template <typename Visit>
void forEachVdmObservable(const ModuleMemory& memory, int banks, Visit&& visit) {
  for (int b = 0; b < banks; ++b) {
    const auto bank = static_cast<std::uint8_t>(b);
    const int groups = vdmGroupCount(memory, b);
    const std::uint8_t* flags = detail::fullPage(memory, bank, kVdmFlagPage);
    for (int g = 0; g < groups; ++g) {
      const auto gp = static_cast<std::uint8_t>(g);
      const std::uint8_t* descriptors =
          detail::fullPage(memory, bank, static_cast<std::uint8_t>(kVdmDescriptorPage + gp));
      if (descriptors == nullptr) continue;
      const std::uint8_t* values = detail::fullPage(memory, bank, static_cast<std::uint8_t>(kVdmValuePage + gp));
      if (!detail::groupProblem(memory, descriptors, values).empty()) continue;
      const std::uint8_t* thresholds =
          detail::fullPage(memory, bank, static_cast<std::uint8_t>(kVdmThresholdPage + gp));
      for (int slot = 0; slot < 64; ++slot) {
        VdmObservable obs;
        if (detail::readVdmObservable(descriptors, values, thresholds, flags, b, g, slot, obs)) visit(obs);
      }
    }
  }
}

}  // namespace opticsd::eeprom
