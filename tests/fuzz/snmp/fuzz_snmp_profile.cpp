// The YAML profile loader on arbitrary text (a user may drop any file into
// the profile directory): errors are values, never crashes. A profile that
// loads is planned and used to decode the Arista fixture.
#include <cstdlib>
#include <string_view>

#include "drivers/snmp/profile.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "tests/support/snmp/snmprec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opticsd::snmp;
  static const VarbindStore fixture = [] {
    auto rows = readSnmprecFile(std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/snmp/arista-eos.snmprec");
    if (!rows) std::abort();
    return VarbindStore(*rows);
  }();
  auto profile = loadProfile(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  if (!profile) {
    if (profile.error().message.empty()) std::abort();  // an error must say something
    return 0;
  }
  (void)planWalks(*profile);
  (void)decode(*profile, fixture, "fuzz", 0);
  return 0;
}
