#pragma once
// The catalogue of every value opticsd knows how to carry, with its unit.
//
// One table drives the Sample's storage, the exporter's metric names, the
// history store's keys, the JSON output and the rules engine's lookups. A new
// value is an enum entry and a row here, plus its label in the decode text
// (daemon/output/sample_text.cpp, a switch the compiler checks); the store
// needs no migration since schema 7, which gives each key a code in
// metric_codes when first written. Units are part of each name on purpose.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace opticsd {

// Values a module (or its port) reports once.
enum class ModuleMetric : std::uint8_t {
  kTemperatureCelsius,
  kSupplyVoltageVolts,
  kLaserTemperatureCelsius,  // CMIS Aux monitor or VDM, where the module has it
  kPreFecBerRatio,           // port level: reported (SNMP PHY MIB) or derived from FEC counters
  kPostFecBerRatio,          // port level, where reported
  kLaserAgeRatio,            // CMIS VDM laser age (0 new, 1 end of life), worst lane
  kTecCurrentPercent,        // CMIS Aux monitor: TEC current, signed, % of the module's maximum
  kCount,
};

// Values a module reports per lane (1 lane for SFP, 4 for QSFP, 8+ for CMIS).
enum class LaneMetric : std::uint8_t {
  kTxBiasMilliamperes,
  kTxPowerDbm,
  kRxPowerDbm,
  kPreFecBerRatio,     // CMIS VDM media side (current), or derived per lane
  kPreFecBerMinRatio,  // VDM statistics over the module's interval
  kPreFecBerMaxRatio,
  kPreFecBerAvgRatio,
  kHostPreFecBerRatio,     // VDM host side (current)
  kErroredFramesRatio,     // VDM FERC media side (current)
  kEsnrDecibels,           // VDM eSNR media input
  kLtpDecibels,            // VDM PAM4 level transition parameter
  kHostPreFecBerMinRatio,  // VDM host side statistics, as the media side above
  kHostPreFecBerMaxRatio,
  kHostPreFecBerAvgRatio,
  kHostErroredFramesRatio,  // VDM FERC host side (current)
  kHostEsnrDecibels,        // VDM eSNR host input
  kHostLtpDecibels,         // VDM LTP host input
  // Coherent line side (OIF C-CMIS VDM observables, or a switch's coherent MIB).
  kOsnrDecibels,
  kChromaticDispersionPsPerNm,
  kDifferentialGroupDelayPicoseconds,
  kSopmdPicosecondsSquared,
  kPolarizationDependentLossDecibels,
  kCarrierFrequencyOffsetMegahertz,
  kRxTotalPowerDbm,
  kRxSignalPowerDbm,
  kQFactorDecibels,
  kErrorVectorMagnitudePercent,
  kSopRateOfChangeKiloradiansPerSecond,
  kModulatorBiasXIPercent,
  kModulatorBiasXQPercent,
  kModulatorBiasYIPercent,
  kModulatorBiasYQPercent,
  kModulatorBiasXPhasePercent,
  kModulatorBiasYPhasePercent,
  // VDM errored-frames statistics over the module's interval (types 17-22).
  kErroredFramesMinRatio,
  kErroredFramesMaxRatio,
  kErroredFramesAvgRatio,
  kHostErroredFramesMinRatio,
  kHostErroredFramesMaxRatio,
  kHostErroredFramesAvgRatio,
  // Statistics of the module's own sampling window where a switch streams them
  // (OpenConfig physical-channel avg/min/max beside the instant value).
  kRxPowerMinDbm,
  kRxPowerMaxDbm,
  kRxPowerAvgDbm,
  kTxPowerMinDbm,
  kTxPowerMaxDbm,
  kTxPowerAvgDbm,
  kTxBiasMinMilliamperes,
  kTxBiasMaxMilliamperes,
  kTxBiasAvgMilliamperes,
  kCount,
};

inline constexpr std::size_t kModuleMetricCount = static_cast<std::size_t>(ModuleMetric::kCount);
inline constexpr std::size_t kLaneMetricCount = static_cast<std::size_t>(LaneMetric::kCount);

// How a metric is named everywhere: `key` is the store column and the suffix
// of the Prometheus name (opticsd_module_<key> / opticsd_lane_<key>).
//
// `min`..`max` is the physically possible range, far wider than any module's
// alarm limits: a value outside it (a sensor scale of 10^24 giving 2e41 °C, a
// BER above 1) is a broken device or MIB, and is dropped as not reported
// rather than exported, alerted on or stored (drivers/plausibility.hpp).
struct MetricInfo {
  std::string_view key;
  std::string_view help;
  double min;
  double max;
};

inline constexpr std::array<MetricInfo, kModuleMetricCount> kModuleMetricInfo{{
    {"temperature_celsius", "Module case temperature in degrees Celsius.", -150, 250},
    {"supply_voltage_volts", "Module supply voltage (Vcc) in volts.", 0, 20},
    {"laser_temperature_celsius", "Laser temperature (CMIS Aux monitor or VDM) in degrees Celsius.", -150, 250},
    {"pre_fec_ber_ratio", "Port pre-FEC bit error ratio (reported, or corrected bits over bits carried).", 0, 1},
    {"post_fec_ber_ratio", "Port post-FEC bit error ratio where reported.", 0, 1},
    {"laser_age_ratio", "Laser age from CMIS VDM as a fraction of rated life (1 = end of life), worst lane.", 0, 100},
    {"tec_current_percent",
     "Thermo-electric cooler current (CMIS Aux monitor) in percent of the module's maximum, signed.", -100, 100},
}};

inline constexpr std::array<MetricInfo, kLaneMetricCount> kLaneMetricInfo{{
    {"tx_bias_milliamperes", "Laser bias current in milliamperes.", 0, 1000},
    {"tx_power_dbm", "Transmitted optical power in dBm (-40 dBm floor when dark).", -100, 40},
    {"rx_power_dbm", "Received optical power in dBm (-40 dBm floor when dark).", -100, 40},
    {"pre_fec_ber_ratio", "Lane pre-FEC bit error ratio, media side, current.", 0, 1},
    {"pre_fec_ber_min_ratio", "Lane pre-FEC bit error ratio, media side, minimum over the module's VDM interval.", 0,
     1},
    {"pre_fec_ber_max_ratio", "Lane pre-FEC bit error ratio, media side, maximum over the module's VDM interval.", 0,
     1},
    {"pre_fec_ber_avg_ratio", "Lane pre-FEC bit error ratio, media side, average over the module's VDM interval.", 0,
     1},
    {"host_pre_fec_ber_ratio", "Lane pre-FEC bit error ratio, host side, current.", 0, 1},
    {"errored_frames_ratio", "Lane errored frames ratio (VDM FERC), media side, current.", 0, 1},
    {"esnr_decibels", "Lane electrical signal-to-noise ratio (VDM eSNR) in dB.", -100, 300},
    {"ltp_decibels", "Lane PAM4 level transition parameter (VDM LTP) in dB.", -100, 300},
    {"host_pre_fec_ber_min_ratio", "Lane pre-FEC bit error ratio, host side, minimum over the module's VDM interval.",
     0, 1},
    {"host_pre_fec_ber_max_ratio", "Lane pre-FEC bit error ratio, host side, maximum over the module's VDM interval.",
     0, 1},
    {"host_pre_fec_ber_avg_ratio", "Lane pre-FEC bit error ratio, host side, average over the module's VDM interval.",
     0, 1},
    {"host_errored_frames_ratio", "Lane errored frames ratio (VDM FERC), host side, current.", 0, 1},
    {"host_esnr_decibels", "Lane electrical signal-to-noise ratio (VDM eSNR), host input, in dB.", -100, 300},
    {"host_ltp_decibels", "Lane PAM4 level transition parameter (VDM LTP), host input, in dB.", -100, 300},
    {"osnr_decibels", "Coherent line optical signal-to-noise ratio in dB.", -100, 100},
    {"chromatic_dispersion_ps_per_nm", "Coherent line chromatic dispersion seen by the receiver in ps/nm.", -1e6, 1e6},
    {"differential_group_delay_picoseconds", "Coherent line differential group delay in picoseconds.", 0, 1e5},
    {"sopmd_picoseconds_squared", "Coherent line second-order polarization mode dispersion in picoseconds squared.", 0,
     1e7},
    {"polarization_dependent_loss_decibels", "Coherent line polarization dependent loss in dB.", 0, 100},
    {"carrier_frequency_offset_megahertz", "Coherent receiver carrier frequency offset in MHz.", -1e6, 1e6},
    {"rx_total_power_dbm", "Coherent receiver total input power in dBm (all wavelengths).", -100, 40},
    {"rx_signal_power_dbm", "Coherent receiver signal (channel) power in dBm.", -100, 40},
    {"q_factor_decibels", "Line Q-factor in dB.", -100, 100},
    {"error_vector_magnitude_percent", "Coherent receiver error vector magnitude in percent.", 0, 1000},
    {"sop_rate_of_change_kiloradians_per_second", "Rate of change of the state of polarization in krad/s.", 0, 1e6},
    {"modulator_bias_x_i_percent", "Coherent modulator bias, X polarization in-phase, in percent.", -1000, 1000},
    {"modulator_bias_x_q_percent", "Coherent modulator bias, X polarization quadrature, in percent.", -1000, 1000},
    {"modulator_bias_y_i_percent", "Coherent modulator bias, Y polarization in-phase, in percent.", -1000, 1000},
    {"modulator_bias_y_q_percent", "Coherent modulator bias, Y polarization quadrature, in percent.", -1000, 1000},
    {"modulator_bias_x_phase_percent", "Coherent modulator bias, X polarization phase, in percent.", -1000, 1000},
    {"modulator_bias_y_phase_percent", "Coherent modulator bias, Y polarization phase, in percent.", -1000, 1000},
    {"errored_frames_min_ratio", "Lane errored frames ratio (VDM), media side, minimum over the module's VDM interval.",
     0, 1},
    {"errored_frames_max_ratio", "Lane errored frames ratio (VDM), media side, maximum over the module's VDM interval.",
     0, 1},
    {"errored_frames_avg_ratio", "Lane errored frames ratio (VDM), media side, average over the module's VDM interval.",
     0, 1},
    {"host_errored_frames_min_ratio",
     "Lane errored frames ratio (VDM), host side, minimum over the module's VDM interval.", 0, 1},
    {"host_errored_frames_max_ratio",
     "Lane errored frames ratio (VDM), host side, maximum over the module's VDM interval.", 0, 1},
    {"host_errored_frames_avg_ratio",
     "Lane errored frames ratio (VDM), host side, average over the module's VDM interval.", 0, 1},
    {"rx_power_min_dbm", "Received optical power in dBm, minimum over the switch's statistics interval.", -100, 40},
    {"rx_power_max_dbm", "Received optical power in dBm, maximum over the switch's statistics interval.", -100, 40},
    {"rx_power_avg_dbm", "Received optical power in dBm, average over the switch's statistics interval.", -100, 40},
    {"tx_power_min_dbm", "Transmitted optical power in dBm, minimum over the switch's statistics interval.", -100, 40},
    {"tx_power_max_dbm", "Transmitted optical power in dBm, maximum over the switch's statistics interval.", -100, 40},
    {"tx_power_avg_dbm", "Transmitted optical power in dBm, average over the switch's statistics interval.", -100, 40},
    {"tx_bias_min_milliamperes", "Laser bias current in milliamperes, minimum over the switch's statistics interval.",
     0, 1000},
    {"tx_bias_max_milliamperes", "Laser bias current in milliamperes, maximum over the switch's statistics interval.",
     0, 1000},
    {"tx_bias_avg_milliamperes", "Laser bias current in milliamperes, average over the switch's statistics interval.",
     0, 1000},
}};

constexpr const MetricInfo& info(ModuleMetric m) { return kModuleMetricInfo[static_cast<std::size_t>(m)]; }
constexpr const MetricInfo& info(LaneMetric m) { return kLaneMetricInfo[static_cast<std::size_t>(m)]; }

// Optical power has no dBm at 0 mW. opticsd reports the -40 dBm floor and a
// separate no-light flag; never -inf, NaN or 0 dBm (which would mean 1 mW).
inline constexpr double kNoLightFloorDbm = -40.0;

}  // namespace opticsd
