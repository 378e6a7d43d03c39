#include "drivers/eeprom/sff8636.hpp"

#include "drivers/eeprom/decode_common.hpp"
#include "drivers/eeprom/sff8024.hpp"
#include "drivers/eeprom/text_field.hpp"

namespace opticsd::eeprom {
namespace {

// SFF-8636 rev 2.10a. Lower page: Tables 6-1..6-8; upper page 00h: Table 6-14 (fields by byte);
// page 03h thresholds: section 6.4 (bytes 128-199; table number not verified).
constexpr std::size_t kRevision = 1;       // Table 6-3: revision compliance
constexpr std::size_t kStatus = 2;         // Table 6-2: bit 2 Flat_mem
constexpr std::size_t kLosFlags = 3;       // Table 6-4: bits 7-4 Tx4-1 LOS, 3-0 Rx4-1 LOS
constexpr std::size_t kFaultFlags = 4;     // bits 3-0 Tx4-1 fault
constexpr std::size_t kLolFlags = 5;       // bits 7-4 Tx4-1 CDR LOL, 3-0 Rx4-1 CDR LOL
constexpr std::size_t kTempFlags = 6;      // Table 6-5: bits 7-4 high alarm, low alarm, high warn, low warn
constexpr std::size_t kVccFlags = 7;       // same layout
constexpr std::size_t kRxPowerFlags = 9;   // Table 6-6: 9-10, a nibble per lane (lane 1 = byte 9 bits 7-4)
constexpr std::size_t kTxBiasFlags = 11;   // 11-12
constexpr std::size_t kTxPowerFlags = 13;  // 13-14
constexpr std::size_t kTemperature = 22;   // Table 6-7: 22-23
constexpr std::size_t kVcc = 26;           // 26-27
constexpr std::size_t kRxPower = 34;       // Table 6-8: 34-41, lanes 1-4
constexpr std::size_t kTxBias = 42;        // 42-49
constexpr std::size_t kTxPower = 50;       // 50-57
constexpr std::size_t kPowerClass8 = 107;  // max power of a class 8 module, 0.1 W (table number not verified)

constexpr std::size_t kExtIdentifier = 129;  // Table 6-15: bits 7-6 class 1-4, bits 1-0 class 5-7, bit 5 class 8
constexpr std::size_t kConnector = 130;      // SFF-8024 Table 4-3
constexpr std::size_t kCompliance = 131;     // Table 6-16 (bytes 131-138): bit 7 extended, 6-0 10/40G codes
constexpr std::size_t kEncoding = 139;       // SFF-8024 Table 4-2
constexpr std::size_t kNominalRate = 140;    // 100 MBd; 0xFF: byte 222
constexpr std::size_t kLengthSmfKm = 142;    // link lengths: SMF km, OM3 2 m, OM2 m, OM1 m,
constexpr std::size_t kLengthOm3 = 143;      // OM4 2 m (byte 146, or copper m on cables)
constexpr std::size_t kLengthOm2 = 144;
constexpr std::size_t kLengthOm1 = 145;
constexpr std::size_t kLengthCopper = 146;   // cable assembly length, m
constexpr std::size_t kDeviceTech = 147;     // Table 6-18: bits 7-4 transmitter technology
constexpr std::size_t kVendorName = 148;     // 148-163
constexpr std::size_t kVendorOui = 165;      // 165-167
constexpr std::size_t kVendorPn = 168;       // 168-183
constexpr std::size_t kVendorRev = 184;      // 184-185
constexpr std::size_t kWavelength = 186;     // 186-187, nm x 20 (optical only)
constexpr std::size_t kExtCompliance = 192;  // SFF-8024 Table 4-4
constexpr std::size_t kVendorSn = 196;       // 196-211
constexpr std::size_t kDateCode = 212;       // 212-219
constexpr std::size_t kDiagType = 220;       // diagnostic monitoring type: bit 2 Tx power measured (table not verified)
constexpr std::size_t kExtendedRate = 222;   // 250 MBd units

// Page 03h, 8 bytes a metric (HA, LA, HW, LW): temperature 128-135, Vcc 144-151, Rx power
// 176-183, Tx bias 184-191, Tx power 192-199.
constexpr ThresholdLayout kPage03Thresholds{
    .temperature = 128, .vcc = 144, .tx_bias = 184, .tx_power = 192, .rx_power = 176};

constexpr int kLanes = 4;

std::string_view revisionName(std::uint8_t code) {
  switch (code) {  // SFF-8636 rev 2.10a Table 6-3
    case 0x01:
      return "SFF-8436 rev 4.8 or earlier";
    case 0x02:
      return "SFF-8436 rev 4.8 (bytes 1, 186-189 per SFF-8636)";
    case 0x03:
      return "SFF-8636 rev 1.3";
    case 0x04:
      return "SFF-8636 rev 1.4";
    case 0x05:
      return "SFF-8636 rev 1.5";
    case 0x06:
      return "SFF-8636 rev 2.0";
    case 0x07:
      return "SFF-8636 rev 2.5-2.7";
    case 0x08:
      return "SFF-8636 rev 2.8-2.10";
    default:
      return "SFF-8636";
  }
}

AlarmFlags nibbleFlags(std::uint8_t nibble) {
  return makeFlags(bit(nibble, 3), bit(nibble, 2), bit(nibble, 1), bit(nibble, 0));
}

// Lane n (0-based) flags nibble of a two-byte lane flag field.
std::uint8_t laneNibble(const PageWindow& w, std::size_t base, int n) {
  const std::uint8_t b = w.raw(base + static_cast<std::size_t>(n / 2));
  return static_cast<std::uint8_t>((n % 2 == 0) ? (b >> 4) : (b & 0x0f));
}

void decodeIdentity(const PageWindow& w, ModuleIdentity& id, bool& copper) {
  decodeVendorFields(w, {kVendorName, kVendorOui, kVendorPn, kVendorRev, 2, kVendorSn, kDateCode}, id);
  setConnectorAndRevision(id, w.u8(kConnector), w.u8(kRevision), revisionName);

  // Device technology >= 0xA: copper; 0xA/0xB passive (Table 6-18).
  const auto tech = w.u8(kDeviceTech);
  const std::uint8_t tx_tech = tech ? static_cast<std::uint8_t>(*tech >> 4) : 0;
  copper = tech && tx_tech >= 0xA;
  const bool passive = tech && (tx_tech == 0xA || tx_tech == 0xB);
  if (tech) id.passive_copper = passive;

  const auto compliance = w.u8(kCompliance);
  const InterfaceInfo* ext = nullptr;
  if (compliance && bit(*compliance, 7)) {
    if (auto code = w.u8(kExtCompliance)) ext = extendedCompliance(*code);
  }
  std::string_view media;
  if (ext != nullptr) {
    media = ext->name;
    if (ext->lane_gbps > 0) id.lane_rate_gbps = ext->lane_gbps;
    id.modulation = ext->modulation;
  } else if (compliance && (*compliance & 0x7f)) {
    static constexpr std::string_view kNames[7] = {"40G XLPPI",  "40GBASE-LR4", "40GBASE-SR4", "40GBASE-CR4",
                                                   "10GBASE-SR", "10GBASE-LR",  "10GBASE-LRM"};
    for (int b = 3; b >= 0; --b) {  // 40G codes first: a QSFP+ is 4x10G
      if (bit(*compliance, b)) {
        media = kNames[b];
        break;
      }
    }
    if (media.empty()) {
      for (int b = 4; b < 7; ++b) {
        if (bit(*compliance, b)) media = kNames[b];
      }
    }
    id.lane_rate_gbps = 10;
    id.modulation = Modulation::kNrz;
  }
  if (passive && ext == nullptr && media.empty()) media = "passive copper";
  setText(id.media, media);

  if (copper || (ext != nullptr && (ext->name.find("AOC") != std::string_view::npos ||
                                    ext->name.find("ACC") != std::string_view::npos))) {
    if (auto len = w.u8(kLengthCopper)) id.cable_length_m = *len;
  }
  if (!copper) {
    if (auto wl = w.u16(kWavelength); wl && *wl != 0) id.wavelength_nm = *wl / 20.0;
  }

  if (!id.lane_rate_gbps) {
    id.lane_rate_gbps = laneRateFromSignallingRate(w.u8(kNominalRate), w.u8(kExtendedRate), /*with_1g=*/false);
  }
  id.nominal_signalling_rate_gbaud = signallingRateGbaud(w.u8(kNominalRate), w.u8(kExtendedRate));
  if (auto enc = w.u8(kEncoding)) setText(id.encoding, encodingName(*enc, /*sff8472=*/false));
  LinkLengths& len = id.link_lengths;
  len.smf_m = lengthMetres(w.u8(kLengthSmfKm), 1000);
  len.om3_m = lengthMetres(w.u8(kLengthOm3), 2);
  len.om2_m = lengthMetres(w.u8(kLengthOm2), 1);
  len.om1_m = lengthMetres(w.u8(kLengthOm1), 1);
  if (!copper && !id.cable_length_m) len.om4_m = lengthMetres(w.u8(kLengthCopper), 2);
  setText(id.media_technology, tech ? mediaTechnologyName(tx_tech) : std::string_view{});
  if (auto enc = w.u8(kEncoding); enc && *enc == 0x08) {
    id.modulation = Modulation::kPam4;
  } else if (id.modulation == Modulation::kUnknown && id.lane_rate_gbps) {
    id.modulation = *id.lane_rate_gbps >= 50 ? Modulation::kPam4 : Modulation::kNrz;
  }

  if (auto ext_id = w.u8(kExtIdentifier)) {
    // Table 6-15: classes 1-4 in bits 7-6, 5-7 in bits 1-0 (when non-zero), class 8 in bit 5.
    static constexpr double kWatts[8] = {1.5, 2.0, 2.5, 3.5, 4.0, 4.5, 5.0, 0};
    int cls = ((*ext_id >> 6) & 3) + 1;
    if ((*ext_id & 3) != 0) cls = 4 + (*ext_id & 3);
    if (bit(*ext_id, 5)) {
      cls = 8;
      // Byte 107 = 0: the module gives no class 8 figure (not 0 W).
      if (auto p8 = w.u8(kPowerClass8); p8 && *p8 != 0) id.max_power_watts = *p8 * 0.1;
    } else {
      id.max_power_watts = kWatts[cls - 1];
    }
    id.power_class = cls;
  }
}

}  // namespace

void decodeSff8636(const ModuleMemory& memory, Sample& sample) {
  const PageWindow w(memory, kI2cAddressA0, 0, 0);
  ModuleIdentity& id = sample.mutableIdentity();
  if (!w.hasUpper()) addIssue(sample, "page 00h not read: identity missing");
  bool copper = false;
  decodeIdentity(w, id, copper);
  resetLanes(sample, kLanes);
  const bool flat = bit(w.u8(kStatus).value_or(0), 2);

  // Passive copper has no monitors (whatever its bytes say); active copper and optics do.
  const bool diagnostics = !id.passive_copper.value_or(false);
  id.has_diagnostics = diagnostics;
  if (!diagnostics) return;

  if (auto t = w.s16(kTemperature)) sample.module.set(ModuleMetric::kTemperatureCelsius, temperatureFromRaw(*t));
  if (auto v = w.u16(kVcc)) sample.module.set(ModuleMetric::kSupplyVoltageVolts, voltageFromRaw(*v));
  const bool tx_power_supported = bit(w.u8(kDiagType).value_or(0), 2);
  for (int n = 0; n < kLanes; ++n) {
    Lane& lane = sample.lanes[static_cast<std::size_t>(n)];
    const auto at = static_cast<std::size_t>(2 * n);
    if (auto r = w.u16(kRxPower + at)) setLanePowerRegister(lane, LaneMetric::kRxPowerDbm, *r);
    if (auto b = w.u16(kTxBias + at)) lane.values.set(LaneMetric::kTxBiasMilliamperes, biasMilliampsFromRaw(*b));
    if (tx_power_supported) {
      if (auto p = w.u16(kTxPower + at)) setLanePowerRegister(lane, LaneMetric::kTxPowerDbm, *p);
    }
    if (w.has(kLosFlags, 3)) {
      lane.status.rx_los = bit(w.raw(kLosFlags), n);
      lane.status.tx_los = bit(w.raw(kLosFlags), 4 + n);
      lane.status.tx_fault = bit(w.raw(kFaultFlags), n);
      lane.status.rx_lol = bit(w.raw(kLolFlags), n);
      lane.status.tx_lol = bit(w.raw(kLolFlags), 4 + n);
    }
    if (w.has(kRxPowerFlags, 6)) {
      lane.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = nibbleFlags(laneNibble(w, kRxPowerFlags, n));
      lane.flags[static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes)] =
          nibbleFlags(laneNibble(w, kTxBiasFlags, n));
      if (tx_power_supported) {
        lane.flags[static_cast<std::size_t>(LaneMetric::kTxPowerDbm)] = nibbleFlags(laneNibble(w, kTxPowerFlags, n));
      }
    }
  }
  if (w.has(kTempFlags, 2)) {
    sample.module_flags[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)] =
        nibbleFlags(static_cast<std::uint8_t>(w.raw(kTempFlags) >> 4));
    sample.module_flags[static_cast<std::size_t>(ModuleMetric::kSupplyVoltageVolts)] =
        nibbleFlags(static_cast<std::uint8_t>(w.raw(kVccFlags) >> 4));
  }

  if (flat) return;  // flat memory: no page 03h, so no thresholds
  const PageWindow p3(memory, kI2cAddressA0, 0, 3);
  if (!p3.hasUpper()) {
    addIssue(sample, "page 03h not read: thresholds missing");
    return;
  }
  ThresholdSupport has;
  has.tx_power = tx_power_supported;
  readStandardThresholds(p3, kPage03Thresholds, has, RawScale{}, sample);
}

void appendSff8636Pages(const ModuleMemory& memory, std::vector<PageRequest>& out) {
  const auto status = memory.byte(PageKey{kI2cAddressA0, 0, 0, false}, kStatus);
  if (!status || bit(*status, 2)) return;  // unknown or flat memory
  if (memory.find(PageKey{kI2cAddressA0, 0, 3, true}) == nullptr) out.push_back({kI2cAddressA0, 0, 3, 128, 128});
}

}  // namespace opticsd::eeprom
