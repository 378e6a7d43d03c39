#include "drivers/snmp/lldp.hpp"

namespace opticsd::snmp {

std::vector<Oid> lldpWalkRoots() {
  return {oids::kLldpLocPortEntry.child(2), oids::kLldpLocPortEntry.child(3), oids::kLldpLocPortEntry.child(4),
          oids::kLldpRemEntry.child(7),     oids::kLldpRemEntry.child(8),     oids::kLldpRemEntry.child(9)};
}

std::vector<LinkNeighbor> decodeLldp(const VarbindStore& store) {
  std::vector<LinkNeighbor> out;
  auto loc_subtype = store.column(oids::kLldpLocPortEntry, 2);
  auto loc_id = store.column(oids::kLldpLocPortEntry, 3);
  auto loc_desc = store.column(oids::kLldpLocPortEntry, 4);
  auto rem_port_id = store.column(oids::kLldpRemEntry, 7);
  auto rem_port_desc = store.column(oids::kLldpRemEntry, 8);
  auto rem_sys_name = store.column(oids::kLldpRemEntry, 9);
  for (const auto& vb : rem_sys_name.rows()) {
    auto index = rem_sys_name.indexOf(vb);
    if (index.size() != 3) continue;
    std::uint32_t local = index[1];
    LinkNeighbor n;
    n.remote_system = vb.asText().value_or("");
    // LldpPortIdSubtype interfaceName(5) and local(7) carry a usable name.
    const auto* subtype = loc_subtype.find(local);
    const auto* id = loc_id.find(local);
    const auto* desc = loc_desc.find(local);
    auto st = subtype ? subtype->asInteger() : std::nullopt;
    if (id && st && (*st == 5 || *st == 7)) n.port = id->asText().value_or("");
    if (n.port.empty() && desc) n.port = desc->asText().value_or("");
    if (n.port.empty()) n.port = "lldpLocPortNum" + std::to_string(local);
    if (const auto* rp = rem_port_id.find(index)) n.remote_port = rp->asText().value_or("");
    bool printable = true;
    for (char ch : n.remote_port) printable = printable && ch >= 0x20 && ch < 0x7f;
    if ((n.remote_port.empty() || !printable)) {
      if (const auto* rd = rem_port_desc.find(index)) n.remote_port = rd->asText().value_or("");
    }
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace opticsd::snmp
