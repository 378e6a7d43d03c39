#pragma once
// Which series a snapshot of Samples becomes: the one definition shared by
// the prometheus-cpp Collectable (SampleCollector) and the direct text
// writer (exposition_text.hpp), so the two can never disagree on names,
// labels or which values are absent. Internal to the exporter.

#include <prometheus/metric_type.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "daemon/exporter/export_detail.hpp"
#include "daemon/exporter/label_value.hpp"
#include "daemon/exporter/latest_samples.hpp"
#include "drivers/link_down_reason.hpp"

namespace opticsd::exporter_detail {

struct FamilySpec {
  std::string name;
  std::string help;
  prometheus::MetricType type;
};

// Every family in exposition order; the index of a family is its position.
const std::vector<FamilySpec>& familySpecs();

enum class Scope { kModule, kLane };  // labels {target,port} or {target,port,lane}

struct ExtraLabel {
  std::string_view name;
  std::string_view value;  // already valid for the exposition
};

// The lane statuses exported as opticsd_lane_<key> (drivers/sample.hpp).
inline constexpr const auto& kLaneStatus = kLaneFlagInfo;

inline constexpr std::array<std::string_view, 4> kLevels{"high_alarm", "high_warning", "low_warning", "low_alarm"};

// Family positions.
inline constexpr std::size_t kModuleValueBase = 0;
inline constexpr std::size_t kLaneValueBase = kModuleValueBase + kModuleMetricCount;
inline constexpr std::size_t kModuleThresholdBase = kLaneValueBase + kLaneMetricCount;
inline constexpr std::size_t kLaneThresholdBase = kModuleThresholdBase + kModuleMetricCount;
inline constexpr std::size_t kLaneStatusBase = kLaneThresholdBase + kLaneMetricCount;
enum Fixed : std::size_t {
  kModuleAlarmFlag = kLaneStatusBase + kLaneStatus.size(),
  kLaneAlarmFlag,
  kLaneDataPathState,
  kFecCorrectedBlocks,
  kFecUncorrectableBlocks,
  kFecCorrectedBits,
  kLaneFecCorrectedBits,
  kLinkUp,
  kLinkDownEvents,
  kLinkSpeed,
  kPortFecTail,
  kPortFecMargin,
  kLaneFecTail,
  kLaneFecMargin,
  kPortFecCodewords,
  kLaneFecCodewords,
  kLinkDownReason,
  kModuleMaintenance,
  kModulePresent,
  kModuleInfo,
  kFamilyCount,
};

// The values the default level carries (dashboards and alert rules use them).
inline constexpr std::array kDefaultModuleMetrics{ModuleMetric::kTemperatureCelsius, ModuleMetric::kSupplyVoltageVolts,
                                                  ModuleMetric::kLaserTemperatureCelsius,
                                                  ModuleMetric::kPreFecBerRatio};
inline constexpr std::array kDefaultLaneMetrics{LaneMetric::kTxBiasMilliamperes, LaneMetric::kTxPowerDbm,
                                                LaneMetric::kRxPowerDbm, LaneMetric::kPreFecBerRatio};
inline constexpr std::uint8_t kDataPathActivated = 4;  // CMIS data path state code

// promtool wants base units: a catalogue key in milli-units is exported in
// the base unit, scaled (tx_bias_milliamperes -> tx_bias_amperes, value / 1000).
struct ExportedKey {
  std::string key;
  double scale = 1.0;
  std::string_view unit_prefix;  // "milli" for milliamperes: dropped from the help text
};
const std::array<ExportedKey, kModuleMetricCount>& moduleKeys();
const std::array<ExportedKey, kLaneMetricCount>& laneKeys();

// Walks a snapshot and calls, on `sink`:
//   beginModule(target_label, port_label), beginLane(number),
//   series(family, scope, value, {extra labels})
// Absent and non-finite values produce no call. A port seen twice in one
// target, or a lane number seen twice in one Sample (driver bugs that would
// make the whole scrape invalid), is rendered once, from its first occurrence.
template <typename Sink>
class SeriesWalker {
 public:
  explicit SeriesWalker(Sink& sink, SeriesSelection selection = {}) : sink_(sink), selection_(selection) {}

  void walk(const LatestSamples::Snapshot& snapshot) {
    std::unordered_set<std::string> ports;
    for (const auto& [target, samples] : snapshot) {
      const std::string target_label = sanitizeLabelValue(target);
      ports.clear();
      for (const Sample& s : *samples) {
        std::string port = sanitizeLabelValue(s.port);
        auto [it, fresh] = ports.insert(std::move(port));
        if (!fresh) continue;
        sink_.beginModule(target_label, *it);
        full_ = selection_.policy == nullptr || selection_.policy->detailFor(target, s.port) == ExportDetail::kFull;
        if (selection_.values) sample(s);
        if (selection_.thresholds) thresholds(s);
      }
    }
  }

 private:
  void series(std::size_t f, Scope scope, double v, std::initializer_list<ExtraLabel> extra = {}) {
    sink_.series(f, scope, v, std::span<const ExtraLabel>(extra.begin(), extra.size()));
  }

  void thresholds(std::size_t f, const Thresholds& t, double scale) {
    const std::array<const Reading*, 4> values{&t.high_alarm, &t.high_warning, &t.low_warning, &t.low_alarm};
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (*values[i] && std::isfinite(**values[i])) {
        series(f, Scope::kModule, **values[i] * scale, {{"level", kLevels[i]}});
      }
    }
  }

  // Only raised flags become series (like Prometheus's own ALERTS): four
  // levels x every metric x every lane as zeros was 108 series per CMIS module
  // and most of a 10,000-module scrape. Alert on presence.
  void flags(std::size_t f, Scope scope, std::string_view metric, const AlarmFlags& a) {
    const std::array<bool, 4> values{a.high_alarm, a.high_warning, a.low_warning, a.low_alarm};
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i]) series(f, scope, 1.0, {{"metric", metric}, {"level", kLevels[i]}});
    }
  }

  void thresholds(const Sample& s) {
    for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
      if (const auto& t = s.shared_thresholds->module[i])
        thresholds(kModuleThresholdBase + i, *t, moduleKeys()[i].scale);
    }
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
      if (const auto& t = s.shared_thresholds->lane[i]) thresholds(kLaneThresholdBase + i, *t, laneKeys()[i].scale);
    }
  }

  template <typename Metric, std::size_t N>
  bool carried(Metric m, const std::array<Metric, N>& defaults) const {
    return full_ || std::find(defaults.begin(), defaults.end(), m) != defaults.end();
  }

  void sample(const Sample& s) {
    series(kModulePresent, Scope::kModule, s.module_present ? 1.0 : 0.0);
    if (s.module_present) {
      // The info labels, in the identity table's order (drivers/sample.hpp).
      std::array<std::string, kIdentityTextInfo.size()> values;
      std::array<ExtraLabel, kIdentityTextInfo.size()> labels;
      std::size_t n = 0;
      for (const IdentityTextInfo& field : kIdentityTextInfo) {
        if (!field.info_label) continue;
        values[n] = sanitizeLabelValue(field.text(s.identity()));
        labels[n] = {field.key, values[n]};
        ++n;
      }
      sink_.series(kModuleInfo, Scope::kModule, 1.0, std::span<const ExtraLabel>(labels.data(), n));
    }

    for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
      const ExportedKey& key = moduleKeys()[i];
      const auto metric = static_cast<ModuleMetric>(i);
      if (const auto& v = s.module[metric]; v && std::isfinite(*v) && carried(metric, kDefaultModuleMetrics)) {
        series(kModuleValueBase + i, Scope::kModule, *v * key.scale);
      }
      if (const auto& a = s.module_flags[i]) flags(kModuleAlarmFlag, Scope::kModule, key.key, *a);
    }

    const FecCounters& fec = s.fec;
    if (fec.corrected_blocks_total) series(kFecCorrectedBlocks, Scope::kModule, double(*fec.corrected_blocks_total));
    if (fec.uncorrectable_blocks_total) {
      series(kFecUncorrectableBlocks, Scope::kModule, double(*fec.uncorrectable_blocks_total));
    }
    if (fec.corrected_bits_total) series(kFecCorrectedBits, Scope::kModule, double(*fec.corrected_bits_total));
    const LinkState& link = s.link;
    if (link.up) series(kLinkUp, Scope::kModule, *link.up ? 1.0 : 0.0);
    if (link.down_events_total) series(kLinkDownEvents, Scope::kModule, double(*link.down_events_total));
    if (link.speed_gbps && std::isfinite(*link.speed_gbps) && full_) {
      series(kLinkSpeed, Scope::kModule, *link.speed_gbps * 1e9 / 8);
    }
    // The FEC tail and margin: two series a port at the default level; the
    // bins themselves and the lanes' tails only at full.
    if (fec.tail.symbols) series(kPortFecTail, Scope::kModule, double(*fec.tail.symbols));
    if (const auto m = fec.margin(fec.tail.symbols)) series(kPortFecMargin, Scope::kModule, double(*m));
    for (std::size_t i = 0; full_ && i < fec.histogram.size(); ++i) {
      const FecHistogramBin& bin = fec.histogram[i];
      if (!bin.codewords_total) continue;
      const std::string low = std::to_string(bin.low), high = std::to_string(bin.high);
      series(kPortFecCodewords, Scope::kModule, double(*bin.codewords_total), {{"low", low}, {"high", high}});
    }
    // Why the link is down, only while it is down: one series with the
    // reason as labels keeps a port at one series at most.
    if (link.down_reason && !link.up.value_or(false)) {
      const std::string reason = sanitizeLabelValue(linkDownReasonName(*link.down_reason));
      const std::string substate = sanitizeLabelValue(linkDownSubstateName(*link.down_reason));
      series(kLinkDownReason, Scope::kModule, 1.0, {{"reason", reason}, {"substate", substate}});
    }
    if (s.maintenance) {
      const std::string reason = sanitizeLabelValue(s.maintenance->reason);
      series(kModuleMaintenance, Scope::kModule, 1.0, {{"reason", reason}});
    }

    seen_.clear();
    for (const Lane& lane : s.lanes) {
      if (std::find(seen_.begin(), seen_.end(), lane.number) != seen_.end()) continue;
      seen_.push_back(lane.number);
      sink_.beginLane(lane.number);
      for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
        const ExportedKey& key = laneKeys()[i];
        const auto metric = static_cast<LaneMetric>(i);
        if (const auto& v = lane.values[metric]; v && std::isfinite(*v) && carried(metric, kDefaultLaneMetrics)) {
          series(kLaneValueBase + i, Scope::kLane, *v * key.scale);
        }
        if (const auto& a = lane.flags[i]) flags(kLaneAlarmFlag, Scope::kLane, key.key, *a);
      }
      for (std::size_t i = 0; i < kLaneStatus.size(); ++i) {
        // The default level carries a status only while raised, as the alarm flags.
        if (const auto& b = lane.status.*kLaneStatus[i].member; b && (*b || full_)) {
          series(kLaneStatusBase + i, Scope::kLane, *b ? 1.0 : 0.0);
        }
      }
      // ... and a data path only while it is not activated, which is what
      // the Rx power alerts ask (`unless ... data_path_state != 4`).
      if (const auto& state = lane.status.data_path_state; state && (full_ || *state != kDataPathActivated)) {
        series(kLaneDataPathState, Scope::kLane, double(*lane.status.data_path_state));
      }
    }
    for (std::size_t i = 0; full_ && i < fec.lane_corrected_bits_total.size() && i < 0xFFFF; ++i) {
      if (!fec.lane_corrected_bits_total[i]) continue;
      sink_.beginLane(static_cast<std::uint16_t>(i + 1));
      series(kLaneFecCorrectedBits, Scope::kLane, double(*fec.lane_corrected_bits_total[i]));
    }
    for (std::size_t i = 0; full_ && i < fec.tail.lane_symbols.size() && i < 0xFFFF; ++i) {
      const auto& tail = fec.tail.lane_symbols[i];
      if (!tail) continue;
      sink_.beginLane(static_cast<std::uint16_t>(i + 1));
      series(kLaneFecTail, Scope::kLane, double(*tail));
      if (const auto m = fec.margin(tail)) series(kLaneFecMargin, Scope::kLane, double(*m));
    }
    for (std::size_t b = 0; full_ && b < fec.histogram.size(); ++b) {
      const FecHistogramBin& bin = fec.histogram[b];
      const std::string low = std::to_string(bin.low), high = std::to_string(bin.high);
      for (std::size_t i = 0; i < bin.lane_codewords_total.size() && i < 0xFFFF; ++i) {
        sink_.beginLane(static_cast<std::uint16_t>(i + 1));
        series(kLaneFecCodewords, Scope::kLane, double(bin.lane_codewords_total[i]), {{"low", low}, {"high", high}});
      }
    }
  }

  Sink& sink_;
  const SeriesSelection selection_;
  bool full_ = true;  // the current module's detail
  std::vector<std::uint16_t> seen_;
};

}  // namespace opticsd::exporter_detail
