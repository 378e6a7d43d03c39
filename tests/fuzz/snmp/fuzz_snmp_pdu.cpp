// What the session does with an agent's answer, minus the socket: net-snmp's
// BER parser (snmp_pdu_parse) on arbitrary bytes, then fromNetsnmp() on every
// variable it yields, then the varbinds into a store and through the Arista
// profile. A second mode feeds fromNetsnmp() hand-built variables with any
// type tag and value length (what a buggy parser could hand over).
#include <cstdlib>
#include <cstring>

// clang-format off
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
// clang-format on

#include "drivers/snmp/netsnmp_varbind.hpp"
#include "drivers/snmp/profile.hpp"
#include "drivers/snmp/profile_decoder.hpp"

namespace {

const opticsd::snmp::Profile& arista() {
  static auto p =
      opticsd::snmp::loadProfileFile(std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles/arista-eos.yaml");
  if (!p) std::abort();
  return *p;
}

void convertAll(const netsnmp_variable_list* vars) {
  std::vector<opticsd::snmp::Varbind> out;
  for (auto* v = vars; v; v = v->next_variable) {
    auto vb = opticsd::snmp::fromNetsnmp(*v);
    if (vb) out.push_back(std::move(*vb));
  }
  opticsd::snmp::VarbindStore store(std::move(out));
  (void)opticsd::snmp::decode(arista(), store, "fuzz", 0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("MIBS", "", 1);
  setenv("MIBDIRS", "/nonexistent", 1);
  snmp_disable_log();
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
  netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
  init_snmp("opticsd-fuzz");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  if (data[0] & 1) {
    // snmp_pdu_parse starts at the PDU (after version and community).
    std::vector<u_char> buf(data + 1, data + size);
    size_t length = buf.size();
    netsnmp_pdu* pdu = snmp_pdu_create(SNMP_MSG_RESPONSE);
    if (snmp_pdu_parse(pdu, buf.data(), &length) == 0) convertAll(pdu->variables);
    snmp_free_pdu(pdu);
    return 0;
  }
  // Hand-built variables: name arcs, a type tag and a value of any length.
  netsnmp_variable_list* list = nullptr;
  std::size_t pos = 1;
  while (pos + 3 <= size) {
    std::size_t name_len = data[pos++] % 16;
    u_char type = data[pos++];
    std::size_t val_len = data[pos++] % 40;
    oid name[16];
    for (std::size_t i = 0; i < name_len; ++i) name[i] = pos < size ? data[pos++] : 0;
    std::vector<u_char> value(data + std::min(pos, size), data + std::min(pos + val_len, size));
    pos += val_len;
    auto* var = static_cast<netsnmp_variable_list*>(calloc(1, sizeof(netsnmp_variable_list)));
    snmp_set_var_objid(var, name, name_len);
    var->type = type;  // any tag, with whatever bytes follow (no snmp_set_var_value normalisation)
    if (!value.empty()) {
      var->val.string = static_cast<u_char*>(malloc(value.size()));
      std::memcpy(var->val.string, value.data(), value.size());
    }
    var->val_len = value.size();
    var->next_variable = list;
    list = var;
  }
  convertAll(list);
  snmp_free_varbind(list);
  return 0;
}
