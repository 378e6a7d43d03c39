#pragma once
// The one place where net-snmp's variable list becomes our Varbind. Bad
// encodings (truncated lengths, unknown types) come back as errors, never
// as a crash.

#include "drivers/result.hpp"
#include "drivers/snmp/varbind.hpp"

struct variable_list;

namespace opticsd::snmp {

Result<Varbind> fromNetsnmp(const struct variable_list& var);

}  // namespace opticsd::snmp
