#include "drivers/eeprom/decoder.hpp"

#include <cstdio>

#include "drivers/eeprom/cmis.hpp"
#include "drivers/eeprom/decode_common.hpp"
#include "drivers/eeprom/sff8024.hpp"
#include "drivers/eeprom/sff8472.hpp"
#include "drivers/eeprom/sff8636.hpp"

namespace opticsd::eeprom {
namespace {

// Clears everything a decode writes without releasing string or vector
// capacity, so a Sample reused across polls decodes without allocating.
// The identity strings and the lanes are not cleared by resetDecoded: each
// family decoder writes or clears every string (so an unchanged identity is
// compared, not copied) and resets its lanes in place. A module no family
// decodes gets this instead.
void clearUndecoded(Sample& sample) {
  sample.lanes.clear();
  ModuleIdentity& id = sample.mutableIdentity();
  for (std::string* s : {&id.form_factor, &id.media, &id.vendor, &id.vendor_oui, &id.part_number, &id.revision,
                         &id.serial, &id.date_code, &id.connector, &id.firmware_version, &id.spec_revision}) {
    s->clear();
  }
}

void resetDecoded(Sample& sample) {
  ModuleIdentity& id = sample.mutableIdentity();
  id.family = ModuleFamily::kUnknown;
  id.sff8024_identifier.reset();
  id.wavelength_nm.reset();
  id.cable_length_m.reset();
  id.power_class.reset();
  id.max_power_watts.reset();
  id.modulation = Modulation::kUnknown;
  id.lane_rate_gbps.reset();
  id.has_diagnostics.reset();
  id.passive_copper.reset();
  id.cmis_media_type.reset();
  id.applications.clear();  // clear() keeps the capacity: no allocation on the next decode
  id.data_paths.clear();
  id.default_application.reset();
  id.host_lane_count.reset();
  id.media_lane_count.reset();
  id.hardware_revision.clear();
  id.nominal_signalling_rate_gbaud.reset();
  id.encoding.clear();
  id.media_technology.clear();
  id.link_lengths = LinkLengths{};
  id.vdm_supported.reset();
  // reset() writes one engaged flag where assigning {} would zero the whole
  // arrays (about 1.4 KB a decode).
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
    sample.module[static_cast<ModuleMetric>(i)].reset();
    sample.module_flags[i].reset();
  }
  // A Sample reused by its driver alone empties its table in place (one flag
  // a metric); one whose table a published copy shares lets go of it, and the
  // decode writes a new one.
  if (sample.shared_thresholds.unique()) {
    ModuleThresholds& t = sample.shared_thresholds.mutate();
    for (auto& m : t.module) m.reset();
    for (auto& l : t.lane) l.reset();
  } else {
    sample.shared_thresholds.reset();
  }
  sample.issues.clear();  // lanes: each family's resetLanes, or clearUndecoded
  sample.module_present = true;
}

}  // namespace

std::vector<PageRequest> initialPages() {
  // Lower memory and upper page 00h at A0h: identifier, identity, and for
  // SFF-8472 the whole A0h. Enough to pick the family.
  return {PageRequest{kI2cAddressA0, 0, 0, 0, 128}, PageRequest{kI2cAddressA0, 0, 0, 128, 128}};
}

std::vector<PageRequest> advertisedPages(const ModuleMemory& memory) {
  std::vector<PageRequest> out;
  const auto identifier = memory.byte(PageKey{kI2cAddressA0, 0, 0, false}, 0);
  if (!identifier) return out;
  switch (familyFromIdentifier(*identifier)) {
    case ModuleFamily::kSff8472:
      appendSff8472Pages(memory, out);
      break;
    case ModuleFamily::kSff8636:
      appendSff8636Pages(memory, out);
      break;
    case ModuleFamily::kCmis:
      appendCmisPages(memory, out);
      break;
    case ModuleFamily::kUnknown:
      break;
  }
  return out;
}

void decodeModule(const ModuleMemory& memory, Sample& sample) {
  resetDecoded(sample);
  const auto identifier = memory.byte(PageKey{kI2cAddressA0, 0, 0, false}, 0);
  if (!identifier) {
    clearUndecoded(sample);
    addIssue(sample, "lower memory byte 0 (SFF-8024 identifier) not read: module type unknown");
    return;
  }
  const ModuleFamily family = familyFromIdentifier(*identifier);
  setIdentifier(sample, *identifier, family);
  switch (family) {
    case ModuleFamily::kSff8472:
      decodeSff8472(memory, sample);
      return;
    case ModuleFamily::kSff8636:
      decodeSff8636(memory, sample);
      return;
    case ModuleFamily::kCmis:
      decodeCmis(memory, sample);
      return;
    case ModuleFamily::kUnknown:
      break;
  }
  clearUndecoded(sample);
  char buf[48];
  std::snprintf(buf, sizeof buf, "unsupported module type 0x%02x", *identifier);
  addIssue(sample, buf);
}

}  // namespace opticsd::eeprom
