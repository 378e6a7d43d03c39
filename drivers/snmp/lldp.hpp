#pragma once
// LLDP-MIB (IEEE 802.1AB-2005, lldpRemTable 1.0.8802.1.1.2.1.4.1) to
// LinkNeighbor: who sits at the far end of each port, for the rules
// engine's host/GPU mapping. Pure.

#include <vector>

#include "drivers/driver.hpp"
#include "drivers/snmp/varbind_store.hpp"

namespace opticsd::snmp {

namespace oids {
inline const Oid kLldpLocPortEntry{1, 0, 8802, 1, 1, 2, 1, 3, 7, 1};  // 2 id subtype, 3 id, 4 desc
inline const Oid kLldpRemEntry{1, 0, 8802, 1, 1, 2, 1, 4, 1, 1};      // index timeMark.localPortNum.index
}  // namespace oids

std::vector<Oid> lldpWalkRoots();
std::vector<LinkNeighbor> decodeLldp(const VarbindStore& store);

}  // namespace opticsd::snmp
