// Fuzzes loadConfigText: any bytes give a Config or a list of issues, never
// an exception, a crash or an issue without a message. A config that loads
// has targets, each with its driver's validated config, and loading the same
// text again gives the same targets.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "daemon/config/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto first = opticsd::loadConfigText(text, "fuzz.yaml");
  if (first) {
    if (first->targets.empty()) std::abort();
    for (const auto& target : first->targets) {
      if (target.name.empty() || target.driver.empty() || target.driver_config == nullptr) std::abort();
    }
    (void)first->targetsForThisShard();
  } else {
    if (first.error().issues.empty()) std::abort();  // refused without saying why
    for (const auto& issue : first.error().issues) {
      if (issue.format().empty()) std::abort();
    }
    if (first.error().format().empty()) std::abort();
  }
  auto again = opticsd::loadConfigText(text, "fuzz.yaml");
  if (first.has_value() != again.has_value()) std::abort();
  if (first) {
    if (first->targets.size() != again->targets.size()) std::abort();
    for (std::size_t i = 0; i < first->targets.size(); ++i) {
      if (first->targets[i].name != again->targets[i].name || first->targets[i].driver != again->targets[i].driver) {
        std::abort();
      }
    }
  }
  return 0;
}
