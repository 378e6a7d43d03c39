// The pipeline with the daemon's exporter-side sinks: its one preparation
// (stamp, plausibility, FEC BER), the published poll, the exporter's cache
// and its keep-stale policy (ServedPolls), opticsd's own accounting, and
// history (HistorySink).
#include "daemon/pipeline/pipeline.hpp"

#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "daemon/exporter/poll_accounting.hpp"
#include "daemon/exporter/served_polls.hpp"
#include "daemon/store/history_sink.hpp"
#include "daemon/store/sqlite_store.hpp"

namespace opticsd {
namespace {

// A sink that sees what every other sink sees: how a new consumer is added
// (one class, one addSink).
struct RecordingSink : PollSink {
  void onPoll(const PublishedPoll& poll) override {
    polls.push_back(poll.samples->size());
    if (on_poll) on_poll(poll);
  }
  void onPollFailed(const FailedPoll& poll) override { failed.push_back(poll.target); }
  std::function<void(const PublishedPoll&)> on_poll;
  std::vector<std::size_t> polls;
  std::vector<std::string> failed;
};

PollReport report(const std::string& target, int modules, bool ok = true) {
  PollReport r;
  r.target = target;
  r.driver = "fake";
  r.started_ms = 1'700'000'000'000;
  r.ok = ok;
  for (int i = 0; i < modules; ++i) {
    Sample s;
    s.port = "Ethernet" + std::to_string(i + 1);
    r.result.samples.push_back(s);
  }
  if (!ok) r.result.errors.push_back("agent unreachable");
  return r;
}

std::size_t modulesOf(const LatestSamples& latest, const std::string& target) {
  for (const auto& entry : latest.snapshot()) {
    if (entry.target == target) return entry.samples->size();
  }
  return 0;
}

// What /metrics renders `target` from: the same pointer means the same render buffers.
const std::vector<Sample>* publishedOf(const LatestSamples& latest, const std::string& target) {
  for (const auto& entry : latest.snapshot()) {
    if (entry.target == target) return entry.samples.get();
  }
  return nullptr;
}

struct PipelineTest : ::testing::Test {
  PipelineTest() {
    pipeline.addSink(accounting);
    pipeline.addSink(recorded);
    pipeline.addSink(served);
  }
  prometheus::Registry registry;
  SelfMetrics self{registry, "test"};
  LatestSamples latest;
  TargetFreshness freshness;
  PollAccounting accounting{self};
  RecordingSink recorded;
  ServedPolls served{latest, freshness};
  Pipeline pipeline;
};

TEST_F(PipelineTest, StampsTargetAndTimeAndPublishes) {
  pipeline.setTargets({"leaf-1"});
  std::vector<std::string> seen;
  recorded.on_poll = [&](const PublishedPoll& poll) {
    for (const auto& s : *poll.samples) {
      EXPECT_EQ(s.target, poll.target);
      EXPECT_EQ(s.timestamp_ms, 1'700'000'000'000);
    }
    seen.push_back(poll.target);
  };
  auto r = report("leaf-1", 3);
  pipeline.onReport(r);
  EXPECT_EQ(seen, std::vector<std::string>{"leaf-1"});
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 3u);
  EXPECT_EQ(pipeline.cycles(), 1u);
}

// Every sink shares one poll's Samples: they are published as they came (the
// same buffer), not copied first, and without the slack of a vector grown one
// push_back at a time.
TEST_F(PipelineTest, APollsSamplesArePublishedWithoutACopyOrSlack) {
  pipeline.setTargets({"leaf-1", "leaf-2"});
  auto exact = report("leaf-1", 3);
  exact.result.samples.shrink_to_fit();
  const Sample* polled = exact.result.samples.data();
  pipeline.onReport(exact);
  const std::vector<Sample>* published = publishedOf(latest, "leaf-1");
  ASSERT_NE(published, nullptr);
  EXPECT_EQ(published->data(), polled);
  EXPECT_EQ(published->size(), 3u);
  EXPECT_EQ(published->front().port, "Ethernet1");

  auto grown = report("leaf-2", 5);
  grown.result.samples.reserve(64);
  pipeline.onReport(grown);
  published = publishedOf(latest, "leaf-2");
  ASSERT_NE(published, nullptr);
  EXPECT_EQ(published->size(), 5u);
  EXPECT_EQ(published->capacity(), 5u);
  EXPECT_EQ(published->back().port, "Ethernet5");
}

constexpr std::int64_t kGoodMs = 1'700'000'000'000;
constexpr std::int64_t kMinuteMs = 60'000;

PollReport reportAt(std::int64_t started_ms, int modules, bool ok = true) {
  PollReport r = report("leaf-1", modules, ok);
  r.started_ms = started_ms;
  return r;
}

// A switch that stops answering keeps its last known state on /metrics,
// marked: target_up 0 (the self-metrics), opticsd_target_stale 1 and the time
// of the values. The Samples are the very ones published (no re-render).
TEST_F(PipelineTest, FailedPollKeepsTheLastValuesMarkedStale) {
  served.setKeepStaleFor(std::chrono::minutes(5));
  pipeline.setTargets({"leaf-1"});
  auto good = reportAt(kGoodMs, 2);
  pipeline.onReport(good);
  const std::vector<Sample>* published = publishedOf(latest, "leaf-1");
  ASSERT_NE(published, nullptr);
  ASSERT_FALSE(freshness.state("leaf-1")->stale);

  auto bad = reportAt(kGoodMs + kMinuteMs / 2, 0, false);
  pipeline.onReport(bad);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 2u) << "the last good values stay";
  EXPECT_EQ(publishedOf(latest, "leaf-1"), published) << "kept as published, not re-published";
  const auto state = freshness.state("leaf-1");
  ASSERT_TRUE(state);
  EXPECT_TRUE(state->stale);
  EXPECT_EQ(state->last_success_ms, kGoodMs);
  EXPECT_EQ(state->driver, "fake");
}

TEST_F(PipelineTest, KeptValuesAreDroppedKeepStaleForAfterTheFirstFailedPoll) {
  served.setKeepStaleFor(std::chrono::minutes(5));
  pipeline.setTargets({"leaf-1"});
  auto good = reportAt(kGoodMs, 2);
  pipeline.onReport(good);
  const std::int64_t failed_ms = kGoodMs + kMinuteMs / 2;
  auto bad = reportAt(failed_ms, 0, false);
  pipeline.onReport(bad);
  auto again = reportAt(failed_ms + 2 * kMinuteMs, 0, false);  // later failures do not restart the clock
  pipeline.onReport(again);

  served.expireStale(failed_ms + 5 * kMinuteMs - 1);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 2u) << "still within keep_stale_for";
  served.expireStale(failed_ms + 5 * kMinuteMs);
  EXPECT_EQ(publishedOf(latest, "leaf-1"), nullptr) << "after keep_stale_for the series are absent";
  const auto state = freshness.state("leaf-1");
  ASSERT_TRUE(state);
  EXPECT_FALSE(state->stale) << "nothing is served, so nothing is stale";
  EXPECT_EQ(state->last_success_ms, kGoodMs) << "the last success is still when it was";

  // A failed poll past the bound drops them too, without the timer.
  auto good2 = reportAt(kGoodMs + 10 * kMinuteMs, 1);
  pipeline.onReport(good2);
  auto bad2 = reportAt(kGoodMs + 11 * kMinuteMs, 0, false);
  pipeline.onReport(bad2);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 1u);
  auto bad3 = reportAt(kGoodMs + 16 * kMinuteMs, 0, false);
  pipeline.onReport(bad3);
  EXPECT_EQ(publishedOf(latest, "leaf-1"), nullptr);
}

TEST_F(PipelineTest, AGoodPollClearsTheStaleMark) {
  served.setKeepStaleFor(std::chrono::minutes(5));
  pipeline.setTargets({"leaf-1"});
  auto good = reportAt(kGoodMs, 2);
  pipeline.onReport(good);
  auto bad = reportAt(kGoodMs + kMinuteMs, 0, false);
  pipeline.onReport(bad);
  ASSERT_TRUE(freshness.state("leaf-1")->stale);
  auto back = reportAt(kGoodMs + 2 * kMinuteMs, 3);
  pipeline.onReport(back);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 3u);
  EXPECT_FALSE(freshness.state("leaf-1")->stale);
  EXPECT_EQ(freshness.state("leaf-1")->last_success_ms, kGoodMs + 2 * kMinuteMs);
  // The clock starts again at the next failure, not at the old one.
  auto bad2 = reportAt(kGoodMs + 3 * kMinuteMs, 0, false);
  pipeline.onReport(bad2);
  served.expireStale(kGoodMs + 7 * kMinuteMs);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 3u);
}

TEST_F(PipelineTest, ZeroKeepStaleForClearsTheSeriesAtTheFirstFailedPoll) {
  served.setKeepStaleFor(std::chrono::milliseconds(0));
  pipeline.setTargets({"leaf-1"});
  auto good = reportAt(kGoodMs, 2);
  pipeline.onReport(good);
  auto bad = reportAt(kGoodMs + kMinuteMs, 0, false);
  pipeline.onReport(bad);
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 0u);
  EXPECT_FALSE(freshness.state("leaf-1")->stale);
}

TEST_F(PipelineTest, ATargetThatNeverAnsweredHasNothingStale) {
  served.setKeepStaleFor(std::chrono::minutes(5));
  pipeline.setTargets({"leaf-1"});
  auto bad = reportAt(kGoodMs, 0, false);
  pipeline.onReport(bad);
  EXPECT_EQ(publishedOf(latest, "leaf-1"), nullptr);
  const auto state = freshness.state("leaf-1");
  ASSERT_TRUE(state);
  EXPECT_FALSE(state->stale);
  EXPECT_FALSE(state->last_success_ms) << "no success: absent, never a made-up 0";
}

// Every other sink (remote write, rules) hears of every poll: the good one
// with its Samples, the failed ones as failures. None gets the kept values as
// new ones.
TEST_F(PipelineTest, KeptValuesAreNeitherPushedNorEvaluatedAgain) {
  served.setKeepStaleFor(std::chrono::minutes(5));
  pipeline.setTargets({"leaf-1"});
  auto good = reportAt(kGoodMs, 2);
  pipeline.onReport(good);
  for (int i = 1; i <= 2; ++i) {
    auto bad = reportAt(kGoodMs + i * kMinuteMs, 0, false);
    pipeline.onReport(bad);
  }
  EXPECT_EQ(recorded.polls, (std::vector<std::size_t>{2}));
  EXPECT_EQ(recorded.failed, (std::vector<std::string>{"leaf-1", "leaf-1"}));
  EXPECT_EQ(modulesOf(latest, "leaf-1"), 2u);
}

TEST(PipelineStoreTest, KeptValuesAreNotWrittenToHistoryAgain) {
  char dir_template[] = "/tmp/opticsd-pipeline-test.XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::filesystem::path dir(dir_template);
  {
    StoreOptions options;
    options.path = dir / "history.db";
    options.sample_interval = std::chrono::milliseconds(0);     // every poll is stored...
    options.deadband.heartbeat = std::chrono::milliseconds(0);  // ...and every sample of it
    options.retention = std::chrono::milliseconds(0);
    auto store = SqliteStore::open(options);
    ASSERT_TRUE(store) << store.error().message;
    prometheus::Registry registry;
    SelfMetrics self{registry, "test"};
    LatestSamples latest;
    TargetFreshness freshness;
    PollAccounting accounting{self};
    ServedPolls served{latest, freshness};
    HistorySink history{**store};
    Pipeline pipeline;
    pipeline.addSink(accounting);
    pipeline.addSink(served);
    pipeline.addSink(history);
    served.setKeepStaleFor(std::chrono::minutes(5));
    pipeline.setTargets({"leaf-1"});
    auto good = reportAt(kGoodMs, 2);
    pipeline.onReport(good);
    for (int i = 1; i <= 3; ++i) {
      auto bad = reportAt(kGoodMs + i * kMinuteMs, 0, false);
      pipeline.onReport(bad);
    }
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
    EXPECT_EQ(modulesOf(latest, "leaf-1"), 2u);
    EXPECT_EQ((*store)->stats().written_samples_total, 2u) << "the good poll once, the kept values never";
  }
  std::filesystem::remove_all(dir);
}

// With history on, the exporter's cache holds the poll's own buffer, as
// without history: before, every poll was deep-copied for the cache and the
// original queued for the store. History takes the shared poll and copies
// only what it keeps (the thinning happens while queueing).
TEST(PipelineStoreTest, WithHistoryOnThePollIsSharedNotCopied) {
  char dir_template[] = "/tmp/opticsd-pipeline-test.XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::filesystem::path dir(dir_template);
  {
    StoreOptions options;
    options.path = dir / "history.db";
    options.sample_interval = std::chrono::minutes(5);  // the first poll is kept, the next ones thinned
    options.retention = std::chrono::milliseconds(0);
    auto store = SqliteStore::open(options);
    ASSERT_TRUE(store) << store.error().message;
    prometheus::Registry registry;
    SelfMetrics self{registry, "test"};
    LatestSamples latest;
    TargetFreshness freshness;
    ServedPolls served{latest, freshness};
    HistorySink history{**store};
    Pipeline pipeline;
    pipeline.addSink(served);
    pipeline.addSink(history);
    pipeline.setTargets({"leaf-1"});

    const auto poll = [&](std::int64_t at_ms) {
      auto r = reportAt(at_ms, 4);
      r.result.samples.shrink_to_fit();
      const Sample* polled = r.result.samples.data();
      pipeline.onReport(r);
      const std::vector<Sample>* published = publishedOf(latest, "leaf-1");
      ASSERT_NE(published, nullptr);
      EXPECT_EQ(published->data(), polled) << "the cache holds the poll itself, not a copy";
    };
    poll(kGoodMs);              // kept by history
    poll(kGoodMs + kMinuteMs);  // thinned while queueing
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
    EXPECT_EQ((*store)->stats().decimated_samples_total, 4u);
    EXPECT_EQ((*store)->stats().written_samples_total, 4u);
  }
  std::filesystem::remove_all(dir);
}

TEST_F(PipelineTest, ResultsOfRemovedTargetsAreDropped) {
  pipeline.setTargets({"a", "b"});
  auto ra = report("a", 1);
  pipeline.onReport(ra);
  pipeline.setTargets({"b"});
  EXPECT_EQ(latest.targetCount(), 0u) << "a's series go away with it";
  EXPECT_FALSE(freshness.state("a")) << "and its freshness series";
  auto late = report("a", 1);  // finished after the reload removed it
  pipeline.onReport(late);
  EXPECT_EQ(latest.targetCount(), 0u);
  EXPECT_EQ(pipeline.cycles(), 1u);
}

TEST_F(PipelineTest, DerivesPreFecBerFromCountersBeforeAnySink) {
  pipeline.setTargets({"host-1"});
  std::vector<std::optional<double>> seen;
  recorded.on_poll = [&](const PublishedPoll& poll) {
    seen.push_back(poll.samples->at(0).module[ModuleMetric::kPreFecBerRatio]);
  };
  auto withCounters = [](std::int64_t t_ms, std::uint64_t corrected_bits) {
    PollReport r = report("host-1", 1);
    r.started_ms = t_ms;
    Sample& s = r.result.samples[0];
    s.link.lanes = 4;
    s.link.lane_line_rate_gbps = 25.78125;  // 100G over 4 x 25G NRZ lanes with RS(528) overhead
    s.fec.corrected_bits_total = corrected_bits;
    return r;
  };
  auto first = withCounters(1'000'000, 5'000);
  pipeline.onReport(first);
  auto second = withCounters(1'010'000, 5'000 + 10'313);  // 10 s later
  pipeline.onReport(second);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_FALSE(seen[0]) << "one sample has no rate: not reported, never 0";
  ASSERT_TRUE(seen[1]);
  // 10,313 bits / (4 lanes x 25.78125e9 b/s x 10 s) = 1.00005e-8
  EXPECT_NEAR(*seen[1], 1.00005e-8, 1e-12);
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

double counterValue(prometheus::Registry& registry, const std::string& name, const std::string& target) {
  for (const auto& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const auto& metric : family.metric) {
      for (const auto& label : metric.label) {
        if (label.name == "target" && label.value == target) return metric.counter.value;
      }
    }
  }
  return -1;
}

TEST_F(PipelineTest, ImpossibleValuesAreDroppedCountedAndNamedBeforeAnySink) {
  pipeline.setTargets({"leaf-1"});
  auto r = report("leaf-1", 2);
  r.result.samples[0].module.set(ModuleMetric::kTemperatureCelsius, 2e41);  // a sensor scale of 10^24
  r.result.samples[0].module.set(ModuleMetric::kSupplyVoltageVolts, 3.3);
  Lane lane;
  lane.number = 3;
  lane.values.set(LaneMetric::kRxPowerDbm, -2.5);
  lane.values.set(LaneMetric::kPreFecBerRatio, 7.0);  // a ratio above 1
  r.result.samples[1].lanes.push_back(lane);
  std::vector<Sample> staged;
  recorded.on_poll = [&](const PublishedPoll& poll) { staged = *poll.samples; };
  pipeline.onReport(r);

  ASSERT_EQ(staged.size(), 2u);
  EXPECT_FALSE(staged[0].module[ModuleMetric::kTemperatureCelsius]) << "dropped, i.e. not reported";
  EXPECT_EQ(staged[0].module[ModuleMetric::kSupplyVoltageVolts], 3.3);
  ASSERT_EQ(staged[0].issues.size(), 1u);
  EXPECT_NE(staged[0].issues[0].find("temperature_celsius 2e+41"), std::string::npos) << staged[0].issues[0];
  EXPECT_FALSE(staged[1].lanes[0].values[LaneMetric::kPreFecBerRatio]);
  EXPECT_EQ(staged[1].lanes[0].values[LaneMetric::kRxPowerDbm], -2.5);
  ASSERT_EQ(staged[1].issues.size(), 1u);
  EXPECT_EQ(staged[1].issues[0].rfind("lane 3 pre_fec_ber_ratio 7 is outside", 0), 0u) << staged[1].issues[0];
  EXPECT_EQ(counterValue(registry, "opticsd_implausible_values_total", "leaf-1"), 2);
}

// An unused VDM threshold set (0xFFFF, decoded far outside any BER) is the
// same on every poll: dropped each time, said and counted once per module.
TEST_F(PipelineTest, ImpossibleThresholdsAreCountedOncePerModuleButDroppedEveryPoll) {
  pipeline.setTargets({"leaf-1"});
  std::vector<Sample> staged;
  recorded.on_poll = [&](const PublishedPoll& poll) { staged = *poll.samples; };
  const auto poll = [&](const std::string& serial) {
    auto r = report("leaf-1", 1);
    Sample& s = r.result.samples[0];
    s.mutableIdentity().serial = serial;
    Thresholds unused;
    unused.high_alarm = 65535.0;
    unused.high_warning = 65535.0;
    s.mutableThresholds(LaneMetric::kPreFecBerRatio) = unused;
    pipeline.onReport(r);
    return staged.at(0);
  };
  for (int i = 0; i < 3; ++i) {
    const Sample seen = poll("SN-A");
    EXPECT_FALSE(seen.thresholds(LaneMetric::kPreFecBerRatio)) << "dropped on poll " << i;
  }
  EXPECT_EQ(counterValue(registry, "opticsd_implausible_values_total", "leaf-1"), 2);
  poll("SN-B");  // a swapped-in module is a new module
  EXPECT_EQ(counterValue(registry, "opticsd_implausible_values_total", "leaf-1"), 4);
}

}  // namespace
}  // namespace opticsd
