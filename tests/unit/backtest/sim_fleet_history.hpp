#pragma once
// A history file written by the daemon's own parts over a simulated fleet
// under a fast clock: every 30 s poll of the sim switches goes through the
// daemon's preparation, the rules engine (the store as its sink) and the
// store, as `opticsd run` does, with no waiting. Beside the file it keeps the
// ground truth at full resolution: the findings the engine raised live and
// the events labelled from every poll, not only the stored rows.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "daemon/backtest/event_labeler.hpp"
#include "daemon/backtest/history_preparation.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "drivers/sim/noise.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd::test {

inline constexpr std::int64_t kEpoch = 1'700'000'000'000;
inline constexpr std::int64_t kPoll = 30'000;
inline constexpr std::int64_t kHour = 3'600'000;

// Forwards to the store and keeps a copy: the live findings.
class TeeSink : public FindingSink {
 public:
  explicit TeeSink(SqliteStore& store) : store_(store) {}
  void record(const Finding& f) override {
    store_.record(f);
    if (f.active()) raised.push_back(f);
  }
  void replaceSuspects(const std::string& target, std::vector<Suspect> s) override {
    store_.replaceSuspects(target, std::move(s));
  }
  void recordBaseline(const BiasBaseline& b) override { store_.recordBaseline(b); }
  void keepRows(const std::string& target, const std::string& port) override { store_.keepRows(target, port); }
  std::vector<Finding> raised;  // raises and escalations

 private:
  SqliteStore& store_;
};

struct Injected {
  std::string target;
  std::string port;
};

struct FleetHistory {
  std::vector<Finding> live;  // the first record of each finding
  std::vector<HistoryEvent> truth_events;
  std::vector<Injected> injected;
  std::size_t samples = 0;
};

class TempFile {
 public:
  explicit TempFile(const std::string& name) {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() / ("opticsd-backtest-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
    path_ = dir_ / name;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path dir_, path_;
};

// `hours` of a leaf with four degradations from hour 3 on and a healthy leaf.
// `polls_per_flush`: poll cycles the store's writer may take in one batch (1:
// each poll written before the next, as a daemon polling every 30 s does).
inline FleetHistory writeFleetHistory(const std::filesystem::path& path, const DeadbandOptions& deadband, int hours,
                                      int polls_per_flush = 1) {
  using sim::ScenarioKind;
  using sim::ScenarioSpec;
  FleetHistory out;
  std::vector<sim::SimSwitch> fleet;
  for (const char* name : {"leaf-a", "leaf-b"}) {
    sim::SimSwitchConfig c;
    c.name = name;
    c.seed = sim::hashString(c.name);
    c.ports = 16;
    c.module = "qsfp-dd-400g-dr4";
    if (c.name == "leaf-a") {
      c.scenarios = {
          ScenarioSpec{ScenarioKind::kDirtyConnector, 1, -1, 3 * kHour, kHour},
          ScenarioSpec{ScenarioKind::kLaneFailure, 4, 1, 3 * kHour + kHour / 2, 10 * 60'000},
          ScenarioSpec{ScenarioKind::kPostFecErrors, 7, -1, 3 * kHour, kHour / 2},
          ScenarioSpec{ScenarioKind::kLinkFlapping, 10, -1, 4 * kHour, kHour / 2},
      };
      for (int port : {2, 5, 8, 11}) out.injected.push_back({c.name, "Ethernet" + std::to_string(port)});
    }
    auto sw = sim::SimSwitch::create(c, kEpoch);
    EXPECT_TRUE(sw) << (sw ? "" : sw.error().message);
    if (sw) fleet.push_back(std::move(*sw));
  }
  StoreOptions o;
  o.path = path;
  o.retention = std::chrono::milliseconds(0);  // the sim's clock is years back
  o.deadband = deadband;
  auto store = SqliteStore::open(o);
  EXPECT_TRUE(store) << (store ? "" : store.error().message);
  if (!store) return out;
  TeeSink sink(**store);
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  HistoryPreparation preparation;
  EventLabeler truth(defaultRuleSet(), {}, 3'600'000);
  std::map<std::pair<std::string, std::string>, std::uint32_t> index;
  std::vector<Sample> samples;
  for (std::int64_t t = kEpoch; t < kEpoch + hours * kHour; t += kPoll) {
    for (const auto& sw : fleet) {
      samples.clear();
      sw.sampleAll(t, samples);
      for (Sample& s : samples) {
        s.target = sw.config().name;
        preparation.prepare(s);
      }
      engine.evaluate(sw.config().name, samples);
      for (const Sample& s : samples) {
        const auto id = index.try_emplace({s.target, s.port}, static_cast<std::uint32_t>(index.size())).first->second;
        truth.observe(id, s, out.truth_events);
      }
      out.samples += samples.size();
      (*store)->enqueue(samples);
    }
    // Written poll by poll, as a daemon polling every 30 s is: rows around a
    // finding are those of its own polls, not of a batch of later ones.
    if (((t - kEpoch) / kPoll + 1) % polls_per_flush == 0) (*store)->flush(std::chrono::seconds(10));
  }
  EXPECT_TRUE((*store)->flush(std::chrono::seconds(60)));
  // Escalations record the same finding again: keep its first record.
  for (const Finding& f : sink.raised) {
    const bool seen = std::any_of(out.live.begin(), out.live.end(), [&](const Finding& g) {
      return g.target == f.target && g.port == f.port && g.lane == f.lane && g.rule == f.rule &&
             g.start_ms == f.start_ms;
    });
    if (!seen) out.live.push_back(f);
  }
  return out;
}

}  // namespace opticsd::test
