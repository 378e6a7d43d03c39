// Any text as a gNMI path: parsing never crashes, and what parses prints
// back to text that parses to the same path.
#include <cstdlib>
#include <string_view>

#include "drivers/gnmi/gnmi_path.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto path = opticsd::gnmi::parsePath(text);
  if (!path) return 0;
  auto again = opticsd::gnmi::parsePath(path->toString());
  if (!again || again->toString() != path->toString() || again->elems.size() != path->elems.size()) std::abort();
  return 0;
}
