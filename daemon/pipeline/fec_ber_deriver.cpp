#include "daemon/pipeline/fec_ber_deriver.hpp"

#include <algorithm>
#include <cmath>

namespace opticsd {
namespace {

// Nominal lane speed → line rate with FEC/encoding overhead (SONiC
// sonic-swss orchagent/port_rates.lua; IEEE 802.3 clauses 49, 91, 134).
struct LaneRate {
  double nominal_gbps;
  double line_gbps;
};
constexpr LaneRate kLaneRates[] = {
    {1, 1.25}, {10, 10.3125}, {25, 25.78125}, {50, 53.125}, {100, 106.25}, {200, 212.5},
};

// Δ of a cumulative counter, or nullopt when either side is missing.
// `reset` turns true when the counter went backwards.
std::optional<std::uint64_t> delta(const std::optional<std::uint64_t>& now, const std::optional<std::uint64_t>& before,
                                   bool& reset) {
  if (!now || !before) return std::nullopt;
  if (*now < *before) {
    reset = true;
    return std::nullopt;
  }
  return *now - *before;
}

}  // namespace

std::optional<double> laneLineRateGbps(double nominal_lane_gbps) {
  for (const auto& rate : kLaneRates) {
    if (std::fabs(rate.nominal_gbps - nominal_lane_gbps) < 0.01) return rate.line_gbps;
  }
  return std::nullopt;
}

std::optional<PortRate> portRate(const LinkState& link, std::size_t lane_counters) {
  PortRate rate;
  if (link.lanes && *link.lanes > 0) {
    rate.lanes = *link.lanes;
  } else if (lane_counters > 0) {
    rate.lanes = static_cast<std::uint16_t>(lane_counters);
  }
  if (link.lane_line_rate_gbps && *link.lane_line_rate_gbps > 0) {
    rate.lane_line_rate_gbps = *link.lane_line_rate_gbps;
    if (rate.lanes == 0 && link.speed_gbps && *link.speed_gbps > 0) {
      rate.lanes = static_cast<std::uint16_t>(std::max(1.0, std::round(*link.speed_gbps / rate.lane_line_rate_gbps)));
    }
  } else if (link.speed_gbps && *link.speed_gbps > 0 && rate.lanes > 0) {
    const double nominal = *link.speed_gbps / rate.lanes;
    // A lane speed outside the table (2.5G, 5G) keeps the 64b/66b overhead.
    rate.lane_line_rate_gbps = laneLineRateGbps(nominal).value_or(nominal * 66.0 / 64.0);
  }
  if (rate.lanes == 0 || rate.lane_line_rate_gbps <= 0) return std::nullopt;
  return rate;
}

void FecBerDeriver::forget(const std::string& target, const std::string& port) {
  last_ = LastTarget{};
  auto t = previous_.find(target);
  if (t == previous_.end()) return;
  t->second.erase(port);
  if (t->second.empty()) previous_.erase(t);
}

void FecBerDeriver::forgetTarget(const std::string& target) {
  last_ = LastTarget{};
  previous_.erase(target);
}

std::size_t FecBerDeriver::ports() const {
  std::size_t n = 0;
  for (const auto& [target, ports] : previous_) n += ports.size();
  return n;
}

void FecBerDeriver::apply(Sample& sample) {
  if (sample.fec.empty()) return;
  const FecCounters& now = sample.fec;
  Baseline current{sample.timestamp_ms,          sample.identity().serial,       sample.module_present,
                   now.corrected_blocks_total,   now.uncorrectable_blocks_total, now.corrected_bits_total,
                   now.lane_corrected_bits_total};
  if (last_.ports == nullptr || *last_.name != sample.target) {
    auto found = previous_.find(sample.target);
    if (found == previous_.end()) found = previous_.emplace(sample.target, Ports{}).first;
    last_.name = &found->first;
    last_.ports = &found->second;
  }
  Ports& ports = *last_.ports;
  auto it = ports.find(sample.port);
  if (it == ports.end()) {
    ports.emplace(sample.port, std::move(current));
    return;  // first sample: nothing to compare with (no value, not 0)
  }
  Baseline before = std::move(it->second);
  it->second = std::move(current);

  if (sample.module_present != before.module_present || sample.identity().serial != before.serial) return;  // swap
  const double seconds = static_cast<double>(sample.timestamp_ms - before.timestamp_ms) / 1000.0;
  if (seconds <= 0) return;

  bool reset = false;
  const auto bits = delta(now.corrected_bits_total, before.corrected_bits_total, reset);
  const auto blocks = delta(now.corrected_blocks_total, before.corrected_blocks_total, reset);
  delta(now.uncorrectable_blocks_total, before.uncorrectable_blocks_total, reset);
  const std::size_t lane_count = now.lane_corrected_bits_total.size();
  std::vector<std::optional<std::uint64_t>> lane_bits(lane_count);
  if (before.lane_corrected_bits_total.size() == lane_count) {
    for (std::size_t i = 0; i < lane_count; ++i) {
      lane_bits[i] = delta(now.lane_corrected_bits_total[i], before.lane_corrected_bits_total[i], reset);
    }
  }
  if (reset) return;  // any counter went backwards: the new values are the baseline

  const auto rate = portRate(sample.link, lane_count);
  if (!rate) return;
  const double lane_bits_carried = rate->lane_line_rate_gbps * 1e9 * seconds;

  std::optional<double> corrected;
  if (bits) {
    corrected = static_cast<double>(*bits);
  } else if (blocks && now.bits_per_block && *now.bits_per_block > 0) {
    corrected = static_cast<double>(*blocks) * static_cast<double>(*now.bits_per_block);
  }
  if (corrected && !sample.module[ModuleMetric::kPreFecBerRatio]) {
    sample.module.set(ModuleMetric::kPreFecBerRatio, *corrected / (lane_bits_carried * rate->lanes));
  }

  // FEC lanes are PCS/host lanes; they map onto the Sample's lanes only when
  // the counts agree (a 400G-DR4 module has 4 media lanes behind 8 host lanes).
  if (!sample.lanes.empty() && sample.lanes.size() != lane_count) return;
  for (std::size_t i = 0; i < lane_count; ++i) {
    if (!lane_bits[i]) continue;
    const auto number = static_cast<std::uint16_t>(i + 1);
    auto lane =
        std::find_if(sample.lanes.begin(), sample.lanes.end(), [&](const Lane& l) { return l.number == number; });
    if (lane == sample.lanes.end()) {
      sample.lanes.push_back(Lane{});
      sample.lanes.back().number = number;
      lane = sample.lanes.end() - 1;
    }
    if (!lane->values[LaneMetric::kPreFecBerRatio]) {
      lane->values.set(LaneMetric::kPreFecBerRatio, static_cast<double>(*lane_bits[i]) / lane_bits_carried);
    }
  }
}

}  // namespace opticsd
