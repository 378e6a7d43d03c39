// The replay driver's FEC sequence parser on arbitrary text; what parses must
// format and parse back to the same number of steps.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "drivers/replay/fec_sequence.hpp"

using namespace opticsd::replay;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto steps = parseFecSequence(text);
  if (!steps) return 0;
  std::string again;
  std::size_t nonempty = 0;
  for (const auto& step : *steps) {
    const auto line = formatFecStep(step.fec, step.link);
    if (line.empty()) continue;
    again += line + "\n";
    ++nonempty;
  }
  auto back = parseFecSequence(again);
  if (!back || back->size() != nonempty) std::abort();
  return 0;
}
