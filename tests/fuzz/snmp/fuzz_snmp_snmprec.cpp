// The .snmprec reader (fixtures and real switch walks) on arbitrary text.
#include <string_view>

#include "drivers/snmp/varbind_store.hpp"
#include "tests/support/snmp/snmprec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto rows = opticsd::snmp::parseSnmprec(std::string_view(reinterpret_cast<const char*>(data), size));
  if (rows) opticsd::snmp::VarbindStore store(std::move(*rows));
  return 0;
}
