#include "drivers/eeprom/sff8472.hpp"

#include <cmath>

#include "drivers/eeprom/decode_common.hpp"
#include "drivers/eeprom/sff8024.hpp"
#include "drivers/eeprom/text_field.hpp"

namespace opticsd::eeprom {
namespace {

// SFF-8472 rev 12.4, Table 4-1 (A0h) and Table 4-2/9-5 (A2h). Offsets are A0h/A2h byte numbers.
constexpr std::size_t kA0Connector = 2;       // SFF-8024 Table 4-3
constexpr std::size_t kA0TenGCompliance = 3;  // Table 5-3: 10G Ethernet compliance bits 7-4
constexpr std::size_t kA0GbeCompliance = 6;   // Table 5-3: Ethernet compliance
constexpr std::size_t kA0CableTech = 8;       // Table 5-3: bit 2 passive cable, bit 3 active cable
constexpr std::size_t kA0Encoding = 11;       // SFF-8024 Table 4-2
constexpr std::size_t kA0NominalRate = 12;    // 100 MBd units; 0xFF: see byte 66
constexpr std::size_t kA0LengthSmfKm = 14;    // link lengths: SMF km, SMF 100 m, OM2 10 m, OM1 10 m,
constexpr std::size_t kA0LengthSmf = 15;      // OM4 10 m (byte 18, or copper m on cables), OM3 10 m
constexpr std::size_t kA0LengthOm2 = 16;
constexpr std::size_t kA0LengthOm1 = 17;
constexpr std::size_t kA0LengthCopper = 18;  // copper / active cable length, m
constexpr std::size_t kA0LengthOm3 = 19;
constexpr std::size_t kA0VendorName = 20;       // 20-35, ASCII
constexpr std::size_t kA0ExtCompliance = 36;    // SFF-8024 Table 4-4
constexpr std::size_t kA0VendorOui = 37;        // 37-39
constexpr std::size_t kA0VendorPn = 40;         // 40-55
constexpr std::size_t kA0VendorRev = 56;        // 56-59
constexpr std::size_t kA0Wavelength = 60;       // 60-61 nm (optical only)
constexpr std::size_t kA0MaxRate = 66;          // 250 MBd units when byte 12 is 0xFF
constexpr std::size_t kA0VendorSn = 68;         // 68-83
constexpr std::size_t kA0DateCode = 84;         // 84-91 YYMMDDLL
constexpr std::size_t kA0DiagType = 92;         // Table 8-5: bit 6 DDM, bit 5 internal, bit 4 external cal.
constexpr std::size_t kA0EnhancedOptions = 93;  // Table 8-6: bit 7 flags, bit 5 soft TX_FAULT, bit 4 soft RX_LOS
constexpr std::size_t kA0Compliance = 94;       // Table 8-8: SFF-8472 revision

// A2h bytes 0-39 (Table 9-5), 8 bytes a metric (HA, LA, HW, LW): temperature 0-7, Vcc 8-15,
// Tx bias 16-23, Tx power 24-31, Rx power 32-39.
constexpr ThresholdLayout kA2Thresholds{.temperature = 0, .vcc = 8, .tx_bias = 16, .tx_power = 24, .rx_power = 32};
constexpr std::size_t kA2RxPwr4 = 56;    // 56-75: Rx_PWR(4..0) IEEE-754 floats (Table 9-6)
constexpr std::size_t kA2TxISlope = 76;  // 76-91: slope (unsigned 8.8) / offset (signed) pairs
constexpr std::size_t kA2TxPwrSlope = 80;
constexpr std::size_t kA2TSlope = 84;
constexpr std::size_t kA2VSlope = 88;
constexpr std::size_t kA2Temperature = 96;  // 96-105 monitors (Table 9-11)
constexpr std::size_t kA2Vcc = 98;
constexpr std::size_t kA2TxBias = 100;
constexpr std::size_t kA2TxPower = 102;
constexpr std::size_t kA2RxPower = 104;
constexpr std::size_t kA2Status = 110;        // Table 9-11: bit 2 TX_FAULT, bit 1 RX_LOS
constexpr std::size_t kA2AlarmFlags = 112;    // 112-113 (Table 9-12)
constexpr std::size_t kA2WarningFlags = 116;  // 116-117

// External calibration constants (SFF-8472 rev 12.4 section 9.3). Identity when internal.
struct Calibration {
  bool external = false;
  float rx[5] = {0, 1, 0, 0, 0};  // Rx_PWR(0..4)
  double slope_bias = 1, slope_txpwr = 1, slope_temp = 1, slope_vcc = 1;
  double offset_bias = 0, offset_txpwr = 0, offset_temp = 0, offset_vcc = 0;

  // Calibrated A/D values in the internal-calibration encoding, clamped into its 16-bit range.
  static double clampU16(double v) { return v < 0 ? 0 : (v > 65535 ? 65535 : v); }
  double adBias(std::uint16_t ad) const { return external ? clampU16(slope_bias * ad + offset_bias) : ad; }
  double adTxPower(std::uint16_t ad) const { return external ? clampU16(slope_txpwr * ad + offset_txpwr) : ad; }
  double adVcc(std::uint16_t ad) const { return external ? clampU16(slope_vcc * ad + offset_vcc) : ad; }
  double adTemp(std::uint16_t ad) const {
    const auto s = static_cast<std::int16_t>(ad);
    if (!external) return s;
    const double v = slope_temp * s + offset_temp;
    return v < -32768 ? -32768 : (v > 32767 ? 32767 : v);
  }
  double adRxPower(std::uint16_t ad) const {
    if (!external) return ad;
    const double x = ad;
    const double v = (((double{rx[4]} * x + rx[3]) * x + rx[2]) * x + rx[1]) * x + rx[0];
    return std::isfinite(v) ? clampU16(v) : 0.0;
  }

  // In metric units: the scale readStandardThresholds takes.
  double temperature(std::uint16_t ad) const { return adTemp(ad) / 256.0; }
  double vcc(std::uint16_t ad) const { return adVcc(ad) * 100e-6; }
  double txBias(std::uint16_t ad) const { return adBias(ad) * 2e-3; }
  double txPowerDbm(std::uint16_t ad) const { return opticalPowerFromTenthMicrowatts(adTxPower(ad)).dbm; }
  double rxPowerDbm(std::uint16_t ad) const { return opticalPowerFromTenthMicrowatts(adRxPower(ad)).dbm; }
};

bool readCalibration(const PageWindow& a2, Calibration& cal) {
  if (!a2.has(kA2RxPwr4, 36)) return false;
  // Rx_PWR(4) is first in memory, Rx_PWR(0) last.
  for (int i = 0; i < 5; ++i) {
    const float f = *a2.f32(kA2RxPwr4 + 4 * static_cast<std::size_t>(4 - i));
    cal.rx[i] = std::isfinite(f) ? f : 0.0f;
  }
  auto slope = [&](std::size_t at) { return a2.raw(at) + a2.raw(at + 1) / 256.0; };
  auto offset = [&](std::size_t at) { return static_cast<double>(a2.rawS16(at)); };
  cal.slope_bias = slope(kA2TxISlope);
  cal.offset_bias = offset(kA2TxISlope + 2);
  cal.slope_txpwr = slope(kA2TxPwrSlope);
  cal.offset_txpwr = offset(kA2TxPwrSlope + 2);
  cal.slope_temp = slope(kA2TSlope);
  cal.offset_temp = offset(kA2TSlope + 2);
  cal.slope_vcc = slope(kA2VSlope);
  cal.offset_vcc = offset(kA2VSlope + 2);
  cal.external = true;
  return true;
}

std::string_view revisionName(std::uint8_t code) {
  switch (code) {  // SFF-8472 rev 12.4 Table 8-8
    case 0x01:
      return "SFF-8472 rev 9.3";
    case 0x02:
      return "SFF-8472 rev 9.5";
    case 0x03:
      return "SFF-8472 rev 10.2";
    case 0x04:
      return "SFF-8472 rev 10.4";
    case 0x05:
      return "SFF-8472 rev 11.0";
    case 0x06:
      return "SFF-8472 rev 11.3";
    case 0x07:
      return "SFF-8472 rev 11.4";
    case 0x08:
      return "SFF-8472 rev 12.3";
    case 0x09:
      return "SFF-8472 rev 12.4";
    default:
      return "SFF-8472";
  }
}

void decodeIdentity(const PageWindow& a0, ModuleIdentity& id) {
  decodeVendorFields(a0, {kA0VendorName, kA0VendorOui, kA0VendorPn, kA0VendorRev, 4, kA0VendorSn, kA0DateCode}, id);
  setConnectorAndRevision(id, a0.u8(kA0Connector), a0.u8(kA0Compliance), revisionName);

  const std::uint8_t cable = a0.u8(kA0CableTech).value_or(0);
  const bool passive = bit(cable, 2);
  const bool active = bit(cable, 3);
  id.passive_copper = passive;
  if (passive || active) {
    if (auto len = a0.u8(kA0LengthCopper)) id.cable_length_m = *len;
  } else if (auto wl = a0.u16(kA0Wavelength)) {
    if (*wl != 0) id.wavelength_nm = *wl;
  }

  // Media: extended compliance first (25G and later), then the 10G and GbE bits.
  const InterfaceInfo* ext = nullptr;
  if (auto code = a0.u8(kA0ExtCompliance); code && *code != 0) ext = extendedCompliance(*code);
  const std::uint8_t ten_g = a0.u8(kA0TenGCompliance).value_or(0);
  const std::uint8_t gbe = a0.u8(kA0GbeCompliance).value_or(0);
  std::string_view media;
  if (ext != nullptr) {
    media = ext->single_lane_name.empty() ? ext->name : ext->single_lane_name;
    id.lane_rate_gbps = ext->lane_gbps > 0 ? std::optional<double>(ext->lane_gbps) : std::nullopt;
  } else if (ten_g & 0xf0) {
    media = bit(ten_g, 7) ? "10GBASE-ER" : bit(ten_g, 6) ? "10GBASE-LRM" : bit(ten_g, 5) ? "10GBASE-LR" : "10GBASE-SR";
    id.lane_rate_gbps = 10;
  } else if (gbe != 0) {
    static constexpr std::string_view kGbe[8] = {"1000BASE-SX",  "1000BASE-LX", "1000BASE-CX", "1000BASE-T",
                                                 "100BASE-LX10", "100BASE-FX",  "BASE-BX10",   "BASE-PX"};
    for (int b = 0; b < 8; ++b) {
      if (bit(gbe, b)) {
        media = kGbe[b];
        break;
      }
    }
    id.lane_rate_gbps = (gbe & 0x0f) ? 1.0 : 0.1;
  } else if (passive) {
    media = "passive copper";
  } else if (active) {
    media = "active copper";
  }
  setText(id.media, media);
  if (!id.lane_rate_gbps) {
    id.lane_rate_gbps = laneRateFromSignallingRate(a0.u8(kA0NominalRate), a0.u8(kA0MaxRate), /*with_1g=*/true);
  }
  id.nominal_signalling_rate_gbaud = signallingRateGbaud(a0.u8(kA0NominalRate), a0.u8(kA0MaxRate));
  LinkLengths& len = id.link_lengths;
  len.smf_m = lengthMetres(a0.u8(kA0LengthSmf), 100);
  if (!len.smf_m) len.smf_m = lengthMetres(a0.u8(kA0LengthSmfKm), 1000);
  len.om2_m = lengthMetres(a0.u8(kA0LengthOm2), 10);
  len.om1_m = lengthMetres(a0.u8(kA0LengthOm1), 10);
  if (!passive && !active) len.om4_m = lengthMetres(a0.u8(kA0LengthCopper), 10);
  len.om3_m = lengthMetres(a0.u8(kA0LengthOm3), 10);
  const auto encoding = a0.u8(kA0Encoding);
  setText(id.encoding, encoding ? encodingName(*encoding, /*sff8472=*/true) : std::string_view{});
  if (encoding && *encoding == 0x08) {  // SFF-8024 Table 4-2: PAM4
    id.modulation = Modulation::kPam4;
  } else if (id.lane_rate_gbps) {
    id.modulation = *id.lane_rate_gbps >= 50 ? Modulation::kPam4 : Modulation::kNrz;
  }
}

}  // namespace

void decodeSff8472(const ModuleMemory& memory, Sample& sample) {
  const PageWindow a0(memory, kI2cAddressA0, 0, 0);
  ModuleIdentity& id = sample.mutableIdentity();
  decodeIdentity(a0, id);
  resetLanes(sample, 1);

  const auto diag = a0.u8(kA0DiagType);
  if (!diag) {
    addIssue(sample, "A0h byte 92 (diagnostic monitoring type) not read: diagnostics unknown");
    return;
  }
  const bool ddm = bit(*diag, 6);
  id.has_diagnostics = ddm;
  if (!ddm) return;  // no-DDM SFP: identity only, A2h not meaningful

  const PageWindow a2(memory, kI2cAddressA2, 0, 0);
  if (!a2.hasLower()) {
    addIssue(sample, "A2h diagnostics page not read: monitors, thresholds and flags missing");
    return;
  }
  Calibration cal;
  if (bit(*diag, 4) && !bit(*diag, 5)) {
    if (!readCalibration(a2, cal)) addIssue(sample, "A2h bytes 56-91 (external calibration) not read");
  }

  Lane& lane = sample.lanes[0];
  if (auto t = a2.u16(kA2Temperature)) sample.module.set(ModuleMetric::kTemperatureCelsius, cal.temperature(*t));
  if (auto v = a2.u16(kA2Vcc)) sample.module.set(ModuleMetric::kSupplyVoltageVolts, cal.vcc(*v));
  if (auto b = a2.u16(kA2TxBias)) lane.values.set(LaneMetric::kTxBiasMilliamperes, cal.txBias(*b));
  if (auto p = a2.u16(kA2TxPower)) setLanePower(lane, LaneMetric::kTxPowerDbm, cal.adTxPower(*p));
  if (auto p = a2.u16(kA2RxPower)) setLanePower(lane, LaneMetric::kRxPowerDbm, cal.adRxPower(*p));

  // Thresholds are A/D values too and take the same calibration (section 9.3).
  readStandardThresholds(a2, kA2Thresholds, ThresholdSupport{}, cal, sample);

  const std::uint8_t options = a0.u8(kA0EnhancedOptions).value_or(0);
  if (bit(options, 7) && a2.has(kA2AlarmFlags, 2) && a2.has(kA2WarningFlags, 2)) {
    // Table 9-12: byte 112/116 bits 7-0 temp H/L, Vcc H/L, bias H/L, Tx power H/L; byte 113/117 bits 7-6 Rx power H/L.
    const std::uint8_t a0f = a2.raw(kA2AlarmFlags), a1f = a2.raw(kA2AlarmFlags + 1);
    const std::uint8_t w0f = a2.raw(kA2WarningFlags), w1f = a2.raw(kA2WarningFlags + 1);
    auto& mf = sample.module_flags;
    mf[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)] =
        makeFlags(bit(a0f, 7), bit(a0f, 6), bit(w0f, 7), bit(w0f, 6));
    mf[static_cast<std::size_t>(ModuleMetric::kSupplyVoltageVolts)] =
        makeFlags(bit(a0f, 5), bit(a0f, 4), bit(w0f, 5), bit(w0f, 4));
    lane.flags[static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes)] =
        makeFlags(bit(a0f, 3), bit(a0f, 2), bit(w0f, 3), bit(w0f, 2));
    lane.flags[static_cast<std::size_t>(LaneMetric::kTxPowerDbm)] =
        makeFlags(bit(a0f, 1), bit(a0f, 0), bit(w0f, 1), bit(w0f, 0));
    lane.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] =
        makeFlags(bit(a1f, 7), bit(a1f, 6), bit(w1f, 7), bit(w1f, 6));
  }
  if (auto status = a2.u8(kA2Status)) {
    if (bit(options, 5)) lane.status.tx_fault = bit(*status, 2);
    if (bit(options, 4)) lane.status.rx_los = bit(*status, 1);
  }
}

void appendSff8472Pages(const ModuleMemory& memory, std::vector<PageRequest>& out) {
  const auto diag = memory.byte(PageKey{kI2cAddressA0, 0, 0, false}, kA0DiagType);
  if (!diag || !bit(*diag, 6)) return;
  if (memory.find(PageKey{kI2cAddressA2, 0, 0, false}) == nullptr) out.push_back({kI2cAddressA2, 0, 0, 0, 128});
  if (memory.find(PageKey{kI2cAddressA2, 0, 0, true}) == nullptr) out.push_back({kI2cAddressA2, 0, 0, 128, 128});
}

}  // namespace opticsd::eeprom
