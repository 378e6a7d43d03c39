#pragma once
// Reads snmpsim's .snmprec record format ("OID|TAG|VALUE", one a line; tags
// 2 INTEGER, 4 OCTET STRING, 4x hex string, 5 NULL, 6 OID, 64 IpAddress,
// 65 Counter32, 66 Gauge32, 67 TimeTicks, 70 Counter64) into varbinds, so
// that the same fixture feeds a real snmpsim agent and the map-backed mock.

#include <string>
#include <string_view>
#include <vector>

#include "drivers/result.hpp"
#include "drivers/snmp/varbind.hpp"

namespace opticsd::snmp {

Result<std::vector<Varbind>> parseSnmprec(std::string_view text);
Result<std::vector<Varbind>> readSnmprecFile(const std::string& path);

}  // namespace opticsd::snmp
