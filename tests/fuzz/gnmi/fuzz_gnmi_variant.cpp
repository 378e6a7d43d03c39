// Any text as a gNMI variant file: it loads, or fails with a located error;
// a loaded variant's rules compile and decode a path without a crash.
#include <cstdlib>
#include <string_view>

#include "drivers/gnmi/telemetry_state.hpp"
#include "drivers/gnmi/variant_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = opticsd::gnmi::parseVariantFile(text, "fuzz.yaml");
  if (!loaded) {
    if (!loaded.error().message.starts_with("fuzz.yaml")) std::abort();
    return 0;
  }
  const auto& v = (*loaded)->variant;
  auto rules = opticsd::gnmi::LeafRules::compile(v.rules, v.origins);
  if (!rules) std::abort();  // the loader compiled them already
  opticsd::gnmi::TelemetryState state(v, *rules);
  for (const auto& rule : v.rules) {
    if (auto path = opticsd::gnmi::parsePath(rule.pattern)) {
      state.apply(*path, opticsd::gnmi::LeafValue::ofNumber(1.5), 1000);
      (void)rules->explainMiss(*path);
    }
  }
  (void)state.snapshot(2000, 0);
  return 0;
}
