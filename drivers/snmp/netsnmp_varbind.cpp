#include "drivers/snmp/netsnmp_varbind.hpp"

// clang-format off
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
// clang-format on

namespace opticsd::snmp {

Result<Varbind> fromNetsnmp(const netsnmp_variable_list& var) {
  if (var.name_length > kMaxOidArcs || (var.name_length && !var.name)) return fail("varbind name too long or missing");
  std::vector<std::uint32_t> arcs;
  arcs.reserve(var.name_length);
  for (std::size_t i = 0; i < var.name_length; ++i) {
    if (var.name[i] > 0xFFFFFFFFul) return fail("varbind name has an arc above 2^32-1");
    arcs.push_back(static_cast<std::uint32_t>(var.name[i]));
  }
  Varbind vb;
  vb.oid = Oid(std::move(arcs));
  switch (var.type) {
    case ASN_INTEGER:
      if (!var.val.integer || var.val_len < sizeof(long)) return fail("INTEGER without value");
      vb.type = VarType::kInteger;
      vb.integer = *var.val.integer;
      break;
    case ASN_OCTET_STR:
    case ASN_OPAQUE:
      vb.type = var.type == ASN_OPAQUE ? VarType::kOpaque : VarType::kOctetString;
      if (var.val_len) {
        if (!var.val.string) return fail("OCTET STRING without value");
        vb.text.assign(reinterpret_cast<const char*>(var.val.string), var.val_len);
      }
      break;
    case ASN_OBJECT_ID: {
      vb.type = VarType::kObjectId;
      std::size_t n = var.val_len / sizeof(oid);
      if (n > kMaxOidArcs || (n && !var.val.objid)) return fail("OBJECT IDENTIFIER value too long");
      std::vector<std::uint32_t> value;
      for (std::size_t i = 0; i < n; ++i) value.push_back(static_cast<std::uint32_t>(var.val.objid[i]));
      vb.oid_value = Oid(std::move(value));
      break;
    }
    case ASN_IPADDRESS:
      if (var.val_len != 4 || !var.val.string) return fail("IpAddress of length " + std::to_string(var.val_len));
      vb.type = VarType::kIpAddress;
      vb.text = std::to_string(var.val.string[0]) + "." + std::to_string(var.val.string[1]) + "." +
                std::to_string(var.val.string[2]) + "." + std::to_string(var.val.string[3]);
      break;
    case ASN_COUNTER:
    case ASN_GAUGE:
    case ASN_TIMETICKS:
      if (!var.val.integer || var.val_len < sizeof(long)) return fail("unsigned value missing");
      vb.type = var.type == ASN_COUNTER ? VarType::kCounter32
                : var.type == ASN_GAUGE ? VarType::kGauge32
                                        : VarType::kTimeTicks;
      vb.unsigned_value = static_cast<unsigned long>(*var.val.integer) & 0xFFFFFFFFul;
      break;
    case ASN_COUNTER64:
      if (!var.val.counter64 || var.val_len < sizeof(struct counter64)) return fail("Counter64 value missing");
      vb.type = VarType::kCounter64;
      vb.unsigned_value = (static_cast<std::uint64_t>(var.val.counter64->high & 0xFFFFFFFFul) << 32) |
                          (var.val.counter64->low & 0xFFFFFFFFul);
      break;
    case ASN_NULL:
      vb.type = VarType::kNull;
      break;
    case SNMP_NOSUCHOBJECT:
      vb.type = VarType::kNoSuchObject;
      break;
    case SNMP_NOSUCHINSTANCE:
      vb.type = VarType::kNoSuchInstance;
      break;
    case SNMP_ENDOFMIBVIEW:
      vb.type = VarType::kEndOfMibView;
      break;
    default:
      return fail("unsupported ASN.1 type 0x" + std::to_string(static_cast<int>(var.type)));
  }
  return vb;
}

}  // namespace opticsd::snmp
