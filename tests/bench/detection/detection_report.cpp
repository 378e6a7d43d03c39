// The detection harness: what an operator would see, measured.
//
//   opticsd_detection_report healthy [switches_per_profile ports polls]
//     A healthy fleet (every sim module kind, realistic environment: room
//     cycles, job warm-ups, drift, BER wander, read noise) polled every 30 s;
//     prints the findings raised per rule and the suspects left. Exit 1 when
//     anything was raised.
//   opticsd_detection_report scenarios [seeds]
//     Each degradation on one port of a 16-port switch in the same
//     environment, starting after 2.5 h of history: its onset, the poll where
//     the ground truth crosses the line set before running, the first
//     finding on that port, the lead (line - first finding, polls; positive
//     is early), its rank among the suspects at the first finding and the
//     worst rank from then to the end, and findings on the healthy ports.
//     Exit 1 when a degradation is missed, late by more than 2 polls, not
//     ranked #1, or a healthy port raised anything.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/pipeline/poll_preparation.hpp"
#include "daemon/rules/finding_sink.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "drivers/sim/noise.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kInterval = 30'000;
constexpr std::int64_t kMinute = 60'000;

class CountingSink : public FindingSink {
 public:
  void record(const Finding& f) override {
    if (f.active()) raised.push_back(f);
  }
  void replaceSuspects(const std::string&, std::vector<Suspect>) override {}
  std::vector<Finding> raised;
};

int healthy(int switches_per_profile, int ports, int polls) {
  std::vector<sim::SimSwitch> fleet;
  for (auto name : sim::moduleProfileNames()) {
    for (int i = 0; i < switches_per_profile; ++i) {
      sim::SimSwitchConfig c;
      c.name = std::string(name) + "-" + std::to_string(i);
      c.seed = sim::hashString(c.name);
      c.ports = ports;
      c.module = std::string(name);
      auto sw = sim::SimSwitch::create(c, kEpoch);
      if (!sw) {
        std::fprintf(stderr, "%s\n", sw.error().message.c_str());
        return 2;
      }
      fleet.push_back(std::move(*sw));
    }
  }
  CountingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  PollPreparation preparation;  // the daemon's: plausibility and FEC BER before the rules
  std::vector<Sample> samples;
  for (int poll = 0; poll < polls; ++poll) {
    for (const auto& sw : fleet) {
      samples.clear();
      sw.sampleAll(kEpoch + poll * kInterval, samples);
      preparation.prepare(sw.config().name, kEpoch + poll * kInterval, samples);
      engine.evaluate(sw.config().name, samples);
    }
  }
  std::map<std::string, int> per_rule;
  for (const auto& f : sink.raised) ++per_rule[f.rule];
  std::printf("healthy fleet: %zu modules x %d polls (%.1f h): %zu findings, %zu suspects\n", engine.modules(), polls,
              polls * kInterval / 3.6e6, sink.raised.size(), engine.suspects().size());
  for (const auto& [rule, n] : per_rule) std::printf("  %-24s %d\n", rule.c_str(), n);
  for (std::size_t i = 0; i < std::min<std::size_t>(5, sink.raised.size()); ++i) {
    const Finding& f = sink.raised[i];
    std::printf("  e.g. poll %lld %s %s lane %d %s: %s\n", static_cast<long long>((f.start_ms - kEpoch) / kInterval),
                f.target.c_str(), f.port.c_str(), f.lane, f.rule.c_str(), f.detail.c_str());
  }
  return sink.raised.empty() && engine.suspects().empty() ? 0 : 1;
}

struct Degradation {
  const char* name;
  sim::ScenarioKind kind;
  int lane_index;
  std::int64_t ramp_ms;
  const char* line;
  sim::TruthSignal signal;
  sim::Crossing direction;
  bool per_lane;
  double (*level)(const sim::SimSwitch&, int port, int lane, std::int64_t start);
};

double startValue(const sim::SimSwitch& sw, int port, int lane, sim::TruthSignal s, std::int64_t t) {
  return *sw.truthAt(port, lane, s, t);
}

// Ramps chosen to the rates at 30 s polls: Rx -0.1 dB/poll (8 dB over
// 80 polls), bias +1 %/poll, temperature +0.5 C/poll.
const Degradation kDegradations[] = {
    {"dirty_connector", sim::ScenarioKind::kDirtyConnector, -1, 40 * kMinute, "Rx 3 dB below its start",
     sim::TruthSignal::kRxPowerDbm, sim::Crossing::kFalling, true,
     [](const sim::SimSwitch& sw, int p, int l, std::int64_t t) {
       return startValue(sw, p, l, sim::TruthSignal::kRxPowerDbm, t) - 3.0;
     }},
    {"laser_ageing", sim::ScenarioKind::kLaserAgeing, -1, 40 * kMinute, "bias +50 %",
     sim::TruthSignal::kTxBiasMilliamperes, sim::Crossing::kRising, true,
     [](const sim::SimSwitch& sw, int p, int l, std::int64_t t) {
       return 1.5 * startValue(sw, p, l, sim::TruthSignal::kTxBiasMilliamperes, t);
     }},
    {"thermal_runaway", sim::ScenarioKind::kThermalRunaway, -1, 40 * kMinute, "the module's high warning",
     sim::TruthSignal::kTemperatureCelsius, sim::Crossing::kRising, false,
     [](const sim::SimSwitch& sw, int, int, std::int64_t) { return sw.profile().temperature.high_warning; }},
    {"post_fec_errors", sim::ScenarioKind::kPostFecErrors, -1, 10 * kMinute, "the first uncorrectable",
     sim::TruthSignal::kUncorrectableBlocksTotal, sim::Crossing::kRising, false,
     [](const sim::SimSwitch& sw, int p, int l, std::int64_t t) {
       return startValue(sw, p, l, sim::TruthSignal::kUncorrectableBlocksTotal, t) + 1;
     }},
    {"lane_failure", sim::ScenarioKind::kLaneFailure, 2, 1 * kMinute, "the lane dark", sim::TruthSignal::kRxPowerDbm,
     sim::Crossing::kFalling, true,
     [](const sim::SimSwitch& sw, int, int, std::int64_t) { return sw.profile().los_assert_dbm; }},
    {"link_flapping", sim::ScenarioKind::kLinkFlapping, -1, 5 * kMinute, "the third flap",
     sim::TruthSignal::kLinkDownEventsTotal, sim::Crossing::kRising, false,
     [](const sim::SimSwitch& sw, int p, int l, std::int64_t t) {
       return startValue(sw, p, l, sim::TruthSignal::kLinkDownEventsTotal, t) + 3;
     }},
};

struct Row {
  long long onset = 0, line = -1, first = -1, lead = 0;
  std::string rule;
  int rank_first = 0, rank_worst = 0, healthy_findings = 0;
};

int rankOf(const RulesEngine& engine, const std::string& port) {
  const auto suspects = engine.suspects();
  for (std::size_t i = 0; i < suspects.size(); ++i) {
    if (suspects[i].port == port) return static_cast<int>(i + 1);
  }
  return 0;  // not a suspect
}

Row runDegradation(const Degradation& d, std::uint64_t seed) {
  const int port = 4;
  const std::int64_t onset = 150 * kMinute;
  sim::SimSwitchConfig config;
  config.name = "leaf-1";
  config.seed = seed;
  config.ports = 16;
  config.scenarios.push_back(sim::ScenarioSpec{d.kind, port, d.lane_index, onset, d.ramp_ms});
  auto sw = sim::SimSwitch::create(config, kEpoch);
  Row row;
  if (!sw) return row;
  const std::int64_t end = kEpoch + onset + d.ramp_ms + 30 * kMinute;
  std::optional<std::int64_t> crossing;
  for (int lane = 1; lane <= (d.per_lane ? sw->lanes() : 1); ++lane) {
    if (d.lane_index >= 0 && lane != d.lane_index + 1) continue;
    const int truth_lane = d.per_lane ? lane : 0;
    const double level = d.level(*sw, port, truth_lane, kEpoch + onset);
    auto t = sw->firstCrossing(port, truth_lane, d.signal, level, d.direction, kEpoch + onset, end);
    if (t && (!crossing || *t < *crossing)) crossing = t;
  }
  const auto pollOf = [](std::int64_t t) { return (t - kEpoch + kInterval - 1) / kInterval; };
  row.onset = pollOf(kEpoch + onset);
  if (crossing) row.line = pollOf(*crossing);
  CountingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  PollPreparation preparation;
  std::vector<Sample> samples;
  const std::string name = sw->portName(port);
  for (std::int64_t t = kEpoch; t <= end; t += kInterval) {
    samples.clear();
    sw->sampleAll(t, samples);
    preparation.prepare("leaf-1", t, samples);
    engine.evaluate("leaf-1", samples);
    if (row.first < 0) {
      for (const auto& f : sink.raised) {
        if (f.port == name) {
          row.first = (t - kEpoch) / kInterval;
          row.rule = f.rule;
          row.rank_first = rankOf(engine, name);
          row.rank_worst = row.rank_first;
          break;
        }
      }
    } else {
      const int r = rankOf(engine, name);
      if (r == 0 || r > row.rank_worst) row.rank_worst = r == 0 ? 99 : r;
    }
  }
  for (const auto& f : sink.raised) row.healthy_findings += f.port != name ? 1 : 0;
  row.lead = row.line >= 0 && row.first >= 0 ? row.line - row.first : 0;
  return row;
}

int scenarios(int seeds) {
  int bad = 0;
  std::printf("%-16s %4s | %-26s %5s | %-22s %5s | %5s | %4s %5s | %s\n", "scenario", "seed", "line", "onset",
              "first finding", "poll", "lead", "rank", "worst", "healthy-port findings");
  for (const auto& d : kDegradations) {
    for (int s = 0; s < seeds; ++s) {
      const std::uint64_t seed = 7 + 1000 * static_cast<std::uint64_t>(s);
      const Row r = runDegradation(d, seed);
      std::printf("%-16s %4llu | %-26s %5lld | %-22s %5lld | %+5lld | %4d %5d | %d   (line at poll %lld)\n", d.name,
                  static_cast<unsigned long long>(seed), d.line, r.onset, r.rule.empty() ? "(none)" : r.rule.c_str(),
                  r.first, r.lead, r.rank_first, r.rank_worst, r.healthy_findings, r.line);
      if (r.first < 0 || r.line < 0 || r.lead < -2 || r.rank_first != 1 || r.rank_worst != 1 || r.healthy_findings)
        ++bad;
    }
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace
}  // namespace opticsd

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);  // the report is the output, not each finding's log line
  const std::string mode = argc > 1 ? argv[1] : "";
  const auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  if (mode == "healthy") return opticsd::healthy(arg(2, 10), arg(3, 250), arg(4, 1000));
  if (mode == "scenarios") return opticsd::scenarios(arg(2, 3));
  std::fprintf(stderr, "usage: %s healthy [switches_per_profile ports polls] | scenarios [seeds]\n", argv[0]);
  return 2;
}
