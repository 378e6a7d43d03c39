#pragma once
// What kind of module a simulated switch carries: identity, lane layout, line
// rate, FEC, nominal operating point and the module's advertised thresholds.
// Values are typical of real modules of each kind (datasheets and dumps), not
// of one vendor.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "drivers/sample.hpp"
#include "drivers/sim/ber_model.hpp"

namespace opticsd::sim {

struct ThresholdSet {
  double high_alarm;
  double high_warning;
  double low_warning;
  double low_alarm;
  Thresholds toThresholds() const { return {high_alarm, high_warning, low_warning, low_alarm}; }
};

struct ModuleProfile {
  std::string_view name;  // the `module:` option value
  ModuleFamily family;
  std::uint8_t sff8024_identifier;
  std::string_view form_factor;
  std::string_view media;
  std::string_view part_number;
  std::string_view connector;
  std::string_view spec_revision;
  double wavelength_nm;
  double cable_length_m;
  std::optional<int> power_class;
  double max_power_watts;
  Modulation modulation;
  int lanes;                   // media lanes the module monitors
  double lane_rate_gbps;       // nominal data rate per lane
  double line_rate_gbps;       // per lane, with FEC overhead
  std::optional<FecCode> fec;  // none: no FEC counters
  bool has_vdm;                // CMIS VDM: per-lane pre-FEC BER, eSNR, laser temperature

  // Operating point; lanes and modules vary around it.
  double bias_ma;
  double bias_spread_ma;
  double tx_dbm;
  double tx_spread_db;
  double link_loss_db;
  double link_loss_spread_db;
  double los_assert_dbm;  // Rx below this: LOS, no CDR lock
  ReceiverModel receiver;
  double q_floor_spread;

  ThresholdSet temperature;
  ThresholdSet vcc;
  ThresholdSet bias;
  ThresholdSet tx_power;
  ThresholdSet rx_power;
};

std::span<const ModuleProfile> moduleProfiles();
std::span<const std::string_view> moduleProfileNames();
const ModuleProfile* findModuleProfile(std::string_view name);
inline constexpr std::string_view kDefaultModuleProfile = "osfp-800g-2fr4";

}  // namespace opticsd::sim
