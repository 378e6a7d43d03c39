#include "drivers/eeprom/cmis_vdm.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "drivers/eeprom/decode_common.hpp"

namespace opticsd::eeprom {
namespace {

// CMIS 5.2 VDM observable types 1-24 (index = type ID - 1): name, unit, encoding, scale.
constexpr std::array<VdmTypeInfo, 24> kTypes{{
    {"Laser age", "%", VdmEncoding::kU16, 1},
    {"TEC current", "%", VdmEncoding::kS16, 100.0 / 32767},
    {"Laser frequency error", "MHz", VdmEncoding::kS16, 10},
    {"Laser temperature", "degC", VdmEncoding::kS16, 1.0 / 256},
    {"eSNR, media input", "dB", VdmEncoding::kU16, 1.0 / 256},
    {"eSNR, host input", "dB", VdmEncoding::kU16, 1.0 / 256},
    {"PAM4 LTP, media input", "dB", VdmEncoding::kU16, 1.0 / 256},
    {"PAM4 LTP, host input", "dB", VdmEncoding::kU16, 1.0 / 256},
    {"Pre-FEC BER minimum, media input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER minimum, host input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER maximum, media input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER maximum, host input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER average, media input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER average, host input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER current, media input", "", VdmEncoding::kF16, 1},
    {"Pre-FEC BER current, host input", "", VdmEncoding::kF16, 1},
    {"Errored frames minimum, media input", "", VdmEncoding::kF16, 1},
    {"Errored frames minimum, host input", "", VdmEncoding::kF16, 1},
    {"Errored frames maximum, media input", "", VdmEncoding::kF16, 1},
    {"Errored frames maximum, host input", "", VdmEncoding::kF16, 1},
    {"Errored frames average, media input", "", VdmEncoding::kF16, 1},
    {"Errored frames average, host input", "", VdmEncoding::kF16, 1},
    {"Errored frames current, media input", "", VdmEncoding::kF16, 1},
    {"Errored frames current, host input", "", VdmEncoding::kF16, 1},
}};

// OIF C-CMIS 1.1 VDM observable types 128-147 (index = type ID - 128), as the
// implementation agreement lists them: coherent line-side values.
constexpr double kPercentU16 = 100.0 / 65535;
constexpr std::uint8_t kFirstCoherentType = 128;
constexpr std::array<VdmTypeInfo, 20> kCoherentTypes{{
    {"Modulator bias X/I", "%", VdmEncoding::kU16, kPercentU16},
    {"Modulator bias X/Q", "%", VdmEncoding::kU16, kPercentU16},
    {"Modulator bias Y/I", "%", VdmEncoding::kU16, kPercentU16},
    {"Modulator bias Y/Q", "%", VdmEncoding::kU16, kPercentU16},
    {"Modulator bias X phase", "%", VdmEncoding::kU16, kPercentU16},
    {"Modulator bias Y phase", "%", VdmEncoding::kU16, kPercentU16},
    {"Chromatic dispersion, high granularity (short link)", "ps/nm", VdmEncoding::kS16, 1},
    {"Chromatic dispersion, low granularity (long link)", "ps/nm", VdmEncoding::kS16, 20},
    {"Differential group delay", "ps", VdmEncoding::kU16, 0.01},
    {"SOPMD", "ps^2", VdmEncoding::kU16, 0.01},
    {"Polarization dependent loss", "dB", VdmEncoding::kU16, 0.1},
    {"OSNR", "dB", VdmEncoding::kU16, 0.1},
    {"eSNR", "dB", VdmEncoding::kU16, 0.1},
    {"Carrier frequency offset", "MHz", VdmEncoding::kS16, 1},
    {"EVM (modem)", "%", VdmEncoding::kU16, kPercentU16},
    {"Tx power", "dBm", VdmEncoding::kS16, 0.01},
    {"Rx total power", "dBm", VdmEncoding::kS16, 0.01},
    {"Rx signal power", "dBm", VdmEncoding::kS16, 0.01},
    {"SOP rate of change", "krad/s", VdmEncoding::kU16, 1},
    {"MER", "dB", VdmEncoding::kU16, 0.1},
}};

// Powers of ten 10^-24 .. 10^7 so F16 decoding needs no pow().
constexpr std::array<double, 32> kPow10 = {1e-24, 1e-23, 1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14,
                                           1e-13, 1e-12, 1e-11, 1e-10, 1e-9,  1e-8,  1e-7,  1e-6,  1e-5,  1e-4,  1e-3,
                                           1e-2,  1e-1,  1e0,   1e1,   1e2,   1e3,   1e4,   1e5,   1e6,   1e7};

// 10^0 .. 10^22, every one exact as a double.
constexpr std::array<double, 23> kExactPow10 = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Every type ID's row (or nullptr), so the per-slot lookup of a decode is one load.
constexpr std::array<const VdmTypeInfo*, 256> kTypeById = [] {
  std::array<const VdmTypeInfo*, 256> by_id{};
  for (std::size_t i = 0; i < kTypes.size(); ++i) by_id[i + 1] = &kTypes[i];
  for (std::size_t i = 0; i < kCoherentTypes.size(); ++i) by_id[kFirstCoherentType + i] = &kCoherentTypes[i];
  return by_id;
}();

inline const VdmTypeInfo* typeInfo(std::uint8_t type_id) { return kTypeById[type_id]; }

inline double f16Value(std::uint16_t raw) {
  const unsigned mantissa = raw & 0x07ffu;
  const unsigned exponent = (raw >> 11) & 0x1fu;
  // Below 10^0, divided by the exact 10^n (n <= 22): the double nearest
  // mantissa x 10^(exponent - 24), so 2.4e-4 prints as such everywhere.
  constexpr unsigned kBias = 24;
  if (exponent < kBias && exponent >= 2) return mantissa / kExactPow10[kBias - exponent];
  return mantissa * kPow10[exponent];
}

// A page that reads as a copy of page 00h (a host answering an unimplemented
// page with page 00h): the first eight bytes settle almost every comparison.
inline bool samePage(const std::uint8_t* a, const std::uint8_t* b) {
  std::uint64_t head_a = 0;
  std::uint64_t head_b = 0;
  std::memcpy(&head_a, a, sizeof head_a);
  std::memcpy(&head_b, b, sizeof head_b);
  return head_a == head_b && std::memcmp(a, b, kPageSize) == 0;
}

double decodeValue(const VdmTypeInfo& info, std::uint16_t raw) {
  switch (info.encoding) {
    case VdmEncoding::kF16:
      return f16Value(raw);
    case VdmEncoding::kS16:
      return static_cast<std::int16_t>(raw) * info.scale;
    case VdmEncoding::kU16:
      break;
  }
  return raw * info.scale;
}

std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }

// C-CMIS gives chromatic dispersion twice; the fine one wins where both are present.
constexpr std::uint8_t kCdShortLink = 134;
constexpr std::uint8_t kCdLongLink = 135;

// Which Sample lane metric an observable type feeds, media and host side.
std::optional<LaneMetric> laneMetricFor(std::uint8_t type_id) {
  switch (type_id) {
    case 5:
      return LaneMetric::kEsnrDecibels;
    case 6:
      return LaneMetric::kHostEsnrDecibels;
    case 7:
      return LaneMetric::kLtpDecibels;
    case 8:
      return LaneMetric::kHostLtpDecibels;
    case 9:
      return LaneMetric::kPreFecBerMinRatio;
    case 10:
      return LaneMetric::kHostPreFecBerMinRatio;
    case 11:
      return LaneMetric::kPreFecBerMaxRatio;
    case 12:
      return LaneMetric::kHostPreFecBerMaxRatio;
    case 13:
      return LaneMetric::kPreFecBerAvgRatio;
    case 14:
      return LaneMetric::kHostPreFecBerAvgRatio;
    case 15:
      return LaneMetric::kPreFecBerRatio;
    case 16:
      return LaneMetric::kHostPreFecBerRatio;
    case 17:
      return LaneMetric::kErroredFramesMinRatio;
    case 18:
      return LaneMetric::kHostErroredFramesMinRatio;
    case 19:
      return LaneMetric::kErroredFramesMaxRatio;
    case 20:
      return LaneMetric::kHostErroredFramesMaxRatio;
    case 21:
      return LaneMetric::kErroredFramesAvgRatio;
    case 22:
      return LaneMetric::kHostErroredFramesAvgRatio;
    case 23:
      return LaneMetric::kErroredFramesRatio;
    case 24:
      return LaneMetric::kHostErroredFramesRatio;
    // C-CMIS. Not carried: 143 Tx power (page 11h has it), 147 MER (no catalogue row).
    case 128:
      return LaneMetric::kModulatorBiasXIPercent;
    case 129:
      return LaneMetric::kModulatorBiasXQPercent;
    case 130:
      return LaneMetric::kModulatorBiasYIPercent;
    case 131:
      return LaneMetric::kModulatorBiasYQPercent;
    case 132:
      return LaneMetric::kModulatorBiasXPhasePercent;
    case 133:
      return LaneMetric::kModulatorBiasYPhasePercent;
    case kCdShortLink:
    case kCdLongLink:
      return LaneMetric::kChromaticDispersionPsPerNm;
    case 136:
      return LaneMetric::kDifferentialGroupDelayPicoseconds;
    case 137:
      return LaneMetric::kSopmdPicosecondsSquared;
    case 138:
      return LaneMetric::kPolarizationDependentLossDecibels;
    case 139:
      return LaneMetric::kOsnrDecibels;
    case 140:
      return LaneMetric::kEsnrDecibels;
    case 141:
      return LaneMetric::kCarrierFrequencyOffsetMegahertz;
    case 142:
      return LaneMetric::kErrorVectorMagnitudePercent;
    case 144:
      return LaneMetric::kRxTotalPowerDbm;
    case 145:
      return LaneMetric::kRxSignalPowerDbm;
    case 146:
      return LaneMetric::kSopRateOfChangeKiloradiansPerSecond;
    default:
      return std::nullopt;
  }
}

// Threshold set `set` (pages 28h-2Bh, 8 bytes a set at byte 128 + 8 x set): HA, LA, HW, LW.
Thresholds thresholdSet(const VdmTypeInfo& info, const std::uint8_t* thresholds, int set) {
  const std::uint8_t* t = thresholds + 8 * set;
  Thresholds th;
  th.high_alarm = decodeValue(info, be16(t));
  th.low_alarm = decodeValue(info, be16(t + 2));
  th.high_warning = decodeValue(info, be16(t + 4));
  th.low_warning = decodeValue(info, be16(t + 6));
  return th;
}

// Flags page 2Ch: 32 bytes per group, two slots a byte (even slot in bits 3-0):
// bit 0 high alarm, 1 low alarm, 2 high warning, 3 low warning.
AlarmFlags slotFlags(const std::uint8_t* flags, int group, int slot) {
  const std::uint8_t byte = flags[32 * group + slot / 2];
  const std::uint8_t nib = static_cast<std::uint8_t>((slot % 2 == 0) ? (byte & 0x0f) : (byte >> 4));
  return makeFlags(bit(nib, 0), bit(nib, 1), bit(nib, 2), bit(nib, 3));
}

}  // namespace

double decodeF16(std::uint16_t raw) { return f16Value(raw); }

const VdmTypeInfo* vdmTypeInfo(std::uint8_t type_id) { return typeInfo(type_id); }

bool isVdmStatistic(std::uint8_t type_id) {
  return (type_id >= 9 && type_id <= 14) || (type_id >= 17 && type_id <= 22);
}

bool vdmStatisticsFrozen(const ModuleMemory& memory) {
  const auto control = memory.byte(PageKey{kI2cAddressA0, 0, kVdmAdvertisingPage, true}, kVdmFreezeControl - kPageSize);
  return control && (*control & 0x80) != 0;
}

int vdmGroupCount(const ModuleMemory& memory, int bank) {
  const auto b = static_cast<std::uint8_t>(bank);
  if (const std::uint8_t* adv = detail::fullPage(memory, b, kVdmAdvertisingPage)) {
    // A host that answers an unimplemented page with page 00h: no VDM at all.
    if (const std::uint8_t* p00 = detail::fullPage(memory, 0, 0); p00 != nullptr && samePage(adv, p00)) {
      return 0;
    }
    return (adv[0] & 0x03) + 1;
  }
  if (auto adv = memory.byte(PageKey{kI2cAddressA0, b, kVdmAdvertisingPage, true}, 0)) return (*adv & 0x03) + 1;
  int groups = 0;
  for (int g = 0; g < 4; ++g) {
    if (memory.find(PageKey{kI2cAddressA0, b, static_cast<std::uint8_t>(kVdmDescriptorPage + g), true}) != nullptr) {
      groups = g + 1;
    }
  }
  return groups;
}

namespace detail {

const std::uint8_t* fullPage(const ModuleMemory& memory, std::uint8_t bank, std::uint8_t page) {
  const std::bitset<kPageSize>* valid = nullptr;
  const auto* bytes = memory.find(PageKey{kI2cAddressA0, bank, page, true}, &valid);
  // VDM slots are read as whole pages; a partial page is treated as absent.
  if (bytes == nullptr || !valid->all()) return nullptr;
  return bytes->data();
}

std::string_view groupProblem(const ModuleMemory& memory, const std::uint8_t* descriptors, const std::uint8_t* values) {
  if (const std::uint8_t* p00 = fullPage(memory, 0, 0)) {
    if (samePage(descriptors, p00) || (values != nullptr && samePage(values, p00))) {
      return "its pages read as a copy of page 00h";
    }
  }
  int used = 0;
  int unknown = 0;
  for (int slot = 0; slot < 64; ++slot) {
    const std::uint8_t type_id = descriptors[2 * slot + 1];
    if (type_id == 0) continue;
    ++used;
    if (typeInfo(type_id) == nullptr) ++unknown;
  }
  if (2 * unknown > used) return "its descriptors name mostly unknown observable types";
  return {};
}

ThresholdState thresholdState(const VdmTypeInfo& info, const std::uint8_t* thresholds, int set) {
  const std::uint8_t* t = thresholds + 8 * set;
  if (std::all_of(t, t + 8, [](std::uint8_t b) { return b == 0; })) return ThresholdState::kUnused;
  const Thresholds th = thresholdSet(info, thresholds, set);
  const bool ordered =
      *th.high_alarm >= *th.high_warning && *th.high_warning >= *th.low_warning && *th.low_warning >= *th.low_alarm;
  return ordered ? ThresholdState::kUsable : ThresholdState::kOutOfOrder;
}

bool readVdmObservable(const std::uint8_t* descriptors, const std::uint8_t* values, const std::uint8_t* thresholds,
                       const std::uint8_t* flags, int bank, int group, int slot, VdmObservable& out) {
  // Descriptor (CMIS 5.2 pages 20h-23h, bytes 128-255): even byte bits 7-4 threshold set ID,
  // bits 3-0 lane (0 = lane 1); odd byte observable type ID.
  const std::uint8_t d0 = descriptors[2 * slot];
  const std::uint8_t type_id = descriptors[2 * slot + 1];
  const VdmTypeInfo* info = typeInfo(type_id);
  if (info == nullptr) return false;
  const int set = d0 >> 4;
  const ThresholdState state =
      thresholds != nullptr ? thresholdState(*info, thresholds, set) : ThresholdState::kUnknown;
  if (state == ThresholdState::kOutOfOrder) return false;
  out.type_id = type_id;
  out.info = info;
  out.bank = static_cast<std::uint8_t>(bank);
  out.group = static_cast<std::uint8_t>(group);
  out.slot = static_cast<std::uint8_t>(slot);
  out.lane = static_cast<std::uint16_t>(8 * bank + (d0 & 0x0f) + 1);
  if (values != nullptr) out.value = decodeValue(*info, be16(values + 2 * slot));
  if (state == ThresholdState::kUsable) out.thresholds = thresholdSet(*info, thresholds, set);
  if (flags != nullptr) out.flags = slotFlags(flags, group, slot);
  return true;
}

}  // namespace detail

namespace {

void refuseGroup(Sample& sample, int bank, int group, std::string_view why) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "VDM bank %d group %d refused: %.*s", bank, group + 1, static_cast<int>(why.size()),
                why.data());
  addIssue(sample, buf);
}

void refuseThresholds(Sample& sample, int bank, int group, int count, int slot, const VdmTypeInfo& info) {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "VDM bank %d group %d: %d observable(s) refused, thresholds out of order (first: slot %d, %.*s)", bank,
                group + 1, count, slot, static_cast<int>(info.name.size()), info.name.data());
  addIssue(sample, buf);
}

}  // namespace

void applyVdm(const ModuleMemory& memory, int banks, Sample& sample) {
  // The hot path of a CMIS decode: reads the slots in place, without building
  // a VdmObservable, and decodes a threshold set only where the Sample still
  // lacks that metric's thresholds (the first lane carrying it).
  std::optional<double> laser_temp;
  std::optional<double> laser_age;
  const bool aux_laser = sample.module[ModuleMetric::kLaserTemperatureCelsius].has_value();
  const bool statistics_windowed = vdmStatisticsFrozen(memory);
  if (detail::fullPage(memory, 0, kVdmAdvertisingPage) != nullptr && vdmGroupCount(memory, 0) == 0) {
    addIssue(sample, "VDM refused: page 2Fh reads as a copy of page 00h");
    return;
  }
  for (int b = 0; b < banks; ++b) {
    const auto bank = static_cast<std::uint8_t>(b);
    const int groups = vdmGroupCount(memory, b);
    const std::uint8_t* flags = detail::fullPage(memory, bank, kVdmFlagPage);
    for (int g = 0; g < groups; ++g) {
      const auto gp = static_cast<std::uint8_t>(g);
      const std::uint8_t* descriptors =
          detail::fullPage(memory, bank, static_cast<std::uint8_t>(kVdmDescriptorPage + gp));
      const std::uint8_t* values = detail::fullPage(memory, bank, static_cast<std::uint8_t>(kVdmValuePage + gp));
      if (descriptors == nullptr || values == nullptr) continue;  // no values: nothing reaches the Sample
      if (const std::string_view why = detail::groupProblem(memory, descriptors, values); !why.empty()) {
        refuseGroup(sample, b, g, why);
        continue;
      }
      const std::uint8_t* thresholds =
          detail::fullPage(memory, bank, static_cast<std::uint8_t>(kVdmThresholdPage + gp));
      std::array<detail::ThresholdState, 16> sets{};  // per threshold set, decided once
      int refused = 0;
      int first_refused = 0;
      const VdmTypeInfo* first_refused_info = nullptr;
      for (int slot = 0; slot < 64; ++slot) {
        // Descriptor: even byte bits 7-4 threshold set ID, bits 3-0 lane - 1; odd byte type ID.
        const std::uint8_t d0 = descriptors[2 * slot];
        const std::uint8_t type_id = descriptors[2 * slot + 1];
        const VdmTypeInfo* info = typeInfo(type_id);
        if (info == nullptr) continue;
        const int set = d0 >> 4;
        auto& state = sets[static_cast<std::size_t>(set)];
        if (thresholds != nullptr && state == detail::ThresholdState::kUnknown) {
          state = detail::thresholdState(*info, thresholds, set);
        }
        if (state == detail::ThresholdState::kOutOfOrder) {
          if (refused++ == 0) {
            first_refused = slot;
            first_refused_info = info;
          }
          continue;
        }
        const bool usable = state == detail::ThresholdState::kUsable;
        const double value = decodeValue(*info, be16(values + 2 * slot));
        if (type_id == 4) {  // laser temperature: the hottest laser is the module figure
          laser_temp = laser_temp ? std::max(*laser_temp, value) : value;
          if (usable && !aux_laser && !sample.thresholds(ModuleMetric::kLaserTemperatureCelsius)) {
            sample.mutableThresholds(ModuleMetric::kLaserTemperatureCelsius) = thresholdSet(*info, thresholds, set);
          }
          continue;
        }
        if (type_id == 1) {  // laser age in percent of rated life
          laser_age = laser_age ? std::max(*laser_age, value / 100.0) : value / 100.0;
          continue;
        }
        const auto metric = laneMetricFor(type_id);
        if (!metric || !std::isfinite(value)) continue;
        if (!statistics_windowed && isVdmStatistic(type_id)) continue;  // no window: `opticsd decode` lists them
        // Only lanes in an active data path: a host-side observable of a host
        // lane with no media lane of that number (8 host lanes, 4 media lanes)
        // stays in `opticsd decode`'s VDM list and does not invent a lane.
        Lane* const found = laneNumbered(sample, 8u * bank + (d0 & 0x0fu) + 1);
        if (found == nullptr) continue;
        Lane& lane = *found;
        if (type_id == kCdLongLink && lane.values[*metric]) continue;  // the short-link reading is finer
        lane.values.set(*metric, value);
        if (flags != nullptr) lane.flags[static_cast<std::size_t>(*metric)] = slotFlags(flags, g, slot);
        if (usable && !sample.thresholds(*metric))
          sample.mutableThresholds(*metric) = thresholdSet(*info, thresholds, set);
      }
      if (refused > 0) refuseThresholds(sample, b, g, refused, first_refused, *first_refused_info);
    }
  }
  // An Aux laser temperature monitor (decoded first) is the module's own figure.
  if (laser_temp && !aux_laser) {
    sample.module.set(ModuleMetric::kLaserTemperatureCelsius, *laser_temp);
  }
  if (laser_age) sample.module.set(ModuleMetric::kLaserAgeRatio, *laser_age);
}

}  // namespace opticsd::eeprom
