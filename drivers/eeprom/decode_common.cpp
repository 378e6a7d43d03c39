#include "drivers/eeprom/decode_common.hpp"

#include "drivers/eeprom/sff8024.hpp"

namespace opticsd::eeprom {

void addIssue(Sample& sample, std::string_view what) { sample.issues.emplace_back(what); }

void resetLanes(Sample& sample, std::size_t count) {
  sample.lanes.resize(count);  // keeps capacity across decodes of a reused Sample
  for (std::size_t i = 0; i < count; ++i) {
    sample.lanes[i] = Lane{};
    sample.lanes[i].number = static_cast<std::uint16_t>(i + 1);
  }
}

void setIdentifier(Sample& sample, std::uint8_t identifier, ModuleFamily family) {
  sample.identity.family = family;
  sample.identity.sff8024_identifier = identifier;
  sample.identity.form_factor = formFactorName(identifier);
}

}  // namespace opticsd::eeprom
