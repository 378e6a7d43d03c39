#include "daemon/output/sample_text.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "drivers/eeprom/cmis.hpp"
#include "drivers/eeprom/cmis_vdm.hpp"
#include "drivers/eeprom/sff8024.hpp"

namespace opticsd {
namespace {

void row(std::string& out, const std::string& label, const std::string& value) {
  out += '\t';
  out += label;
  if (label.size() < 42) out.append(42 - label.size(), ' ');  // a long label is kept whole, not cut
  out += ": ";
  out += value;
  out += '\n';
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string power(double dbm, const std::optional<bool>& no_light) {
  if (no_light.value_or(false) || dbm <= kNoLightFloorDbm) return "0.0000 mW / -40.00 dBm (no light)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f mW / %.2f dBm", std::pow(10.0, dbm / 10.0), dbm);
  return buf;
}

std::string yesNo(const std::optional<bool>& v) { return !v ? "n/a" : (*v ? "Yes" : "No"); }

std::string flagsText(const AlarmFlags& f) {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ", ";
    s += name;
  };
  add(f.high_alarm, "high alarm");
  add(f.low_alarm, "low alarm");
  add(f.high_warning, "high warning");
  add(f.low_warning, "low warning");
  return s.empty() ? "Off" : s;
}

struct MetricText {
  const char* label;
  const char* format;  // for the value in its unit
};

MetricText laneText(LaneMetric m) {
  switch (m) {
    case LaneMetric::kTxBiasMilliamperes:
      return {"Laser tx bias current", "%.3f mA"};
    case LaneMetric::kTxPowerDbm:
      return {"Transmit avg optical power", ""};
    case LaneMetric::kRxPowerDbm:
      return {"Rcvr signal avg optical power", ""};
    case LaneMetric::kPreFecBerRatio:
      return {"Pre-FEC BER (media, current)", "%.2e"};
    case LaneMetric::kPreFecBerMinRatio:
      return {"Pre-FEC BER (media, min)", "%.2e"};
    case LaneMetric::kPreFecBerMaxRatio:
      return {"Pre-FEC BER (media, max)", "%.2e"};
    case LaneMetric::kPreFecBerAvgRatio:
      return {"Pre-FEC BER (media, avg)", "%.2e"};
    case LaneMetric::kHostPreFecBerRatio:
      return {"Pre-FEC BER (host, current)", "%.2e"};
    case LaneMetric::kErroredFramesRatio:
      return {"Errored frames (media, current)", "%.2e"};
    case LaneMetric::kEsnrDecibels:
      return {"eSNR (media)", "%.2f dB"};
    case LaneMetric::kLtpDecibels:
      return {"PAM4 LTP (media)", "%.2f dB"};
    case LaneMetric::kHostPreFecBerMinRatio:
      return {"Pre-FEC BER (host, min)", "%.2e"};
    case LaneMetric::kHostPreFecBerMaxRatio:
      return {"Pre-FEC BER (host, max)", "%.2e"};
    case LaneMetric::kHostPreFecBerAvgRatio:
      return {"Pre-FEC BER (host, avg)", "%.2e"};
    case LaneMetric::kHostErroredFramesRatio:
      return {"Errored frames (host, current)", "%.2e"};
    case LaneMetric::kHostEsnrDecibels:
      return {"eSNR (host)", "%.2f dB"};
    case LaneMetric::kHostLtpDecibels:
      return {"PAM4 LTP (host)", "%.2f dB"};
    case LaneMetric::kOsnrDecibels:
      return {"OSNR", "%.2f dB"};
    case LaneMetric::kChromaticDispersionPsPerNm:
      return {"Chromatic dispersion", "%.0f ps/nm"};
    case LaneMetric::kDifferentialGroupDelayPicoseconds:
      return {"Differential group delay", "%.2f ps"};
    case LaneMetric::kSopmdPicosecondsSquared:
      return {"SOPMD", "%.2f ps^2"};
    case LaneMetric::kPolarizationDependentLossDecibels:
      return {"Polarization dependent loss", "%.2f dB"};
    case LaneMetric::kCarrierFrequencyOffsetMegahertz:
      return {"Carrier frequency offset", "%.0f MHz"};
    case LaneMetric::kRxTotalPowerDbm:
      return {"Rx total power", "%.2f dBm"};
    case LaneMetric::kRxSignalPowerDbm:
      return {"Rx signal power", "%.2f dBm"};
    case LaneMetric::kQFactorDecibels:
      return {"Q-factor", "%.2f dB"};
    case LaneMetric::kErrorVectorMagnitudePercent:
      return {"Error vector magnitude", "%.2f %%"};
    case LaneMetric::kSopRateOfChangeKiloradiansPerSecond:
      return {"SOP rate of change", "%.2f krad/s"};
    case LaneMetric::kModulatorBiasXIPercent:
      return {"Modulator bias X/I", "%.2f %%"};
    case LaneMetric::kModulatorBiasXQPercent:
      return {"Modulator bias X/Q", "%.2f %%"};
    case LaneMetric::kModulatorBiasYIPercent:
      return {"Modulator bias Y/I", "%.2f %%"};
    case LaneMetric::kModulatorBiasYQPercent:
      return {"Modulator bias Y/Q", "%.2f %%"};
    case LaneMetric::kModulatorBiasXPhasePercent:
      return {"Modulator bias X phase", "%.2f %%"};
    case LaneMetric::kModulatorBiasYPhasePercent:
      return {"Modulator bias Y phase", "%.2f %%"};
    case LaneMetric::kErroredFramesMinRatio:
      return {"Errored frames (media, min)", "%.2e"};
    case LaneMetric::kErroredFramesMaxRatio:
      return {"Errored frames (media, max)", "%.2e"};
    case LaneMetric::kErroredFramesAvgRatio:
      return {"Errored frames (media, avg)", "%.2e"};
    case LaneMetric::kHostErroredFramesMinRatio:
      return {"Errored frames (host, min)", "%.2e"};
    case LaneMetric::kHostErroredFramesMaxRatio:
      return {"Errored frames (host, max)", "%.2e"};
    case LaneMetric::kHostErroredFramesAvgRatio:
      return {"Errored frames (host, avg)", "%.2e"};
    case LaneMetric::kRxPowerMinDbm:
      return {"Rcvr signal optical power (min)", "%.2f dBm"};
    case LaneMetric::kRxPowerMaxDbm:
      return {"Rcvr signal optical power (max)", "%.2f dBm"};
    case LaneMetric::kRxPowerAvgDbm:
      return {"Rcvr signal optical power (avg)", "%.2f dBm"};
    case LaneMetric::kTxPowerMinDbm:
      return {"Transmit optical power (min)", "%.2f dBm"};
    case LaneMetric::kTxPowerMaxDbm:
      return {"Transmit optical power (max)", "%.2f dBm"};
    case LaneMetric::kTxPowerAvgDbm:
      return {"Transmit optical power (avg)", "%.2f dBm"};
    case LaneMetric::kTxBiasMinMilliamperes:
      return {"Laser tx bias current (min)", "%.3f mA"};
    case LaneMetric::kTxBiasMaxMilliamperes:
      return {"Laser tx bias current (max)", "%.3f mA"};
    case LaneMetric::kTxBiasAvgMilliamperes:
      return {"Laser tx bias current (avg)", "%.3f mA"};
    case LaneMetric::kCount:
      break;
  }
  return {"?", "%g"};
}

std::string laneValue(LaneMetric m, double v) {
  if (m == LaneMetric::kTxPowerDbm || m == LaneMetric::kRxPowerDbm) return power(v, std::nullopt);
  return fmt(laneText(m).format, v);
}

// "400GAUI-4-S C2M" or "host interface 0x4f" when SFF-8024 does not name it here.
std::string interfaceName(const eeprom::InterfaceInfo* known, const char* what, std::uint8_t code) {
  if (known != nullptr && !known->name.empty()) return std::string(known->name);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s interface 0x%02x", what, code);
  return buf;
}

// "AppSel 2: 800GAUI-8 S C2M (8 lanes) -> 800GBASE-DR8 (8 lanes)"
std::string applicationText(const ModuleIdentity& id, const ModuleApplication& a) {
  return hostInterfaceName(a.host_interface_id) + " (" + std::to_string(a.host_lane_count) + " host lanes) -> " +
         mediaInterfaceName(id, a.media_interface_id) + " (" + std::to_string(a.media_lane_count) + " media lanes)";
}

void renderApplications(std::string& out, const ModuleIdentity& id) {
  for (const ModuleApplication& a : id.applications) {
    row(out, "Application " + std::to_string(a.app_sel), applicationText(id, a));
  }
  for (const ModuleDataPath& d : id.data_paths) {
    const auto last = [](int first, int count) { return std::to_string(first + count - 1); };
    row(out,
        std::string(id.default_application.value_or(false) ? "Default" : "Active") + " data path, host lane " +
            std::to_string(d.first_host_lane),
        "AppSel " + std::to_string(d.app_sel) + ", host lanes " + std::to_string(d.first_host_lane) + "-" +
            last(d.first_host_lane, d.host_lane_count) + ", media lanes " + std::to_string(d.first_media_lane) + "-" +
            last(d.first_media_lane, d.media_lane_count));
  }
  if (id.default_application.value_or(false)) {
    row(out, "Active application", "none selected (Active Control Set AppSel 0): default Application 1 assumed");
  }
  if (id.host_lane_count) row(out, "Host lanes in data paths", std::to_string(*id.host_lane_count));
  if (id.media_lane_count) row(out, "Media lanes in data paths", std::to_string(*id.media_lane_count));
}

void renderIdentity(std::string& out, const ModuleIdentity& id) {
  if (id.sff8024_identifier) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "0x%02x (%s)", *id.sff8024_identifier,
                  id.form_factor.empty() ? "unknown" : id.form_factor.c_str());
    row(out, "Identifier", buf);
  }
  row(out, "Management interface",
      std::string(toString(id.family)) + (id.spec_revision.empty() ? "" : " (" + id.spec_revision + ")"));
  auto text = [&](const char* label, const std::string& v) {
    if (!v.empty()) row(out, label, v);
  };
  text("Media / interface", id.media);
  text("Connector", id.connector);
  text("Vendor name", id.vendor);
  text("Vendor OUI", id.vendor_oui);
  text("Vendor PN", id.part_number);
  text("Vendor rev", id.revision);
  text("Vendor SN", id.serial);
  text("Date code", id.date_code);
  text("Firmware version", id.firmware_version);
  text("Hardware revision", id.hardware_revision);
  text("Encoding", id.encoding);
  text("Media interface technology", id.media_technology);
  if (id.nominal_signalling_rate_gbaud)
    row(out, "Nominal signalling rate", fmt("%.2f GBd", *id.nominal_signalling_rate_gbaud));
  const LinkLengths& len = id.link_lengths;
  for (const auto& [label, value] : {std::pair{"Length (SMF)", len.smf_m}, std::pair{"Length (OM1)", len.om1_m},
                                     std::pair{"Length (OM2)", len.om2_m}, std::pair{"Length (OM3)", len.om3_m},
                                     std::pair{"Length (OM4)", len.om4_m}, std::pair{"Length (OM5)", len.om5_m}}) {
    if (value) row(out, label, fmt("%.0f m", *value));
  }
  if (id.vdm_supported) row(out, "VDM supported", yesNo(id.vdm_supported));
  if (id.wavelength_nm) row(out, "Laser wavelength", fmt("%.2f nm", *id.wavelength_nm));
  if (id.cable_length_m) row(out, "Cable length", fmt("%.1f m", *id.cable_length_m));
  if (id.power_class) {
    row(out, "Power class",
        std::to_string(*id.power_class) + (id.max_power_watts ? fmt(" (%.2f W max)", *id.max_power_watts) : ""));
  }
  if (id.lane_rate_gbps) {
    row(out, "Lane rate", fmt("%g Gb/s", *id.lane_rate_gbps) + " " + std::string(toString(id.modulation)));
  }
  renderApplications(out, id);
  row(out, "Diagnostics", yesNo(id.has_diagnostics));
  if (id.passive_copper.value_or(false)) row(out, "Passive copper", "Yes");
}

void renderModuleValues(std::string& out, const Sample& s) {
  if (auto t = s.module[ModuleMetric::kTemperatureCelsius]) row(out, "Module temperature", fmt("%.2f degrees C", *t));
  if (auto v = s.module[ModuleMetric::kSupplyVoltageVolts]) row(out, "Module voltage", fmt("%.4f V", *v));
  if (auto t = s.module[ModuleMetric::kLaserTemperatureCelsius])
    row(out, "Laser temperature", fmt("%.2f degrees C", *t));
  if (auto c = s.module[ModuleMetric::kTecCurrentPercent]) row(out, "TEC current", fmt("%.2f %%", *c));
  if (auto a = s.module[ModuleMetric::kLaserAgeRatio]) row(out, "Laser age (VDM, max)", fmt("%.0f %%", *a * 100));
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    if (s.module_flags[i]) row(out, std::string(kModuleMetricInfo[i].key) + " flags", flagsText(*s.module_flags[i]));
  }
}

void renderLane(std::string& out, const Lane& lane) {
  const std::string suffix = " (Lane " + std::to_string(lane.number) + ")";
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    const auto m = static_cast<LaneMetric>(i);
    if (m == LaneMetric::kTxPowerDbm || m == LaneMetric::kRxPowerDbm) {
      if (auto v = lane.values[m]) {
        row(out, laneText(m).label + suffix,
            power(*v, m == LaneMetric::kTxPowerDbm ? lane.status.tx_no_light : lane.status.rx_no_light));
      }
    } else if (auto v = lane.values[m]) {
      row(out, laneText(m).label + suffix, laneValue(m, *v));
    }
  }
  const LaneStatus& st = lane.status;
  if (st.rx_los) row(out, "Rx loss of signal" + suffix, yesNo(st.rx_los));
  if (st.tx_los) row(out, "Tx loss of signal" + suffix, yesNo(st.tx_los));
  if (st.rx_lol) row(out, "Rx loss of lock" + suffix, yesNo(st.rx_lol));
  if (st.tx_lol) row(out, "Tx loss of lock" + suffix, yesNo(st.tx_lol));
  if (st.tx_fault) row(out, "Tx fault" + suffix, yesNo(st.tx_fault));
  if (st.data_path_state)
    row(out, "Data path state" + suffix,
        std::to_string(*st.data_path_state) + (*st.data_path_state == 4 ? " (activated)" : ""));
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    if (lane.flags[i] && lane.flags[i]->any()) {
      row(out, std::string(laneText(static_cast<LaneMetric>(i)).label) + " flags" + suffix, flagsText(*lane.flags[i]));
    }
  }
}

void renderThresholds(std::string& out, const Sample& s) {
  auto thresholds = [&](const std::string& label, const std::optional<Thresholds>& t, auto format) {
    if (!t || !t->any()) return;
    if (t->high_alarm) row(out, label + " high alarm threshold", format(*t->high_alarm));
    if (t->low_alarm) row(out, label + " low alarm threshold", format(*t->low_alarm));
    if (t->high_warning) row(out, label + " high warning threshold", format(*t->high_warning));
    if (t->low_warning) row(out, label + " low warning threshold", format(*t->low_warning));
  };
  thresholds("Module temperature", s.thresholds(ModuleMetric::kTemperatureCelsius),
             [](double v) { return fmt("%.2f degrees C", v); });
  thresholds("Module voltage", s.thresholds(ModuleMetric::kSupplyVoltageVolts),
             [](double v) { return fmt("%.4f V", v); });
  thresholds("Laser temperature", s.thresholds(ModuleMetric::kLaserTemperatureCelsius),
             [](double v) { return fmt("%.2f degrees C", v); });
  thresholds("TEC current", s.thresholds(ModuleMetric::kTecCurrentPercent), [](double v) { return fmt("%.2f %%", v); });
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
    const auto m = static_cast<LaneMetric>(i);
    thresholds(laneText(m).label, s.thresholds(m), [m](double v) { return laneValue(m, v); });
  }
}

// Every VDM observable, including those the Sample does not carry (host side, statistics).
void renderVdm(std::string& out, const eeprom::ModuleMemory& memory) {
  bool header = false;
  const bool frozen = eeprom::vdmStatisticsFrozen(memory);
  eeprom::forEachVdmObservable(memory, eeprom::cmisBankCount(memory), [&](const eeprom::VdmObservable& obs) {
    if (!header) {
      out += "\tVDM observables (bank/group/slot, lane: value [HA/LA/HW/LW] flags)\n";
      row(out, "VDM statistics (min/max/avg)",
          frozen ? "frozen by the host: the window it chose (exported)"
                 : "not frozen: running since an unknown unfreeze, no window (not exported)");
      header = true;
    }
    const bool f16 = obs.info->encoding == eeprom::VdmEncoding::kF16;
    auto num = [&](double v) { return fmt(f16 ? "%.2e" : "%.2f", v); };
    std::string value = obs.value ? num(*obs.value) : "n/a";
    if (!obs.info->unit.empty()) value += " " + std::string(obs.info->unit);
    if (obs.thresholds) {
      value += " [" + num(*obs.thresholds->high_alarm) + "/" + num(*obs.thresholds->low_alarm) + "/" +
               num(*obs.thresholds->high_warning) + "/" + num(*obs.thresholds->low_warning) + "]";
    }
    if (obs.flags) value += " " + flagsText(*obs.flags);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%d/%d/%02d ", obs.bank, obs.group + 1, obs.slot);
    row(out, std::string(buf) + std::string(obs.info->name) + " (Lane " + std::to_string(obs.lane) + ")", value);
  });
}

}  // namespace

std::string hostInterfaceName(std::uint8_t code) { return interfaceName(eeprom::hostInterface(code), "host", code); }

std::string mediaInterfaceName(const ModuleIdentity& identity, std::uint8_t code) {
  return interfaceName(eeprom::mediaInterface(identity.cmis_media_type.value_or(0), code), "media", code);
}

std::string sampleToText(const Sample& sample, const eeprom::ModuleMemory& memory, const eeprom::DumpParse& dump) {
  std::string out;
  renderIdentity(out, sample.identity());
  renderModuleValues(out, sample);
  for (const Lane& lane : sample.lanes) renderLane(out, lane);
  renderThresholds(out, sample);
  renderVdm(out, memory);
  row(out, "Dump format", dump.format);
  for (const auto& note : dump.notes) row(out, "Dump note", note);
  for (const auto& issue : sample.issues) row(out, "Not decoded", issue);
  return out;
}

}  // namespace opticsd
