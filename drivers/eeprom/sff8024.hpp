#pragma once
// SFF-8024 (rev 4.11) code tables shared by the SFF-8472, SFF-8636 and CMIS
// decoders: identifiers, connectors, extended compliance codes and the CMIS
// host/media interface IDs. Static data, safe from any thread.

#include <cstdint>
#include <string_view>

#include "drivers/sample.hpp"

namespace opticsd::eeprom {

// Which management interface an SFF-8024 identifier (byte 0) implies.
// SFF-8024 rev 4.11 Table 4-1.
ModuleFamily familyFromIdentifier(std::uint8_t identifier);

// Short form-factor name ("SFP", "QSFP28", "QSFP-DD", "OSFP" ...), or "" when unknown.
std::string_view formFactorName(std::uint8_t identifier);

// Connector name, SFF-8024 rev 4.11 Table 4-3; "" for unknown codes.
std::string_view connectorName(std::uint8_t code);

// A named interface with what it implies for each lane.
struct InterfaceInfo {
  std::string_view name;
  double lane_gbps = 0;  // nominal data rate per lane (0: not derivable)
  Modulation modulation = Modulation::kUnknown;
  std::string_view single_lane_name = {};  // SFP reading of a shared code ("25GBASE-SR")
};

// Extended specification compliance, SFF-8024 rev 4.11 Table 4-4 (SFF-8472
// A0h byte 36, SFF-8636 page 00h byte 192). nullptr when not listed.
const InterfaceInfo* extendedCompliance(std::uint8_t code);

// CMIS MediaType (lower page byte 85, CMIS 5.2 Table 8-12): picks the media interface table.
inline constexpr std::uint8_t kMediaTypeMmf = 0x01;
inline constexpr std::uint8_t kMediaTypeSmf = 0x02;
inline constexpr std::uint8_t kMediaTypePassiveCopper = 0x03;
inline constexpr std::uint8_t kMediaTypeActiveCable = 0x04;
inline constexpr std::uint8_t kMediaTypeBaseT = 0x05;

// Media interface ID in the table selected by the media type: Table 4-6
// (MMF), 4-7 (SMF), 4-8 (passive copper), 4-9 (active cable), 4-10 (BASE-T).
const InterfaceInfo* mediaInterface(std::uint8_t media_type, std::uint8_t id);

// Encoding name, SFF-8024 Table 4-2; codes 4-6 differ between SFF-8472
// (`sff8472`) and SFF-8436/8636. "" for unspecified or unknown codes.
std::string_view encodingName(std::uint8_t code, bool sff8472);

// Transmitter / media interface technology name (CMIS byte 212; SFF-8636
// byte 147 bits 7-4 share codes 0-Fh). "" for unknown codes.
std::string_view mediaTechnologyName(std::uint8_t code);

// Host electrical interface ID, SFF-8024 rev 4.11 Table 4-5.
const InterfaceInfo* hostInterface(std::uint8_t id);

}  // namespace opticsd::eeprom
