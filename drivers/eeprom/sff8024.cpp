#include "drivers/eeprom/sff8024.hpp"

#include <array>
#include <utility>

namespace opticsd::eeprom {
namespace {

constexpr Modulation kNrz = Modulation::kNrz;
constexpr Modulation kPam4 = Modulation::kPam4;
constexpr Modulation kUnk = Modulation::kUnknown;

struct Row {
  std::uint8_t code;
  InterfaceInfo info;
};

template <std::size_t N>
const InterfaceInfo* lookup(const std::array<Row, N>& table, std::uint8_t code) {
  for (const auto& row : table) {
    if (row.code == code) return &row.info;
  }
  return nullptr;
}

// SFF-8024 rev 4.11 Table 4-4, Extended Specification Compliance Codes.
constexpr std::array<Row, 38> kExtendedCompliance{{
    {0x01, {"100G AOC", 25, kNrz, "25G AOC"}},
    {0x02, {"100GBASE-SR4", 25, kNrz, "25GBASE-SR"}},
    {0x03, {"100GBASE-LR4", 25, kNrz, "25GBASE-LR"}},
    {0x04, {"100GBASE-ER4", 25, kNrz, "25GBASE-ER"}},
    {0x05, {"100GBASE-SR10", 10, kNrz}},
    {0x06, {"100G CWDM4", 25, kNrz}},
    {0x07, {"100G PSM4", 25, kNrz}},
    {0x08, {"100G ACC", 25, kNrz, "25G ACC"}},
    {0x0B, {"100GBASE-CR4", 25, kNrz, "25GBASE-CR CA-L"}},
    {0x0C, {"25GBASE-CR CA-S", 25, kNrz}},
    {0x0D, {"25GBASE-CR CA-N", 25, kNrz}},
    {0x10, {"40GBASE-ER4", 10, kNrz}},
    {0x11, {"4x10GBASE-SR", 10, kNrz}},
    {0x12, {"40G PSM4", 10, kNrz}},
    {0x16, {"10GBASE-T", 10, kUnk}},
    {0x17, {"100G CLR4", 25, kNrz}},
    {0x18, {"100G AOC", 25, kNrz, "25G AOC"}},
    {0x19, {"100G ACC", 25, kNrz, "25G ACC"}},
    {0x1A, {"100GE-DWDM2", 50, kPam4}},
    {0x1C, {"10GBASE-T SR", 10, kUnk}},
    {0x1D, {"5GBASE-T", 5, kUnk}},
    {0x1E, {"2.5GBASE-T", 2.5, kUnk}},
    {0x20, {"100G SWDM4", 25, kNrz}},
    {0x21, {"100G PAM4 BiDi", 50, kPam4}},
    {0x25, {"100GBASE-DR", 100, kPam4}},
    {0x26, {"100G-FR", 100, kPam4}},
    {0x27, {"100G-LR", 100, kPam4}},
    {0x28, {"100G-SR1", 100, kPam4}},
    {0x30, {"50G/100G/200G ACC", 50, kPam4}},
    {0x31, {"50G/100G/200G AOC", 50, kPam4}},
    {0x40, {"200GBASE-CR4", 50, kPam4, "50GBASE-CR"}},
    {0x41, {"200GBASE-SR4", 50, kPam4, "50GBASE-SR"}},
    {0x42, {"200GBASE-DR4", 50, kPam4, "50GBASE-FR"}},
    {0x43, {"200GBASE-FR4", 50, kPam4}},
    {0x44, {"200G PSM4", 50, kPam4}},
    {0x45, {"50GBASE-LR", 50, kPam4}},
    {0x46, {"200GBASE-LR4", 50, kPam4}},
    {0x47, {"400GBASE-DR4", 100, kPam4}},
}};

// SFF-8024 rev 4.11 Table 4-5, Host Electrical Interface IDs.
constexpr std::array<Row, 44> kHostInterfaces{{
    {0x01, {"1000BASE-CX", 1, kNrz}},
    {0x02, {"XAUI", 3.125, kNrz}},
    {0x03, {"XFI", 10, kNrz}},
    {0x04, {"SFI", 10, kNrz}},
    {0x05, {"25GAUI C2M", 25, kNrz}},
    {0x06, {"XLAUI C2M", 10, kNrz}},
    {0x07, {"XLPPI", 10, kNrz}},
    {0x08, {"LAUI-2 C2M", 25, kNrz}},
    {0x09, {"50GAUI-2 C2M", 25, kNrz}},
    {0x0A, {"50GAUI-1 C2M", 50, kPam4}},
    {0x0B, {"CAUI-4 C2M", 25, kNrz}},
    {0x0C, {"100GAUI-4 C2M", 25, kNrz}},
    {0x0D, {"100GAUI-2 C2M", 50, kPam4}},
    {0x0E, {"200GAUI-8 C2M", 25, kNrz}},
    {0x0F, {"200GAUI-4 C2M", 50, kPam4}},
    {0x10, {"400GAUI-16 C2M", 25, kNrz}},
    {0x11, {"400GAUI-8 C2M", 50, kPam4}},
    {0x13, {"10GBASE-CX4", 3.125, kNrz}},
    {0x14, {"25GBASE-CR CA-L", 25, kNrz}},
    {0x15, {"25GBASE-CR CA-S", 25, kNrz}},
    {0x16, {"25GBASE-CR CA-N", 25, kNrz}},
    {0x17, {"40GBASE-CR4", 10, kNrz}},
    {0x18, {"50GBASE-CR", 50, kPam4}},
    {0x19, {"100GBASE-CR10", 10, kNrz}},
    {0x1A, {"100GBASE-CR4", 25, kNrz}},
    {0x1B, {"100GBASE-CR2", 50, kPam4}},
    {0x1C, {"200GBASE-CR4", 50, kPam4}},
    {0x1D, {"400G CR8", 50, kPam4}},
    // 100 Gb/s a lane (IEEE 802.3 Annex 120G), where 800G modules start.
    {0x4B, {"100GAUI-1-S C2M", 100, kPam4}},
    {0x4C, {"100GAUI-1-L C2M", 100, kPam4}},
    {0x4D, {"200GAUI-2-S C2M", 100, kPam4}},
    {0x4E, {"200GAUI-2-L C2M", 100, kPam4}},
    {0x4F, {"400GAUI-4-S C2M", 100, kPam4}},
    {0x50, {"400GAUI-4-L C2M", 100, kPam4}},
    {0x51, {"800GAUI-8 S C2M", 100, kPam4}},
    {0x52, {"800GAUI-8 L C2M", 100, kPam4}},
    // 200 Gb/s a lane (106.25 GBd PAM4, IEEE 802.3dj): SFF-8024 rev 4.12 codes, as listed in SONiC's
    // 200G SerDes/1.6T design (doc/port-1.6t-support). Clause 179 copper, Annex 176E AUI.
    {0x1E, {"200GBASE-CR1", 200, kPam4}},
    {0x1F, {"400GBASE-CR2", 200, kPam4}},
    {0x57, {"800GBASE-CR4", 200, kPam4}},
    {0x58, {"1.6TBASE-CR8", 200, kPam4}},
    {0x80, {"200GAUI-1 C2M", 200, kPam4}},
    {0x81, {"400GAUI-2 C2M", 200, kPam4}},
    {0x82, {"800GAUI-4 C2M", 200, kPam4}},
    {0x83, {"1.6TAUI-8 C2M", 200, kPam4}},
}};

// SFF-8024 rev 4.11 Table 4-6, MMF Media Interface IDs.
constexpr std::array<Row, 21> kMmf{{
    {0x01, {"10GBASE-SW", 10, kNrz}},
    {0x02, {"10GBASE-SR", 10, kNrz}},
    {0x03, {"25GBASE-SR", 25, kNrz}},
    {0x04, {"40GBASE-SR4", 10, kNrz}},
    {0x05, {"40GE SWDM4", 10, kNrz}},
    {0x06, {"40GE BiDi", 20, kNrz}},
    {0x07, {"50GBASE-SR", 50, kPam4}},
    {0x08, {"100GBASE-SR10", 10, kNrz}},
    {0x09, {"100GBASE-SR4", 25, kNrz}},
    {0x0A, {"100GE SWDM4", 25, kNrz}},
    {0x0B, {"100GE BiDi", 50, kPam4}},
    {0x0C, {"100GBASE-SR2", 50, kPam4}},
    {0x0D, {"100G-SR", 100, kPam4}},
    {0x0E, {"200GBASE-SR4", 50, kPam4}},
    {0x0F, {"400GBASE-SR16", 25, kNrz}},
    {0x10, {"400GBASE-SR8", 50, kPam4}},
    {0x11, {"400G-SR4", 100, kPam4}},
    {0x12, {"800G-SR8", 100, kPam4}},
    {0x1A, {"400GBASE-SR4.2", 50, kPam4}},
    // SFF-8024 rev 4.12 (as listed in SONiC's 1.6T design): 8 lanes of 53.125 GBd PAM4 on 4 fibre pairs, 2 colours.
    {0x21, {"800G-VR4.2", 100, kPam4}},
    {0x22, {"800G-SR4.2", 100, kPam4}},
}};

// SFF-8024 rev 4.11 Table 4-7, SMF Media Interface IDs.
constexpr std::array<Row, 47> kSmf{{
    {0x01, {"10GBASE-LW", 10, kNrz}},
    {0x02, {"10GBASE-EW", 10, kNrz}},
    {0x03, {"10G-ZW", 10, kNrz}},
    {0x04, {"10GBASE-LR", 10, kNrz}},
    {0x05, {"10GBASE-ER", 10, kNrz}},
    {0x06, {"10G-ZR", 10, kNrz}},
    {0x07, {"25GBASE-LR", 25, kNrz}},
    {0x08, {"25GBASE-ER", 25, kNrz}},
    {0x09, {"40GBASE-LR4", 10, kNrz}},
    {0x0A, {"40GBASE-FR", 40, kNrz}},
    {0x0B, {"50GBASE-FR", 50, kPam4}},
    {0x0C, {"50GBASE-LR", 50, kPam4}},
    {0x0D, {"100GBASE-LR4", 25, kNrz}},
    {0x0E, {"100GBASE-ER4", 25, kNrz}},
    {0x0F, {"100G PSM4", 25, kNrz}},
    {0x10, {"100G CWDM4", 25, kNrz}},
    {0x11, {"100G 4WDM-10", 25, kNrz}},
    {0x12, {"100G 4WDM-20", 25, kNrz}},
    {0x13, {"100G 4WDM-40", 25, kNrz}},
    {0x14, {"100GBASE-DR", 100, kPam4}},
    {0x15, {"100G-FR", 100, kPam4}},
    {0x16, {"100G-LR", 100, kPam4}},
    {0x17, {"200GBASE-DR4", 50, kPam4}},
    {0x18, {"200GBASE-FR4", 50, kPam4}},
    {0x19, {"200GBASE-LR4", 50, kPam4}},
    {0x1A, {"400GBASE-FR8", 50, kPam4}},
    {0x1B, {"400GBASE-LR8", 50, kPam4}},
    {0x1C, {"400GBASE-DR4", 100, kPam4}},
    {0x1D, {"400G-FR4", 100, kPam4}},
    {0x1E, {"400G-LR4-10", 100, kPam4}},
    {0x3E, {"400ZR", 400, kUnk}},
    {0x3F, {"400ZR unamplified", 400, kUnk}},
    {0x43, {"400GBASE-LR4-6", 100, kPam4}},
    // 800G single-mode: 8 x 100G PAM4 (IEEE 802.3df); -2 is the 2 km reach.
    {0x55, {"400GBASE-DR4-2", 100, kPam4}},
    {0x56, {"800GBASE-DR8", 100, kPam4}},
    {0x57, {"800GBASE-DR8-2", 100, kPam4}},
    // 200 Gb/s a lane (IEEE 802.3dj clauses 180, 181, 183): SFF-8024 rev 4.12 codes, as listed in SONiC's
    // 200G SerDes/1.6T design (doc/port-1.6t-support); -2 is the 2 km reach.
    {0x73, {"200GBASE-DR1", 200, kPam4}},
    {0x74, {"200GBASE-DR1-2", 200, kPam4}},
    {0x75, {"400GBASE-DR2", 200, kPam4}},
    {0x76, {"400GBASE-DR2-2", 200, kPam4}},
    {0x77, {"800GBASE-DR4", 200, kPam4}},
    {0x78, {"800GBASE-DR4-2", 200, kPam4}},
    {0x79, {"800GBASE-FR4-500", 200, kPam4}},
    {0x7A, {"800GBASE-FR4", 200, kPam4}},
    {0x7B, {"800GBASE-LR4", 200, kPam4}},
    {0x7F, {"1.6TBASE-DR8", 200, kPam4}},
    {0x80, {"1.6TBASE-DR8-2", 200, kPam4}},
}};

// SFF-8024 rev 4.11 Table 4-8 (passive copper), 4-9 (active cable), 4-10 (BASE-T).
constexpr std::array<Row, 2> kPassiveCopper{{{0x01, {"passive copper"}}, {0xBF, {"passive loopback"}}}};
constexpr std::array<Row, 5> kActiveCable{{{0x01, {"active cable"}},
                                           {0x02, {"active cable"}},
                                           {0x03, {"active cable"}},
                                           {0x04, {"active cable"}},
                                           {0xBF, {"active loopback"}}}};
constexpr std::array<Row, 4> kBaseT{{{0x01, {"1000BASE-T", 1, kUnk}},
                                     {0x02, {"2.5GBASE-T", 2.5, kUnk}},
                                     {0x03, {"5GBASE-T", 5, kUnk}},
                                     {0x04, {"10GBASE-T", 10, kUnk}}}};

}  // namespace

ModuleFamily familyFromIdentifier(std::uint8_t identifier) {
  switch (identifier) {
    case 0x02:  // module soldered to motherboard (SFF-8472 memory map)
    case 0x03:  // SFP/SFP+/SFP28
    case 0x0B:  // DWDM-SFP/SFP+
      return ModuleFamily::kSff8472;
    case 0x0C:  // QSFP (INF-8438)
    case 0x0D:  // QSFP+ with SFF-8636/8436
    case 0x11:  // QSFP28 or later with SFF-8636
      return ModuleFamily::kSff8636;
    case 0x18:  // QSFP-DD
    case 0x19:  // OSFP
    case 0x1A:  // SFP-DD
    case 0x1B:  // DSFP
    case 0x1E:  // QSFP+ or later with CMIS (QSFP112, QSFP28 CMIS)
    case 0x1F:  // SFP-DD with CMIS
    case 0x20:  // SFP+ and later with CMIS
    case 0x21:  // OSFP-XD with CMIS
    case 0x22:  // OIF-ELSFP with CMIS
    case 0x23:  // CDFP (x4 PCIe) with CMIS
    case 0x24:  // CDFP (x8 PCIe) with CMIS
    case 0x25:  // CDFP (x16 PCIe) with CMIS
      return ModuleFamily::kCmis;
    default:
      return ModuleFamily::kUnknown;
  }
}

std::string_view formFactorName(std::uint8_t identifier) {
  switch (identifier) {
    case 0x02:
      return "soldered";
    case 0x03:
      return "SFP";
    case 0x0B:
      return "DWDM-SFP";
    case 0x0C:
      return "QSFP";
    case 0x0D:
      return "QSFP+";
    case 0x11:
      return "QSFP28";
    case 0x18:
      return "QSFP-DD";
    case 0x19:
      return "OSFP";
    case 0x1A:
      return "SFP-DD";
    case 0x1B:
      return "DSFP";
    case 0x1E:
      return "QSFP-CMIS";
    case 0x1F:
      return "SFP-DD-CMIS";
    case 0x20:
      return "SFP-CMIS";
    case 0x21:
      return "OSFP-XD";
    case 0x22:
      return "ELSFP";
    case 0x23:
    case 0x24:
    case 0x25:
      return "CDFP";
    default:
      return "";
  }
}

std::string_view connectorName(std::uint8_t code) {
  // SFF-8024 rev 4.11 Table 4-3, Connector Types.
  switch (code) {
    case 0x01:
      return "SC";
    case 0x02:
      return "FC Style 1 copper";
    case 0x03:
      return "FC Style 2 copper";
    case 0x04:
      return "BNC/TNC";
    case 0x05:
      return "FC coax headers";
    case 0x06:
      return "Fiberjack";
    case 0x07:
      return "LC";
    case 0x08:
      return "MT-RJ";
    case 0x09:
      return "MU";
    case 0x0A:
      return "SG";
    case 0x0B:
      return "Optical pigtail";
    case 0x0C:
      return "MPO 1x12";
    case 0x0D:
      return "MPO 2x16";
    case 0x20:
      return "HSSDC II";
    case 0x21:
      return "Copper pigtail";
    case 0x22:
      return "RJ45";
    case 0x23:
      return "No separable connector";
    case 0x24:
      return "MXC 2x16";
    case 0x25:
      return "CS";
    case 0x26:
      return "SN";
    case 0x27:
      return "MPO 2x12";
    case 0x28:
      return "MPO 1x16";
    default:
      return "";
  }
}

const InterfaceInfo* extendedCompliance(std::uint8_t code) { return lookup(kExtendedCompliance, code); }

const InterfaceInfo* mediaInterface(std::uint8_t media_type, std::uint8_t id) {
  switch (media_type) {
    case kMediaTypeMmf:
      return lookup(kMmf, id);
    case kMediaTypeSmf:
      return lookup(kSmf, id);
    case kMediaTypePassiveCopper:
      return lookup(kPassiveCopper, id);
    case kMediaTypeActiveCable:
      return lookup(kActiveCable, id);
    case kMediaTypeBaseT:
      return lookup(kBaseT, id);
    default:
      return nullptr;
  }
}

std::string_view encodingName(std::uint8_t code, bool sff8472) {
  switch (code) {
    case 0x01:
      return "8B/10B";
    case 0x02:
      return "4B/5B";
    case 0x03:
      return "NRZ";
    case 0x04:
      return sff8472 ? "Manchester" : "SONET Scrambled";
    case 0x05:
      return sff8472 ? "SONET Scrambled" : "64B/66B";
    case 0x06:
      return sff8472 ? "64B/66B" : "Manchester";
    case 0x07:
      return "256B/257B (transcoded FEC-enabled data)";
    case 0x08:
      return "PAM4";
    default:
      return "";
  }
}

std::string_view mediaTechnologyName(std::uint8_t code) {
  static constexpr std::string_view kNames[18] = {
      "850 nm VCSEL",
      "1310 nm VCSEL",
      "1550 nm VCSEL",
      "1310 nm FP",
      "1310 nm DFB",
      "1550 nm DFB",
      "1310 nm EML",
      "1550 nm EML",
      "Other",
      "1490 nm DFB",
      "Copper cable, unequalized",
      "Copper cable, passive equalized",
      "Copper cable, near and far end limiting active equalizers",
      "Copper cable, far end limiting active equalizers",
      "Copper cable, near end limiting active equalizers",
      "Copper cable, linear active equalizers",
      "C-band tunable laser",
      "L-band tunable laser",
  };
  return code < std::size(kNames) ? kNames[code] : std::string_view{};
}

const InterfaceInfo* hostInterface(std::uint8_t id) { return lookup(kHostInterfaces, id); }

}  // namespace opticsd::eeprom
