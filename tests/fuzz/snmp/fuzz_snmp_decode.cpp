// Varbinds of any type, value and OID (fuzz_input.hpp) through every shipped
// profile and tests/fuzz/snmp/profiles: resolve, apply, LLDP. Nothing may crash, and no decoded number may
// be NaN (not reported is std::nullopt).
#include <cmath>
#include <cstdlib>

#include "drivers/snmp/lldp.hpp"
#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/profile_decoder.hpp"
#include "fuzz_input.hpp"

namespace {

const opticsd::snmp::ProfileCatalog& catalog() {
  static auto loaded = opticsd::snmp::ProfileCatalog::load(
      {std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles",
       std::string(OPTICSD_SOURCE_DIR) + "/tests/fuzz/snmp/profiles"});  // plus the table features none ships
  if (!loaded || (*loaded)->profiles().empty()) std::abort();
  return **loaded;
}

void checkFinite(const opticsd::PollResult& r) {
  using opticsd::LaneMetric;
  using opticsd::ModuleMetric;
  for (const auto& s : r.samples) {
    for (std::size_t m = 0; m < opticsd::kModuleMetricCount; ++m) {
      const auto& v = s.module[static_cast<ModuleMetric>(m)];
      if (v && !std::isfinite(*v)) std::abort();
    }
    for (const auto& lane : s.lanes) {
      for (std::size_t m = 0; m < opticsd::kLaneMetricCount; ++m) {
        const auto& v = lane.values[static_cast<LaneMetric>(m)];
        if (v && !std::isfinite(*v)) std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opticsd::snmp;
  if (size < 1) return 0;
  const auto& profiles = catalog().profiles();
  const auto& profile = *profiles[data[0] % profiles.size()];
  VarbindStore store(fuzz::varbindsFrom({data + 1, size - 1}));
  Layout layout = resolve(profile, store);
  checkFinite(apply(profile, layout, store, "fuzz", 0));
  (void)decodeLldp(store);
  return 0;
}
