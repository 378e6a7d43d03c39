#include "drivers/eeprom/decode_common.hpp"

#include <array>
#include <cmath>

#include "drivers/eeprom/sff8024.hpp"
#include "drivers/eeprom/text_field.hpp"

namespace opticsd::eeprom {

void addIssue(Sample& sample, std::string_view what) { sample.issues.emplace_back(what); }

const std::int32_t* powerRegisterSteps() {
  static std::array<std::int32_t, 65536> steps;  // static storage: zeroed, never on a stack
  static const bool built = [] {
    for (std::size_t raw = 2; raw < steps.size(); ++raw) {
      steps[raw] = static_cast<std::int32_t>(
          std::lround(opticalPowerFromTenthMicrowatts(static_cast<double>(raw)).dbm * kDbmStepsPerDb));
    }
    return true;
  }();
  (void)built;
  return steps.data();
}

void resetLanes(Sample& sample, std::size_t count) {
  // The lanes a reused Sample already has are emptied in place (a mask and
  // the slot keys), not destroyed and zeroed again: no allocation once the
  // Sample has grown, and no bulk zeroing of ~180 bytes a lane.
  sample.lanes.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    Lane& lane = sample.lanes[i];
    lane.number = static_cast<std::uint16_t>(i + 1);
    lane.values.clear();
    lane.flags.clear();
    lane.status = LaneStatus{};
  }
}

void setIdentifier(Sample& sample, std::uint8_t identifier, ModuleFamily family) {
  sample.mutableIdentity().family = family;
  sample.mutableIdentity().sff8024_identifier = identifier;
  setText(sample.mutableIdentity().form_factor, formFactorName(identifier));
}

void decodeVendorFields(const PageWindow& w, const VendorFieldLayout& layout, ModuleIdentity& id) {
  // Each field is written or cleared: a reused Sample keeps nothing from the last module.
  auto text = [&](std::string& out, std::size_t offset, std::size_t length) {
    if (const auto* p = w.span(offset, length)) {
      assignText(out, p, length);
    } else {
      out.clear();
    }
  };
  text(id.vendor, layout.name, 16);
  text(id.part_number, layout.part, 16);
  text(id.revision, layout.revision, layout.revision_length);
  text(id.serial, layout.serial, 16);
  if (const auto* p = w.span(layout.oui, 3)) {
    assignOui(id.vendor_oui, p);
  } else {
    id.vendor_oui.clear();
  }
  if (const auto* p = w.span(layout.date, 8)) {
    assignDateCode(id.date_code, p);
  } else {
    id.date_code.clear();
  }
}

std::optional<double> laneRateFromSignallingRate(std::optional<std::uint8_t> nominal,
                                                 std::optional<std::uint8_t> extended, bool with_1g) {
  double gbd = 0;
  if (nominal && *nominal == 0xff) {
    gbd = extended.value_or(0) * 0.25;
  } else if (nominal) {
    gbd = *nominal * 0.1;
  }
  if (gbd >= 45) return 50;
  if (gbd >= 24) return 25;
  if (gbd >= 9.5) return 10;
  if (with_1g && gbd >= 1) return 1;
  return std::nullopt;
}

std::optional<double> signallingRateGbaud(std::optional<std::uint8_t> nominal, std::optional<std::uint8_t> extended) {
  if (!nominal || *nominal == 0) return std::nullopt;
  if (*nominal != 0xff) return *nominal * 0.1;
  if (!extended || *extended == 0) return std::nullopt;
  return *extended * 0.25;
}

void setConnectorAndRevision(ModuleIdentity& id, std::optional<std::uint8_t> connector,
                             std::optional<std::uint8_t> revision, std::string_view (*revision_name)(std::uint8_t)) {
  setText(id.connector, connector ? connectorName(*connector) : std::string_view{});
  setText(id.spec_revision, revision ? revision_name(*revision) : std::string_view{});
  id.firmware_version.clear();
}

void assignVersion(std::string& out, std::string_view prefix, unsigned major, unsigned minor) {
  // Decimal without snprintf: the formatting machinery cost more than the rest of a CMIS identity.
  char buf[32];
  char* end = buf + sizeof buf;
  char* p = end;
  auto put = [&p](unsigned v) {
    do {
      *--p = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
  };
  put(minor);
  *--p = '.';
  put(major);
  p -= prefix.size();
  prefix.copy(p, prefix.size());
  setText(out, std::string_view(p, static_cast<std::size_t>(end - p)));
}

}  // namespace opticsd::eeprom
