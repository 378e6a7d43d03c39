// Any bytes as a gNMI SubscribeResponse, decoded through every vendor
// variant into the TelemetryState (with the explain trace on) and
// snapshotted. The seeds hold every TypedValue kind (make_seeds.py). Nothing may crash, and no
// number in a Sample may be NaN or infinite (not reported is std::nullopt).
#include <cmath>
#include <cstdlib>

#include "drivers/gnmi/notification_decoder.hpp"

namespace {

using opticsd::gnmi::LeafRules;
using opticsd::gnmi::NotificationDecoder;
using opticsd::gnmi::TelemetryState;

void checkFinite(const opticsd::Sample& s) {
  for (std::size_t m = 0; m < opticsd::kModuleMetricCount; ++m) {
    const auto& v = s.module[static_cast<opticsd::ModuleMetric>(m)];
    if (v && !std::isfinite(*v)) std::abort();
  }
  for (const auto& lane : s.lanes) {
    if (lane.number < 1) std::abort();
    for (std::size_t m = 0; m < opticsd::kLaneMetricCount; ++m) {
      const auto& v = lane.values[static_cast<opticsd::LaneMetric>(m)];
      if (v && !std::isfinite(*v)) std::abort();
    }
  }
  for (const auto& t : s.shared_thresholds->lane) {
    if (t && ((t->low_alarm && !std::isfinite(*t->low_alarm)) || (t->high_alarm && !std::isfinite(*t->high_alarm)))) {
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Invalid UTF-8 in a string field fails the parse, and protobuf says so on stderr every time.
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  ::gnmi::SubscribeResponse response;
  if (!response.ParseFromArray(data, static_cast<int>(size)) || !response.has_update()) return 0;
  for (const auto& variant : opticsd::gnmi::vendorVariants()) {
    auto rules = LeafRules::compile(variant.rules, variant.origins);
    if (!rules) std::abort();
    TelemetryState state(variant, *rules, opticsd::gnmi::StateLimits{.max_entities = 64, .max_lanes = 32});
    NotificationDecoder decoder(state);
    opticsd::gnmi::DecodeTrace trace;  // the explain trace too: every miss explained without a crash
    decoder.setTrace(&trace);
    decoder.apply(response.update(), 1000);
    decoder.apply(response.update(), 2000);  // the same again: an update of known leaves
    for (const auto& sample : state.snapshot(3000, 1500)) checkFinite(sample);
    if (state.channelBase().why.empty()) std::abort();
  }
  return 0;
}
