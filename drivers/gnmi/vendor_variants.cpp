#include "drivers/gnmi/vendor_variants.hpp"

#include <array>

#include "drivers/sample.hpp"

namespace opticsd::gnmi {
namespace {

constexpr auto mod(ModuleMetric m) { return static_cast<std::uint8_t>(m); }
constexpr auto lane(LaneMetric m) { return static_cast<std::uint8_t>(m); }
// The row of kLaneFlagInfo named `key` (a misspelt key fails to compile).
consteval std::uint8_t status(std::string_view key) {
  for (std::size_t i = 0; i < kLaneFlagInfo.size(); ++i) {
    if (kLaneFlagInfo[i].key == key) return static_cast<std::uint8_t>(i);
  }
  throw "no such lane status";
}

// ---- OpenConfig: openconfig-platform, -platform-transceiver, -interfaces.
// Served by Arista EOS, Cisco IOS-XR and NX-OS, Juniper Junos/EVO, Nokia SR OS.
#define OC_COMPONENT "/components/component[name=$component]"
#define OC_XCVR OC_COMPONENT "/transceiver"
#define OC_CHANNEL OC_XCVR "/physical-channels/channel[index=$lane]/state"
#define OC_THRESHOLD OC_XCVR "/thresholds/threshold[severity=$severity]/state"
#define OC_IF "/interfaces/interface[name=$port]"

constexpr LeafRule kOpenConfigRules[] = {
    {OC_COMPONENT "/state/temperature/instant", Leaf::kModuleValue, mod(ModuleMetric::kTemperatureCelsius), 0, true},
    {OC_XCVR "/state/supply-voltage/instant", Leaf::kModuleValue, mod(ModuleMetric::kSupplyVoltageVolts)},
    {OC_XCVR "/state/pre-fec-ber/instant", Leaf::kModuleValue, mod(ModuleMetric::kPreFecBerRatio)},
    {OC_XCVR "/state/post-fec-ber/instant", Leaf::kModuleValue, mod(ModuleMetric::kPostFecBerRatio)},
    {OC_XCVR "/state/present", Leaf::kPresent},
    {OC_XCVR "/state/form-factor", Leaf::kFormFactor},
    {OC_XCVR "/state/vendor", Leaf::kVendor},
    {OC_XCVR "/state/vendor-part", Leaf::kPartNumber},
    {OC_XCVR "/state/serial-no", Leaf::kSerial},
    {OC_XCVR "/state/vendor-rev", Leaf::kRevision},
    {OC_XCVR "/state/ethernet-pmd", Leaf::kMedia},
    {OC_XCVR "/state/date-code", Leaf::kDateCode},
    {OC_XCVR "/state/connector-type", Leaf::kConnector},
    {OC_COMPONENT "/state/firmware-version", Leaf::kFirmware, 0, 0, true},
    {OC_XCVR "/state/fec-corrected-bits", Leaf::kFecCorrectedBits},
    {OC_XCVR "/state/fec-uncorrectable-blocks", Leaf::kFecUncorrectableBlocks},
    {OC_XCVR "/state/fec-corrected-blocks", Leaf::kFecCorrectedBlocks},  // transceiver model 0.18.0
    {OC_CHANNEL "/input-power/instant", Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm)},
    {OC_CHANNEL "/input-power/min", Leaf::kLaneValue, lane(LaneMetric::kRxPowerMinDbm)},
    {OC_CHANNEL "/input-power/max", Leaf::kLaneValue, lane(LaneMetric::kRxPowerMaxDbm)},
    {OC_CHANNEL "/input-power/avg", Leaf::kLaneValue, lane(LaneMetric::kRxPowerAvgDbm)},
    {OC_CHANNEL "/output-power/instant", Leaf::kLaneValue, lane(LaneMetric::kTxPowerDbm)},
    {OC_CHANNEL "/output-power/min", Leaf::kLaneValue, lane(LaneMetric::kTxPowerMinDbm)},
    {OC_CHANNEL "/output-power/max", Leaf::kLaneValue, lane(LaneMetric::kTxPowerMaxDbm)},
    {OC_CHANNEL "/output-power/avg", Leaf::kLaneValue, lane(LaneMetric::kTxPowerAvgDbm)},
    {OC_CHANNEL "/laser-bias-current/instant", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMilliamperes)},
    {OC_CHANNEL "/laser-bias-current/min", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMinMilliamperes)},
    {OC_CHANNEL "/laser-bias-current/max", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMaxMilliamperes)},
    {OC_CHANNEL "/laser-bias-current/avg", Leaf::kLaneValue, lane(LaneMetric::kTxBiasAvgMilliamperes)},
    // Channel flags, transceiver model 0.16.0 (CMIS 5.0 Tables 8-77/8-78).
    {OC_CHANNEL "/tx-failure", Leaf::kLaneStatus, status("tx_fault")},
    {OC_CHANNEL "/rx-los", Leaf::kLaneStatus, status("rx_los")},
    {OC_CHANNEL "/rx-cdr-lol", Leaf::kLaneStatus, status("rx_lol")},
    {OC_THRESHOLD "/module-temperature-upper", Leaf::kModuleThresholdUpper, mod(ModuleMetric::kTemperatureCelsius)},
    {OC_THRESHOLD "/module-temperature-lower", Leaf::kModuleThresholdLower, mod(ModuleMetric::kTemperatureCelsius)},
    {OC_THRESHOLD "/supply-voltage-upper", Leaf::kModuleThresholdUpper, mod(ModuleMetric::kSupplyVoltageVolts)},
    {OC_THRESHOLD "/supply-voltage-lower", Leaf::kModuleThresholdLower, mod(ModuleMetric::kSupplyVoltageVolts)},
    {OC_THRESHOLD "/laser-bias-current-upper", Leaf::kLaneThresholdUpper, lane(LaneMetric::kTxBiasMilliamperes)},
    {OC_THRESHOLD "/laser-bias-current-lower", Leaf::kLaneThresholdLower, lane(LaneMetric::kTxBiasMilliamperes)},
    {OC_THRESHOLD "/input-power-upper", Leaf::kLaneThresholdUpper, lane(LaneMetric::kRxPowerDbm)},
    {OC_THRESHOLD "/input-power-lower", Leaf::kLaneThresholdLower, lane(LaneMetric::kRxPowerDbm)},
    {OC_THRESHOLD "/output-power-upper", Leaf::kLaneThresholdUpper, lane(LaneMetric::kTxPowerDbm)},
    {OC_THRESHOLD "/output-power-lower", Leaf::kLaneThresholdLower, lane(LaneMetric::kTxPowerDbm)},
    {"/interfaces/interface[name=$port]/state/transceiver", Leaf::kInterfaceTransceiver},
    {"/interfaces/interface[name=$port]/state/physical-channel", Leaf::kInterfaceChannels},
    {"/interfaces/interface[name=$port]/state/oper-status", Leaf::kInterfaceOperStatus},
    // Interface PHY FEC counters as NVIDIA Cumulus Linux streams them (its own
    // augment of the interfaces tree; upstream openconfig-if-ethernet has
    // none): before 5.15 under ethernet/phy/state, from 5.15 under phy/fec/state.
    {OC_IF "/ethernet/phy/state/corrected-bits", Leaf::kInterfaceFecCorrectedBits},
    {OC_IF "/ethernet/phy/state/rs-fec-uncorrectable-blocks", Leaf::kInterfaceFecUncorrectableBlocks},
    {OC_IF "/phy/fec/state/corrected-bits", Leaf::kInterfaceFecCorrectedBits},
    {OC_IF "/phy/fec/state/rs-fec-uncorrectable-blocks", Leaf::kInterfaceFecUncorrectableBlocks},
};

// The channel's whole state container: instant, avg/min/max and the flags.
#define OC_SAMPLE_PATHS                                                                                                \
  "/components/component/state/temperature/instant", "/components/component/transceiver/state/supply-voltage/instant", \
      "/components/component/transceiver/state/pre-fec-ber/instant",                                                   \
      "/components/component/transceiver/state/post-fec-ber/instant",                                                  \
      "/components/component/transceiver/state/fec-corrected-bits",                                                    \
      "/components/component/transceiver/state/fec-uncorrectable-blocks",                                              \
      "/components/component/transceiver/physical-channels/channel/state"
constexpr std::string_view kOpenConfigSamplePaths[] = {OC_SAMPLE_PATHS};
// Cumulus Linux 5.15 and later: the OpenConfig paths plus its PHY FEC counters.
constexpr std::string_view kCumulusSamplePaths[] = {OC_SAMPLE_PATHS, "/interfaces/interface/phy/fec/state"};
constexpr std::string_view kOpenConfigOnChangePaths[] = {
    "/components/component/transceiver/state/present",        "/components/component/transceiver/state/form-factor",
    "/components/component/transceiver/state/vendor",         "/components/component/transceiver/state/vendor-part",
    "/components/component/transceiver/state/serial-no",      "/components/component/transceiver/state/vendor-rev",
    "/components/component/transceiver/state/ethernet-pmd",   "/components/component/transceiver/state/date-code",
    "/components/component/transceiver/state/connector-type", "/components/component/state/firmware-version",
    "/components/component/transceiver/thresholds",           "/interfaces/interface/state/transceiver",
    "/interfaces/interface/state/physical-channel",           "/interfaces/interface/state/oper-status",
};

// ---- Nokia SR Linux native model: transceiver data under the interface.
#define SRL_XCVR "/interface[name=$port]/transceiver"
constexpr LeafRule kSrLinuxRules[] = {
    {SRL_XCVR "/temperature/latest-value", Leaf::kModuleValue, mod(ModuleMetric::kTemperatureCelsius)},
    {SRL_XCVR "/voltage/latest-value", Leaf::kModuleValue, mod(ModuleMetric::kSupplyVoltageVolts)},
    {SRL_XCVR "/form-factor", Leaf::kFormFactor},
    {SRL_XCVR "/vendor", Leaf::kVendor},
    {SRL_XCVR "/vendor-part-number", Leaf::kPartNumber},
    {SRL_XCVR "/serial-number", Leaf::kSerial},
    {SRL_XCVR "/ethernet-pmd", Leaf::kMedia},
    {SRL_XCVR "/channel[index=$lane]/input-power/latest-value", Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm)},
    {SRL_XCVR "/channel[index=$lane]/output-power/latest-value", Leaf::kLaneValue, lane(LaneMetric::kTxPowerDbm)},
    {SRL_XCVR "/channel[index=$lane]/laser-bias-current/latest-value", Leaf::kLaneValue,
     lane(LaneMetric::kTxBiasMilliamperes)},
    {"/interface[name=$port]/oper-state", Leaf::kInterfaceOperStatus},
};
constexpr std::string_view kSrLinuxSamplePaths[] = {
    "/interface/transceiver/temperature/latest-value",
    "/interface/transceiver/voltage/latest-value",
    "/interface/transceiver/channel",
};
constexpr std::string_view kSrLinuxOnChangePaths[] = {
    "/interface/transceiver/form-factor",        "/interface/transceiver/vendor",
    "/interface/transceiver/vendor-part-number", "/interface/transceiver/serial-number",
    "/interface/transceiver/ethernet-pmd",       "/interface/oper-state",
};

// ---- SONiC's telemetry container: its own STATE_DB transceiver tables, a
// table row per interface, the lane in the field name.
#define SONIC_DOM "/TRANSCEIVER_DOM_SENSOR/$port/"
#define SONIC_LANE(n)                                                                    \
  {SONIC_DOM "rx" #n "power", Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm), n},       \
      {SONIC_DOM "tx" #n "power", Leaf::kLaneValue, lane(LaneMetric::kTxPowerDbm), n}, { \
    SONIC_DOM "tx" #n "bias", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMilliamperes), n \
  }
constexpr LeafRule kSonicRules[] = {
    {SONIC_DOM "temperature", Leaf::kModuleValue, mod(ModuleMetric::kTemperatureCelsius)},
    {SONIC_DOM "voltage", Leaf::kModuleValue, mod(ModuleMetric::kSupplyVoltageVolts)},
    SONIC_LANE(1),
    SONIC_LANE(2),
    SONIC_LANE(3),
    SONIC_LANE(4),
    SONIC_LANE(5),
    SONIC_LANE(6),
    SONIC_LANE(7),
    SONIC_LANE(8),
    {"/TRANSCEIVER_INFO/$port/manufacturer", Leaf::kVendor},
    {"/TRANSCEIVER_INFO/$port/model", Leaf::kPartNumber},
    {"/TRANSCEIVER_INFO/$port/serial", Leaf::kSerial},
    {"/TRANSCEIVER_INFO/$port/type", Leaf::kFormFactor},
    {"/TRANSCEIVER_INFO/$port/hardware_rev", Leaf::kRevision},
    {"/PORT_TABLE/$port/oper_status", Leaf::kInterfaceOperStatus},
};
constexpr std::string_view kSonicSamplePaths[] = {"/TRANSCEIVER_DOM_SENSOR"};
constexpr std::string_view kSonicOnChangePaths[] = {"/TRANSCEIVER_INFO", "/PORT_TABLE"};

// ---- Junos native telemetry (JTI), sensor /junos/system/linecard/optics/.
// Leaves as Juniper's optics.proto names them (OpticsInfos keyed by if_name,
// OpticsDiagStats, OpticsDiagLaneStats keyed by lane_number), rendered as
// gNMI paths under the interface: .../optics/module_temp,
// .../optics/lanediags/lane[lane_number=N]/lane_laser_receiver_power_dbm.
// Power in dBm, bias in mA, temperature in degrees C (the proto's field
// names and Junos' "show interfaces diagnostics optics"); lanes from 0.
#define JUNOS_OPTICS "/interfaces/interface[name=$port]/optics"
#define JUNOS_LANE JUNOS_OPTICS "/lanediags/lane[lane_number=$lane]"
constexpr LeafRule kJunosRules[] = {
    {JUNOS_OPTICS "/module_temp", Leaf::kModuleValue, mod(ModuleMetric::kTemperatureCelsius)},
    {JUNOS_OPTICS "/module_temp_high_alarm_threshold", Leaf::kModuleThresholdUpper,
     mod(ModuleMetric::kTemperatureCelsius), 0, false, "CRITICAL"},
    {JUNOS_OPTICS "/module_temp_low_alarm_threshold", Leaf::kModuleThresholdLower,
     mod(ModuleMetric::kTemperatureCelsius), 0, false, "CRITICAL"},
    {JUNOS_OPTICS "/module_temp_high_warning_threshold", Leaf::kModuleThresholdUpper,
     mod(ModuleMetric::kTemperatureCelsius), 0, false, "WARNING"},
    {JUNOS_OPTICS "/module_temp_low_warning_threshold", Leaf::kModuleThresholdLower,
     mod(ModuleMetric::kTemperatureCelsius), 0, false, "WARNING"},
    {JUNOS_OPTICS "/laser_output_power_high_alarm_threshold_dbm", Leaf::kLaneThresholdUpper,
     lane(LaneMetric::kTxPowerDbm), 0, false, "CRITICAL"},
    {JUNOS_OPTICS "/laser_output_power_low_alarm_threshold_dbm", Leaf::kLaneThresholdLower,
     lane(LaneMetric::kTxPowerDbm), 0, false, "CRITICAL"},
    {JUNOS_OPTICS "/laser_output_power_high_warning_threshold_dbm", Leaf::kLaneThresholdUpper,
     lane(LaneMetric::kTxPowerDbm), 0, false, "WARNING"},
    {JUNOS_OPTICS "/laser_output_power_low_warning_threshold_dbm", Leaf::kLaneThresholdLower,
     lane(LaneMetric::kTxPowerDbm), 0, false, "WARNING"},
    {JUNOS_OPTICS "/laser_rx_power_high_alarm_threshold_dbm", Leaf::kLaneThresholdUpper, lane(LaneMetric::kRxPowerDbm),
     0, false, "CRITICAL"},
    {JUNOS_OPTICS "/laser_rx_power_low_alarm_threshold_dbm", Leaf::kLaneThresholdLower, lane(LaneMetric::kRxPowerDbm),
     0, false, "CRITICAL"},
    {JUNOS_OPTICS "/laser_rx_power_high_warning_threshold_dbm", Leaf::kLaneThresholdUpper,
     lane(LaneMetric::kRxPowerDbm), 0, false, "WARNING"},
    {JUNOS_OPTICS "/laser_rx_power_low_warning_threshold_dbm", Leaf::kLaneThresholdLower, lane(LaneMetric::kRxPowerDbm),
     0, false, "WARNING"},
    {JUNOS_OPTICS "/laser_bias_current_high_alarm_threshold", Leaf::kLaneThresholdUpper,
     lane(LaneMetric::kTxBiasMilliamperes), 0, false, "CRITICAL"},
    {JUNOS_OPTICS "/laser_bias_current_low_alarm_threshold", Leaf::kLaneThresholdLower,
     lane(LaneMetric::kTxBiasMilliamperes), 0, false, "CRITICAL"},
    {JUNOS_OPTICS "/laser_bias_current_high_warning_threshold", Leaf::kLaneThresholdUpper,
     lane(LaneMetric::kTxBiasMilliamperes), 0, false, "WARNING"},
    {JUNOS_OPTICS "/laser_bias_current_low_warning_threshold", Leaf::kLaneThresholdLower,
     lane(LaneMetric::kTxBiasMilliamperes), 0, false, "WARNING"},
    {JUNOS_LANE "/lane_laser_output_power_dbm", Leaf::kLaneValue, lane(LaneMetric::kTxPowerDbm)},
    {JUNOS_LANE "/lane_laser_receiver_power_dbm", Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm)},
    {JUNOS_LANE "/lane_laser_bias_current", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMilliamperes)},
    {JUNOS_LANE "/lane_rx_loss_of_signal_alarm", Leaf::kLaneStatus, status("rx_los")},
    {JUNOS_LANE "/lane_tx_loss_of_signal_alarm", Leaf::kLaneStatus, status("tx_los")},
};
constexpr std::string_view kJunosSamplePaths[] = {"/junos/system/linecard/optics"};

// ---- Cisco IOS-XR native: Cisco-IOS-XR-controller-optics-oper. optics-info
// per optics controller ("Optics0/0/0/0"); lane-data is a list whose entries
// carry lane-index as a leaf (sent keyless in PROTO, entries of an array in
// JSON_IETF: see NotificationDecoder). receive-power and transmit-power are
// integers in 0.01 dBm (as OpenConfig's functional translator for IOS-XR
// 24.3 divides them); laser-bias-current-milli-amps is in mA.
#define XR_INFO "/optics-oper/optics-ports/optics-port[name=$port]/optics-info"
#define XR_LANE XR_INFO "/lane-data[lane-index=$lane]"
constexpr LeafRule kIosXrRules[] = {
    {XR_LANE "/receive-power", Leaf::kLaneValue, lane(LaneMetric::kRxPowerDbm), 0, false, {}, 0.01},
    {XR_LANE "/transmit-power", Leaf::kLaneValue, lane(LaneMetric::kTxPowerDbm), 0, false, {}, 0.01},
    {XR_LANE "/laser-bias-current-milli-amps", Leaf::kLaneValue, lane(LaneMetric::kTxBiasMilliamperes)},
    {XR_INFO "/transceiver-info/vendor-name", Leaf::kVendor},
    {XR_INFO "/transceiver-info/optics-vendor-part", Leaf::kPartNumber},
    {XR_INFO "/transceiver-info/optics-vendor-rev", Leaf::kRevision},
};
constexpr std::string_view kIosXrSamplePaths[] = {"/optics-oper/optics-ports/optics-port/optics-info"};
constexpr std::string_view kIosXrOrigins[] = {"", "Cisco-IOS-XR-controller-optics-oper", "rfc7951"};

// gNMI 0.10 section 2.7.1: an unset origin is the openconfig schema; rfc7951
// names the same model with module-qualified element names.
constexpr std::string_view kOpenConfigOrigins[] = {"", "openconfig", "rfc7951"};
constexpr std::string_view kNativeOrigins[] = {"", "rfc7951"};

constexpr VendorVariant kVariants[] = {
    {"openconfig",
     "OpenConfig platform-transceiver and interfaces (Arista EOS, Cisco IOS-XR/NX-OS, Juniper, Nokia SR OS)", "", "",
     kOpenConfigSamplePaths, kOpenConfigOnChangePaths, kOpenConfigRules, kOpenConfigOrigins, 0, true, true},
    {"cumulus", "OpenConfig as the openconfig variant, plus NVIDIA Cumulus Linux 5.15+ interface PHY FEC counters", "",
     "", kCumulusSamplePaths, kOpenConfigOnChangePaths, kOpenConfigRules, kOpenConfigOrigins, 0, true, true},
    {"srlinux", "Nokia SR Linux native interface transceiver model", "", "", kSrLinuxSamplePaths, kSrLinuxOnChangePaths,
     kSrLinuxRules, kNativeOrigins, 1, true, false},
    {"sonic", "SONiC telemetry STATE_DB transceiver tables", "", "STATE_DB", kSonicSamplePaths, kSonicOnChangePaths,
     kSonicRules, kNativeOrigins, 1, false, false},
    {"junos",
     "Junos native telemetry (JTI) optics sensor /junos/system/linecard/optics/",
     "",
     "",
     kJunosSamplePaths,
     {},
     kJunosRules,
     kNativeOrigins,
     0,
     true,
     false},
    {"iosxr",
     "Cisco IOS-XR native Cisco-IOS-XR-controller-optics-oper optics-info",
     "Cisco-IOS-XR-controller-optics-oper",
     "",
     kIosXrSamplePaths,
     {},
     kIosXrRules,
     kIosXrOrigins,
     1,
     true,
     false},
};

}  // namespace

std::span<const VendorVariant> vendorVariants() { return kVariants; }

const VendorVariant* findVendorVariant(std::string_view name) {
  for (const auto& v : kVariants) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

}  // namespace opticsd::gnmi
