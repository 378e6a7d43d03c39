#include "drivers/eeprom/cmis_application.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "drivers/eeprom/decode_common.hpp"

namespace opticsd::eeprom {
namespace {

// CMIS 5.2 Application Descriptors: 4 bytes each (host interface ID, media
// interface ID, host | media lane counts, host lane assignment options).
constexpr std::size_t kLowerApplications = 86;     // lower page 86-117: AppSel 1-8
constexpr std::size_t kPage01Applications = 223;   // page 01h 223-250: AppSel 9-15
constexpr std::size_t kMediaLaneAssignment = 176;  // page 01h 176-190: one byte per AppSel 1-15
constexpr std::size_t kActiveDpConfig = 206;       // page 11h 206-213: DPConfigLane1-8 of the Active Control Set
constexpr std::uint8_t kPage11 = 0x11;
constexpr int kMaxApplications = 15;

// Position (0-7) of the `n`th set bit of `mask`, or -1.
int nthSetBit(unsigned mask, int n) {
  for (int bit_at = 0; bit_at < kLanesPerBank; ++bit_at) {
    if (((mask >> bit_at) & 1u) != 0 && n-- == 0) return bit_at;
  }
  return -1;
}

class PathBuilder {
 public:
  PathBuilder(bool one_to_one, Sample& sample) : one_to_one_(one_to_one), sample_(sample) {}

  // A data path of `app_sel` on the host lanes `host_mask` (non-empty) of `bank`.
  void add(int bank, int app_sel, unsigned host_mask) {
    const auto& apps = sample_.identity().applications;
    const int first_host = std::countr_zero(host_mask);
    if (app_sel < 1 || static_cast<std::size_t>(app_sel) > apps.size()) {
      char buf[112];
      std::snprintf(buf, sizeof buf, "host lane %d: active AppSel %d names no advertised Application",
                    bank * kLanesPerBank + first_host + 1, app_sel);
      addIssue(sample_, buf);
      return;
    }
    const ModuleApplication& app = apps[static_cast<std::size_t>(app_sel - 1)];
    const int host_count = std::popcount(host_mask);
    int media_count = app.media_lane_count;
    int first_media = first_host;
    if (one_to_one_ || media_count == 0) {
      media_count = host_count;
    } else {
      // The k-th instance on the host side (by host lane assignment) is the
      // k-th instance on the media side (by media lane assignment).
      const int instance = std::popcount(app.host_lane_assignment & ((1u << first_host) - 1u));
      first_media = nthSetBit(app.media_lane_assignment.value_or(0), instance);
      if (first_media < 0) first_media = instance * media_count;  // no media assignment: packed in order
    }
    if (first_media >= kLanesPerBank) return;
    media_count = std::min(media_count, kLanesPerBank - first_media);
    const bool paired = media_count == host_count;
    for (int k = 0; k < media_count; ++k) {
      const auto index = static_cast<std::size_t>(bank * kLanesPerBank + first_media + k);
      const int host = paired ? nthSetBit(host_mask, k) : first_host;
      out.media[static_cast<std::size_t>(bank)] |= static_cast<std::uint8_t>(1u << (first_media + k));
      out.host_of_media[index] = static_cast<std::uint8_t>(paired ? (1u << host) : host_mask);
      out.first_host_of_media[index] = static_cast<std::uint8_t>(host);
    }
    sample_.mutableIdentity().data_paths.push_back(ModuleDataPath{
        static_cast<std::uint8_t>(app_sel), static_cast<std::uint8_t>(bank * kLanesPerBank + first_host + 1),
        static_cast<std::uint8_t>(host_count), static_cast<std::uint8_t>(bank * kLanesPerBank + first_media + 1),
        static_cast<std::uint8_t>(media_count)});
  }

  ActiveLanes out;

 private:
  bool one_to_one_;
  Sample& sample_;
};

}  // namespace

void readApplications(const PageWindow& lower, const PageWindow& page01, std::vector<ModuleApplication>& out) {
  out.clear();
  for (int i = 0; i < kMaxApplications; ++i) {
    const bool low = i < 8;
    const PageWindow& w = low ? lower : page01;
    const std::size_t at = low ? kLowerApplications + 4 * static_cast<std::size_t>(i)
                               : kPage01Applications + 4 * static_cast<std::size_t>(i - 8);
    if (!w.has(at, 4)) return;
    const std::uint8_t host = w.raw(at);
    // 0xFF ends the list; an all-zero descriptor is unused.
    if (host == 0xff || (host == 0 && w.raw(at + 1) == 0)) return;
    ModuleApplication& app = out.emplace_back();
    app.app_sel = static_cast<std::uint8_t>(i + 1);
    app.host_interface_id = host;
    app.media_interface_id = w.raw(at + 1);
    app.host_lane_count = static_cast<std::uint8_t>(w.raw(at + 2) >> 4);
    app.media_lane_count = static_cast<std::uint8_t>(w.raw(at + 2) & 0x0f);
    app.host_lane_assignment = w.raw(at + 3);
    if (auto m = page01.u8(kMediaLaneAssignment + static_cast<std::size_t>(i))) app.media_lane_assignment = *m;
  }
}

ActiveLanes resolveDataPaths(const ModuleMemory& memory, int banks, bool one_to_one, Sample& sample) {
  ModuleIdentity& id = sample.mutableIdentity();
  id.data_paths.clear();
  id.default_application.reset();
  PathBuilder paths(one_to_one, sample);
  if (id.applications.empty()) {
    // Nothing advertised: every lane of every bank, host lane n with media lane n.
    for (int b = 0; b < banks; ++b) {
      paths.out.media[static_cast<std::size_t>(b)] = 0xff;
      for (int n = 0; n < kLanesPerBank; ++n) {
        paths.out.host_of_media[static_cast<std::size_t>(b * kLanesPerBank + n)] = static_cast<std::uint8_t>(1u << n);
        paths.out.first_host_of_media[static_cast<std::size_t>(b * kLanesPerBank + n)] = static_cast<std::uint8_t>(n);
      }
    }
    return paths.out;
  }
  bool configured = false;  // some host lane has a non-zero AppSel, known or not
  for (int b = 0; b < banks; ++b) {
    const PageWindow p(memory, kI2cAddressA0, static_cast<std::uint8_t>(b), kPage11);
    if (!p.has(kActiveDpConfig, kLanesPerBank)) continue;
    // DPConfigLane: bits 7-4 AppSel (0: lane in no data path), bits 3-1 DataPathID
    // (the first host lane of the data path), bit 0 ExplicitControl.
    std::array<unsigned, kLanesPerBank> by_id{};
    std::array<int, kLanesPerBank> app_of_id{};
    for (int h = 0; h < kLanesPerBank; ++h) {
      const std::uint8_t config = p.raw(kActiveDpConfig + static_cast<std::size_t>(h));
      const int app_sel = config >> 4;
      if (app_sel == 0) continue;
      configured = true;
      const auto path = static_cast<std::size_t>((config >> 1) & 0x07);
      if (by_id[path] == 0) app_of_id[path] = app_sel;
      if (app_of_id[path] == app_sel) by_id[path] |= 1u << h;
    }
    for (std::size_t path = 0; path < by_id.size(); ++path) {
      if (by_id[path] != 0) paths.add(b, app_of_id[path], by_id[path]);
    }
  }
  if (configured) {
    id.default_application = false;
    return paths.out;
  }
  // No active data path: the default Application (AppSel 1), one instance at
  // each host lane its assignment allows, as far as the lanes go.
  id.default_application = true;
  const ModuleApplication& app = id.applications.front();
  const int width =
      app.host_lane_count >= 1 && app.host_lane_count <= kLanesPerBank ? app.host_lane_count : kLanesPerBank;
  const unsigned starts = app.host_lane_assignment != 0 ? app.host_lane_assignment : 1u;
  for (int b = 0; b < banks; ++b) {
    unsigned used = 0;
    for (int h = 0; h + width <= kLanesPerBank; ++h) {
      const unsigned mask = ((1u << width) - 1u) << h;
      if (((starts >> h) & 1u) == 0 || (used & mask) != 0) continue;
      used |= mask;
      paths.add(b, 1, mask);
    }
  }
  return paths.out;
}

}  // namespace opticsd::eeprom
