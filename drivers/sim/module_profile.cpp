#include "drivers/sim/module_profile.hpp"

#include <array>

namespace opticsd::sim {
namespace {

constexpr FecCode kKp4{544, 15, 10};  // RS(544,514), IEEE 802.3 cl. 91/119
constexpr FecCode kKr4{528, 7, 10};   // RS(528,514), IEEE 802.3 cl. 91

// Module and supply thresholds common to commercial-temperature modules.
constexpr ThresholdSet kTemperature{75.0, 70.0, 0.0, -5.0};
constexpr ThresholdSet kVcc{3.63, 3.465, 3.135, 2.97};

ModuleProfile sfp10gLr() {
  ModuleProfile p{};
  p.name = "sfp-10g-lr";
  p.family = ModuleFamily::kSff8472;
  p.sff8024_identifier = 0x03;
  p.form_factor = "SFP";
  p.media = "10GBASE-LR";
  p.part_number = "SIM-SFP-10G-LR";
  p.connector = "LC";
  p.spec_revision = "SFF-8472 rev 12.3";
  p.wavelength_nm = 1310;
  p.cable_length_m = 10000;
  p.max_power_watts = 1.0;
  p.modulation = Modulation::kNrz;
  p.lanes = 1;
  p.lane_rate_gbps = 10.0;
  p.line_rate_gbps = 10.3125;
  p.has_vdm = false;
  // DFB laser: tens of mA of bias (the shared LR dump reads 36 mA).
  p.bias_ma = 36.0;
  p.bias_spread_ma = 4.0;
  p.tx_dbm = -1.5;
  p.tx_spread_db = 0.5;
  p.link_loss_db = 2.5;
  p.link_loss_spread_db = 0.6;
  p.los_assert_dbm = -25.0;
  // 10GBASE-LR: BER 1e-12 at -14.4 dBm; no FEC, so no visible floor.
  p.receiver = {-14.4, 1e-12, 12.0, false, 0};
  p.q_floor_spread = 0.3;
  p.temperature = kTemperature;
  p.vcc = kVcc;
  p.bias = {90.0, 80.0, 10.0, 5.0};
  p.tx_power = {2.0, 1.0, -7.0, -8.2};
  p.rx_power = {1.0, 0.0, -15.0, -18.0};  // as in the shared SFP-10GB-LR dump
  return p;
}

ModuleProfile qsfp28Cwdm4() {
  ModuleProfile p{};
  p.name = "qsfp28-100g-cwdm4";
  p.family = ModuleFamily::kSff8636;
  p.sff8024_identifier = 0x11;
  p.form_factor = "QSFP28";
  p.media = "100GBASE-CWDM4";
  p.part_number = "SIM-Q28-100G-CWDM4";
  p.connector = "LC";
  p.spec_revision = "SFF-8636 rev 2.10a";
  p.wavelength_nm = 1271;
  p.cable_length_m = 2000;
  p.power_class = 4;
  p.max_power_watts = 3.5;
  p.modulation = Modulation::kNrz;
  p.lanes = 4;
  p.lane_rate_gbps = 25.0;
  p.line_rate_gbps = 25.78125;
  p.fec = kKr4;
  p.has_vdm = false;
  p.bias_ma = 40.0;
  p.bias_spread_ma = 4.0;
  p.tx_dbm = 0.5;
  p.tx_spread_db = 0.5;
  p.link_loss_db = 2.5;
  p.link_loss_spread_db = 0.6;
  p.los_assert_dbm = -15.0;
  // CWDM4 MSA: BER 5e-5 (the KR4 input limit) near -11.5 dBm average.
  p.receiver = {-11.5, 5e-5, 6.3, false, 0};
  p.q_floor_spread = 0.12;
  p.temperature = kTemperature;
  p.vcc = kVcc;
  p.bias = {75.0, 70.0, 15.0, 10.0};  // as in the shared FS QSFP28 dump
  p.tx_power = {5.0, 3.0, -6.5, -8.5};
  p.rx_power = {3.5, 2.5, -10.0, -13.0};
  return p;
}

// CMIS PAM4 optics: 100G per media lane (53.125 GBd PAM4, 106.25 Gb/s line).
ModuleProfile cmisPam4() {
  ModuleProfile p{};
  p.family = ModuleFamily::kCmis;
  p.connector = "MPO 1x12";
  p.spec_revision = "CMIS 5.0";
  p.wavelength_nm = 1311;
  p.cable_length_m = 500;
  p.modulation = Modulation::kPam4;
  p.lane_rate_gbps = 100.0;
  p.line_rate_gbps = 106.25;
  p.fec = kKp4;
  p.has_vdm = true;
  p.bias_ma = 7.5;
  p.bias_spread_ma = 0.9;
  p.tx_dbm = 1.2;
  p.tx_spread_db = 0.45;
  p.link_loss_db = 3.3;
  p.link_loss_spread_db = 0.5;
  p.los_assert_dbm = -13.0;
  // KP4 input limit 2.4e-4 reached near -10 dBm average Rx.
  p.receiver = {-10.0, 2.4e-4, 5.55, true, 0};
  p.q_floor_spread = 0.13;
  p.temperature = kTemperature;
  p.vcc = kVcc;
  p.bias = {13.0, 12.0, 3.0, 2.0};
  p.tx_power = {5.0, 4.0, -4.9, -6.9};
  p.rx_power = {5.0, 4.0, -8.4, -10.4};
  return p;
}

ModuleProfile qsfpDd400gDr4() {
  ModuleProfile p = cmisPam4();
  p.name = "qsfp-dd-400g-dr4";
  p.sff8024_identifier = 0x18;
  p.form_factor = "QSFP-DD";
  p.media = "400GBASE-DR4";
  p.part_number = "SIM-QDD-400G-DR4";
  p.power_class = 6;
  p.max_power_watts = 10.0;
  p.lanes = 4;
  return p;
}

ModuleProfile osfp800g2Fr4() {
  ModuleProfile p = cmisPam4();
  p.name = "osfp-800g-2fr4";
  p.sff8024_identifier = 0x19;
  p.form_factor = "OSFP";
  p.media = "800G-2xFR4";
  p.part_number = "SIM-OSFP-800G-2FR4";
  p.connector = "Dual duplex LC";
  p.wavelength_nm = 1271;  // lane 1 of the CWDM4 grid
  p.cable_length_m = 2000;
  p.power_class = 8;
  p.max_power_watts = 16.0;
  p.lanes = 8;
  return p;
}

std::array<ModuleProfile, 4> makeProfiles() {
  std::array<ModuleProfile, 4> profiles{sfp10gLr(), qsfp28Cwdm4(), qsfpDd400gDr4(), osfp800g2Fr4()};
  for (auto& p : profiles) p.receiver.prepare();
  return profiles;
}

const std::array<ModuleProfile, 4>& profiles() {
  static const std::array<ModuleProfile, 4> kProfiles = makeProfiles();
  return kProfiles;
}

constexpr std::array<std::string_view, 4> kNames{"sfp-10g-lr", "qsfp28-100g-cwdm4", "qsfp-dd-400g-dr4",
                                                 "osfp-800g-2fr4"};

}  // namespace

std::span<const ModuleProfile> moduleProfiles() { return profiles(); }
std::span<const std::string_view> moduleProfileNames() { return kNames; }

const ModuleProfile* findModuleProfile(std::string_view name) {
  for (const auto& p : profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace opticsd::sim
