#include "drivers/eeprom/cmis.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "drivers/eeprom/cmis_application.hpp"
#include "drivers/eeprom/cmis_vdm.hpp"
#include "drivers/eeprom/decode_common.hpp"
#include "drivers/eeprom/sff8024.hpp"
#include "drivers/eeprom/text_field.hpp"

namespace opticsd::eeprom {
namespace {

// CMIS 5.2 lower memory (bytes 0-127), by field name.
constexpr std::size_t kRevision = 1;      // CmisRevision: major bits 7-4, minor bits 3-0
constexpr std::size_t kMemoryModel = 2;   // bit 7 MemoryModel: 1 = flat memory
constexpr std::size_t kModuleFlags = 9;   // temp HA/LA/HW/LW bits 0-3, Vcc bits 4-7 (latched)
constexpr std::size_t kAuxFlags = 10;     // Aux1 bits 0-3, Aux2 bits 4-7; byte 11 bits 0-3 Aux3
constexpr std::size_t kAuxMonitors = 18;  // Aux1MonValue 18-19, Aux2 20-21, Aux3 22-23 (S16)
constexpr std::size_t kTemperature = 14;  // TempMonValue, 14-15, S16 1/256 degC
constexpr std::size_t kVcc = 16;          // VccMonValue, 16-17, 100 uV
constexpr std::size_t kCdbStatus = 37;    // CdbStatus1 (37) and CdbStatus2 (38): bit 7 CdbIsBusy
constexpr std::size_t kFirmware = 39;     // ModuleActiveFirmwareMajor/MinorRevision, 39-40
constexpr std::size_t kMediaType = 85;    // MediaType: selects the media interface ID table

// CMIS 5.2 page 00h (bytes 128-255).
constexpr std::size_t kVendorName = 129;   // 129-144
constexpr std::size_t kVendorOui = 145;    // 145-147
constexpr std::size_t kVendorPn = 148;     // 148-163
constexpr std::size_t kVendorRev = 164;    // 164-165
constexpr std::size_t kVendorSn = 166;     // 166-181
constexpr std::size_t kDateCode = 182;     // 182-189 YYMMDDLL
constexpr std::size_t kPowerClass = 200;   // bits 7-5: power class - 1
constexpr std::size_t kMaxPower = 201;     // 0.25 W units
constexpr std::size_t kCableLength = 202;  // bits 7-6 multiplier (0.1/1/10/100 m), bits 5-0 base
constexpr std::size_t kConnector = 203;    // SFF-8024 Table 4-3
constexpr std::size_t kMediaTech = 212;    // MediaInterfaceTechnology: < 0x0A optical, 0x0A-0x0F copper

// CMIS 5.2 page 01h (advertising).
constexpr std::size_t kHardwareRevision = 130;  // 130-131 ModuleHardwareMajor/MinorRevision
constexpr std::size_t kLengthSmf = 132;         // bits 7-6 multiplier (0.1 / 1 km), bits 5-0 base
constexpr std::size_t kLengthOm5 = 133;         // 2 m units, then OM4 134, OM3 135 (2 m) and OM2 136 (1 m)
constexpr std::size_t kWavelength = 138;        // 138-139 nominal wavelength, 0.05 nm
constexpr std::size_t kPagesAdvert = 142;       // bit 6 VDM pages 20h-2Fh, bits 1-0 banks supported
constexpr std::size_t kAuxMonitorTypes = 145;   // bit 0 Aux1 (0 TEC current), bit 1 Aux2 (0 laser temp, 1 TEC current),
                                                // bit 2 Aux3 (0 laser temp, 1 Vcc2)
constexpr std::size_t kModuleMonAdvert = 159;   // bit 0 temperature, 1 Vcc, 2 Aux1, 3 Aux2, 4 Aux3 monitor supported
constexpr std::size_t kLaneMonAdvert = 160;     // bit 0 Tx bias, 1 Tx power, 2 Rx power; bits 4-3 bias multiplier

// CMIS 5.2 page 02h thresholds, 8 bytes a metric (HA, LA, HW, LW): temperature 128-135,
// Vcc 136-143, Tx power 176-183, Tx bias 184-191, Rx power 192-199.
// Page 02h Aux1-3 thresholds, 8 bytes each like the others.
constexpr std::size_t kAuxThresholds = 144;
constexpr ThresholdLayout kPage02Thresholds{
    .temperature = 128, .vcc = 136, .tx_bias = 184, .tx_power = 176, .rx_power = 192};

// CMIS 5.2 page 11h (lane flags and monitors), lanes 1-8 of the bank, bit n = lane n+1.
constexpr std::size_t kDataPathState = 128;  // 128-131: 4 bits a lane, lane 1 in byte 128 bits 3-0
constexpr std::size_t kTxFault = 135;
constexpr std::size_t kTxLos = 136;
constexpr std::size_t kTxLol = 137;
constexpr std::size_t kTxPowerFlags = 139;  // 139-142: HA, LA, HW, LW
constexpr std::size_t kTxBiasFlags = 143;   // 143-146
constexpr std::size_t kRxLos = 147;
constexpr std::size_t kRxLol = 148;
constexpr std::size_t kRxPowerFlags = 149;  // 149-152
constexpr std::size_t kTxPower = 154;       // 154-169, 0.1 uW
constexpr std::size_t kTxBias = 170;        // 170-185, 2 uA x multiplier
constexpr std::size_t kRxPower = 186;       // 186-201, 0.1 uW

constexpr std::uint8_t kPage01 = 0x01, kPage02 = 0x02, kPage11 = 0x11;

int banksFromAdvert(std::uint8_t advert) {
  switch (advert & 0x03) {
    case 1:
      return 2;
    case 2:
      return 4;
    default:
      return 1;
  }
}

bool isFlat(const ModuleMemory& memory) {
  return bit(memory.byte(PageKey{kI2cAddressA0, 0, 0, false}, kMemoryModel).value_or(0), 7);
}

void decodeIdentity(const PageWindow& w, const PageWindow& p1, Sample& sample) {
  ModuleIdentity& id = sample.mutableIdentity();
  decodeVendorFields(w, {kVendorName, kVendorOui, kVendorPn, kVendorRev, 2, kVendorSn, kDateCode}, id);
  const auto connector = w.u8(kConnector);
  setText(id.connector, connector ? connectorName(*connector) : std::string_view{});

  if (auto rev = w.u8(kRevision)) {
    assignVersion(id.spec_revision, "CMIS ", *rev >> 4, *rev & 0x0fu);
  } else {
    id.spec_revision.clear();
  }
  if (w.has(kFirmware, 2)) {
    assignVersion(id.firmware_version, "", w.raw(kFirmware), w.raw(kFirmware + 1));
  } else {
    id.firmware_version.clear();
  }
  if (auto pc = w.u8(kPowerClass)) id.power_class = (*pc >> 5) + 1;
  if (auto mp = w.u8(kMaxPower); mp && *mp != 0) id.max_power_watts = *mp * 0.25;  // 0: not given

  const std::uint8_t media_type = w.u8(kMediaType).value_or(0);
  if (w.has(kMediaType)) id.cmis_media_type = media_type;
  const auto tech = w.u8(kMediaTech);
  const bool copper_tech = tech && *tech >= 0x0A && *tech <= 0x0F;
  const bool passive = media_type == kMediaTypePassiveCopper;
  id.passive_copper = passive;
  if (auto len = w.u8(kCableLength); len && *len != 0) {
    static constexpr double kMultiplier[4] = {0.1, 1, 10, 100};
    id.cable_length_m = (*len & 0x3f) * kMultiplier[*len >> 6];
  }
  if (media_type == kMediaTypeMmf || media_type == kMediaTypeSmf || media_type == kMediaTypeActiveCable) {
    if (auto wl = p1.u16(kWavelength); wl && *wl != 0 && !copper_tech) id.wavelength_nm = *wl * 0.05;
  }
  if (tech) setText(id.media_technology, mediaTechnologyName(*tech));
  if (p1.has(kHardwareRevision, 2)) {
    assignVersion(id.hardware_revision, "", p1.raw(kHardwareRevision), p1.raw(kHardwareRevision + 1));
  }
  if (auto smf = p1.u8(kLengthSmf); smf && (*smf & 0x3f) != 0 && (*smf >> 6) < 2) {
    id.link_lengths.smf_m = (*smf & 0x3f) * ((*smf >> 6) == 0 ? 100.0 : 1000.0);
  }
  id.link_lengths.om5_m = lengthMetres(p1.u8(kLengthOm5), 2);
  id.link_lengths.om4_m = lengthMetres(p1.u8(kLengthOm5 + 1), 2);
  id.link_lengths.om3_m = lengthMetres(p1.u8(kLengthOm5 + 2), 2);
  id.link_lengths.om2_m = lengthMetres(p1.u8(kLengthOm5 + 3), 1);
  if (auto pages = p1.u8(kPagesAdvert)) id.vdm_supported = bit(*pages, 6);
}

// The media name, lane rate and lane counts of the data paths that run (the
// first data path's Application names the module, as ethtool shows it).
void describeActiveApplication(Sample& sample, std::optional<std::uint8_t> tech) {
  ModuleIdentity& id = sample.mutableIdentity();
  const std::uint8_t media_type = id.cmis_media_type.value_or(0);
  const bool passive = media_type == kMediaTypePassiveCopper;
  if (id.data_paths.empty()) {
    setText(id.media, passive ? "passive copper" : "");
    return;
  }
  int host_lanes = 0;
  int media_lanes = 0;
  for (const ModuleDataPath& path : id.data_paths) {
    host_lanes += path.host_lane_count;
    media_lanes += path.media_lane_count;
  }
  id.host_lane_count = host_lanes;
  id.media_lane_count = media_lanes;
  const ModuleApplication& app = id.applications[id.data_paths.front().app_sel - 1u];
  const InterfaceInfo* media = mediaInterface(media_type, app.media_interface_id);
  const InterfaceInfo* host = hostInterface(app.host_interface_id);
  char buf[32];
  std::string_view name;
  if (passive) {
    name = "passive copper";
  } else if (media_type == kMediaTypeActiveCable) {
    const bool optical = tech && (*tech < 0x0A || *tech > 0x0F);
    name = optical ? "AOC" : "active copper";
  } else if (media != nullptr) {
    name = media->name;
  } else if (app.media_interface_id != 0) {
    const int n = std::snprintf(buf, sizeof buf, "media interface 0x%02x", app.media_interface_id);
    name = std::string_view(buf, static_cast<std::size_t>(n));
  }
  setText(id.media, name);
  const InterfaceInfo* rate = (media != nullptr && media->lane_gbps > 0) ? media : host;
  if (rate != nullptr && rate->lane_gbps > 0) {
    id.lane_rate_gbps = rate->lane_gbps;
    id.modulation = rate->modulation;
  }
}

// Page 11h of one bank: media lane monitors and flags for the lanes in a data
// path, and the host-side state (data path state, Tx input LOS/LOL) of the
// host lanes each media lane carries.
void decodeBank(const ModuleMemory& memory, Sample& sample, int bank, const ActiveLanes& active,
                std::uint8_t lane_advert, double bias_scale) {
  const PageWindow p(memory, kI2cAddressA0, static_cast<std::uint8_t>(bank), kPage11);
  if (!p.hasUpper()) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "page 11h bank %d not read: lanes %d-%d monitors and flags missing", bank,
                  bank * kLanesPerBank + 1, bank * kLanesPerBank + kLanesPerBank);
    addIssue(sample, buf);
    return;
  }
  for (Lane& lane : sample.lanes) {
    const int index = lane.number - 1;
    if (index / kLanesPerBank != bank) continue;
    const int n = index % kLanesPerBank;
    const auto at = static_cast<std::size_t>(2 * n);
    if (bit(lane_advert, 1)) {
      if (auto v = p.u16(kTxPower + at)) setLanePowerRegister(lane, LaneMetric::kTxPowerDbm, *v);
    }
    if (bit(lane_advert, 0)) {
      if (auto v = p.u16(kTxBias + at)) {
        lane.values.set(LaneMetric::kTxBiasMilliamperes, biasMilliampsFromRaw(*v) * bias_scale);
      }
    }
    if (bit(lane_advert, 2)) {
      if (auto v = p.u16(kRxPower + at)) setLanePowerRegister(lane, LaneMetric::kRxPowerDbm, *v);
    }
    // Host lane fields: the data path state of the (first) host lane behind
    // this media lane; Tx input LOS/LOL set when any of its host lanes has it.
    const std::uint8_t hosts = active.host_of_media[static_cast<std::size_t>(index)];
    const int host = active.first_host_of_media[static_cast<std::size_t>(index)];
    if (auto dp = p.u8(kDataPathState + static_cast<std::size_t>(host / 2))) {
      lane.status.data_path_state = static_cast<std::uint8_t>((host % 2 == 0) ? (*dp & 0x0f) : (*dp >> 4));
    }
    if (p.has(kTxFault, 3)) {
      lane.status.tx_fault = bit(p.raw(kTxFault), n);
      lane.status.tx_los = (p.raw(kTxLos) & hosts) != 0;
      lane.status.tx_lol = (p.raw(kTxLol) & hosts) != 0;
    }
    if (p.has(kRxLos, 2)) {
      lane.status.rx_los = bit(p.raw(kRxLos), n);
      lane.status.rx_lol = bit(p.raw(kRxLol), n);
    }
    auto flagsAt = [&](std::size_t base) {
      return makeFlags(bit(p.raw(base), n), bit(p.raw(base + 1), n), bit(p.raw(base + 2), n), bit(p.raw(base + 3), n));
    };
    if (p.has(kTxPowerFlags, 8) && bit(lane_advert, 1)) {
      lane.flags[static_cast<std::size_t>(LaneMetric::kTxPowerDbm)] = flagsAt(kTxPowerFlags);
    }
    if (p.has(kTxBiasFlags, 4) && bit(lane_advert, 0)) {
      lane.flags[static_cast<std::size_t>(LaneMetric::kTxBiasMilliamperes)] = flagsAt(kTxBiasFlags);
    }
    if (p.has(kRxPowerFlags, 4) && bit(lane_advert, 2)) {
      lane.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)] = flagsAt(kRxPowerFlags);
    }
  }
}

// One Lane per media lane in a data path, numbered 8 x bank + lane, in order.
void setActiveLanes(Sample& sample, const ActiveLanes& active, int banks) {
  std::size_t count = 0;
  for (int b = 0; b < banks; ++b)
    count += static_cast<std::size_t>(std::popcount(active.media[static_cast<std::size_t>(b)]));
  resetLanes(sample, count);
  std::size_t at = 0;
  for (int b = 0; b < banks; ++b) {
    for (int n = 0; n < kLanesPerBank; ++n) {
      if (bit(active.media[static_cast<std::size_t>(b)], n)) {
        sample.lanes[at++].number = static_cast<std::uint16_t>(b * kLanesPerBank + n + 1);
      }
    }
  }
}

// Aux monitors 1-3 (CMIS 4.0 / 5.x): laser temperature (S16, 1/256 degC) and
// TEC current (S16, 100/32767 % of the module's maximum), as page 01h byte
// 145 says each measures, with their page 02h thresholds and byte 10-11 flags.
// Aux3 as a second supply voltage has no catalogue row and is left out.
void decodeAuxMonitors(const PageWindow& w, const PageWindow& p1, const PageWindow& p2, Sample& sample) {
  const auto advert = p1.u8(kModuleMonAdvert);
  const auto types = p1.u8(kAuxMonitorTypes);
  if (!advert || !types) return;  // without page 01h an Aux value says nothing about what it is
  enum class Kind { kNone, kLaserTemperature, kTecCurrent };
  auto kindOf = [&](int aux) {  // aux 0-2
    if (!bit(*advert, 2 + aux)) return Kind::kNone;
    const bool alt = bit(*types, aux);
    switch (aux) {
      case 0:
        return alt ? Kind::kNone : Kind::kTecCurrent;
      case 1:
        return alt ? Kind::kTecCurrent : Kind::kLaserTemperature;
      default:
        return alt ? Kind::kNone : Kind::kLaserTemperature;
    }
  };
  bool have_laser = false;
  bool have_tec = false;
  for (int aux = 0; aux < 3; ++aux) {
    const Kind kind = kindOf(aux);
    if (kind == Kind::kNone || (kind == Kind::kLaserTemperature && have_laser) ||
        (kind == Kind::kTecCurrent && have_tec)) {
      continue;
    }
    const auto metric =
        kind == Kind::kLaserTemperature ? ModuleMetric::kLaserTemperatureCelsius : ModuleMetric::kTecCurrentPercent;
    const double scale = kind == Kind::kLaserTemperature ? 1.0 / 256 : 100.0 / 32767;
    const auto at = static_cast<std::size_t>(2 * aux);
    const auto raw = w.s16(kAuxMonitors + at);
    if (!raw) continue;
    (kind == Kind::kLaserTemperature ? have_laser : have_tec) = true;
    sample.module.set(metric, *raw * scale);
    if (p2.hasUpper()) {
      readThresholds(
          p2, kAuxThresholds + 8 * static_cast<std::size_t>(aux),
          [scale](std::uint16_t r) { return static_cast<std::int16_t>(r) * scale; }, sample.mutableThresholds(metric));
    }
    if (auto f = w.u8(kAuxFlags + static_cast<std::size_t>(aux / 2))) {
      const int base = (aux % 2) * 4;
      sample.module_flags[static_cast<std::size_t>(metric)] =
          makeFlags(bit(*f, base), bit(*f, base + 1), bit(*f, base + 2), bit(*f, base + 3));
    }
  }
}

// A CDB command in progress (a firmware download, a long diagnostic) is the
// module at work on the host's behalf, not a fault: the poll is "in
// maintenance" (no findings, no alerts) until CdbIsBusy clears. A reason set
// by the transport (firmware flashing) or the config stays as it is.
void markCdbBusy(const PageWindow& w, Sample& sample) {
  constexpr std::string_view kCdbBusy = "cdb_busy";
  const bool busy = (w.u8(kCdbStatus).value_or(0) & 0x80) != 0 || (w.u8(kCdbStatus + 1).value_or(0) & 0x80) != 0;
  if (busy && !sample.maintenance) {
    sample.maintenance = Maintenance{std::string(kCdbBusy)};
  } else if (!busy && sample.maintenance && sample.maintenance->reason == kCdbBusy) {
    sample.maintenance.reset();
  }
}

}  // namespace

int cmisBankCount(const ModuleMemory& memory) {
  const auto advert = memory.byte(PageKey{kI2cAddressA0, 0, kPage01, true}, kPagesAdvert - kPageSize);
  return advert ? banksFromAdvert(*advert) : 1;
}

void decodeCmis(const ModuleMemory& memory, Sample& sample) {
  const PageWindow w(memory, kI2cAddressA0, 0, 0);
  const PageWindow p1(memory, kI2cAddressA0, 0, kPage01);
  if (!w.hasUpper()) addIssue(sample, "page 00h not read: identity missing");
  markCdbBusy(w, sample);
  decodeIdentity(w, p1, sample);
  const bool flat = isFlat(memory);
  const bool passive = sample.identity().passive_copper.value_or(false);

  if (!flat && !p1.hasUpper()) addIssue(sample, "page 01h not read: advertising (monitors, banks, VDM) unknown");
  const int banks = flat ? 1 : cmisBankCount(memory);
  readApplications(w, p1, sample.mutableIdentity().applications);
  const bool one_to_one = passive || sample.identity().cmis_media_type == kMediaTypeBaseT;
  const ActiveLanes active = resolveDataPaths(memory, banks, one_to_one, sample);
  describeActiveApplication(sample, w.u8(kMediaTech));
  setActiveLanes(sample, active, banks);

  // Module monitors: as page 01h advertises them; a flat-memory module has no
  // page 01h, so a non-zero reading is taken as implemented.
  const auto module_advert = p1.u8(kModuleMonAdvert);
  const auto temp = w.s16(kTemperature);
  const auto vcc = w.u16(kVcc);
  const bool temp_ok = module_advert ? bit(*module_advert, 0) : (!p1.hasUpper() && temp && *temp != 0);
  const bool vcc_ok = module_advert ? bit(*module_advert, 1) : (!p1.hasUpper() && vcc && *vcc != 0);
  if (temp && temp_ok) sample.module.set(ModuleMetric::kTemperatureCelsius, temperatureFromRaw(*temp));
  if (vcc && vcc_ok) sample.module.set(ModuleMetric::kSupplyVoltageVolts, voltageFromRaw(*vcc));
  if (auto f = w.u8(kModuleFlags)) {
    if (temp_ok) {
      sample.module_flags[static_cast<std::size_t>(ModuleMetric::kTemperatureCelsius)] =
          makeFlags(bit(*f, 0), bit(*f, 1), bit(*f, 2), bit(*f, 3));
    }
    if (vcc_ok) {
      sample.module_flags[static_cast<std::size_t>(ModuleMetric::kSupplyVoltageVolts)] =
          makeFlags(bit(*f, 4), bit(*f, 5), bit(*f, 6), bit(*f, 7));
    }
  }

  const std::uint8_t lane_advert = p1.u8(kLaneMonAdvert).value_or(0);
  sample.mutableIdentity().has_diagnostics = !passive && (temp_ok || vcc_ok || (lane_advert & 0x07) != 0);
  if (flat) return;  // flat memory: lower page and page 00h only

  // Tx bias multiplier, page 01h byte 160 bits 4-3: x1, x2, x4.
  const int mult_code = (lane_advert >> 3) & 0x03;
  const double bias_scale = mult_code == 1 ? 2.0 : (mult_code == 2 ? 4.0 : 1.0);

  const PageWindow p2(memory, kI2cAddressA0, 0, kPage02);
  decodeAuxMonitors(w, p1, p2, sample);
  if (p1.hasUpper()) {
    if (!p2.hasUpper()) {
      addIssue(sample, "page 02h not read: thresholds missing");
    } else {
      const ThresholdSupport has{temp_ok, vcc_ok, bit(lane_advert, 0), bit(lane_advert, 1), bit(lane_advert, 2)};
      readStandardThresholds(p2, kPage02Thresholds, has, RawScale{bias_scale}, sample);
    }
  }

  for (int bank = 0; bank < banks; ++bank) decodeBank(memory, sample, bank, active, lane_advert, bias_scale);

  const bool vdm = bit(p1.u8(kPagesAdvert).value_or(0), 6);
  if (vdm) {
    if (memory.find(PageKey{kI2cAddressA0, 0, kVdmDescriptorPage, true}) == nullptr) {
      addIssue(sample, "VDM advertised but pages 20h-2Fh not read: pre-FEC BER, eSNR, LTP missing");
    } else {
      applyVdm(memory, banks, sample);
    }
  }
}

void appendCmisPages(const ModuleMemory& memory, std::vector<PageRequest>& out) {
  if (memory.find(PageKey{kI2cAddressA0, 0, 0, false}) == nullptr || isFlat(memory)) return;
  auto want = [&](std::uint8_t bank, std::uint8_t page) {
    if (memory.find(PageKey{kI2cAddressA0, bank, page, true}) == nullptr) {
      out.push_back({kI2cAddressA0, bank, page, 128, 128});
    }
  };
  want(0, kPage01);
  want(0, kPage02);
  const auto advert = memory.byte(PageKey{kI2cAddressA0, 0, kPage01, true}, kPagesAdvert - kPageSize);
  const int banks = advert ? banksFromAdvert(*advert) : 1;
  for (int b = 0; b < banks; ++b) want(static_cast<std::uint8_t>(b), kPage11);
  if (!advert || !bit(*advert, 6)) return;  // VDM only as advertised
  // 2Fh says how many groups; until it is read, ask for group 1 (every VDM
  // module has it). VDM pages are banked like page 11h: one set per bank.
  for (int b = 0; b < banks; ++b) {
    const auto bank = static_cast<std::uint8_t>(b);
    want(bank, kVdmAdvertisingPage);
    const auto groups_byte = memory.byte(PageKey{kI2cAddressA0, bank, kVdmAdvertisingPage, true}, 0);
    const int groups = groups_byte ? (*groups_byte & 0x03) + 1 : 1;
    for (int g = 0; g < groups; ++g) {
      const auto gp = static_cast<std::uint8_t>(g);
      want(bank, static_cast<std::uint8_t>(kVdmDescriptorPage + gp));
      want(bank, static_cast<std::uint8_t>(kVdmValuePage + gp));
      want(bank, static_cast<std::uint8_t>(kVdmThresholdPage + gp));
    }
    want(bank, kVdmFlagPage);
  }
}

}  // namespace opticsd::eeprom
