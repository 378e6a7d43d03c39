// A capture through the rules on its own clock (issue 19, replay with time):
// uncorrectable codewords captured at uneven times raise a finding stamped
// with the capture's time, without waiting for any scheduler. Each step goes
// the daemon's way: the Pipeline (its one PollPreparation) to the rules' sink.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "daemon/pipeline/pipeline.hpp"
#include "daemon/rules/rules_sink.hpp"
#include "drivers/replay/replay_driver.hpp"
#include "tests/unit/rules/recording_sink.hpp"

namespace opticsd {
namespace {

namespace fs = std::filesystem;

// The time of the last Sample each poll published.
class LastSampleTime : public PollSink {
 public:
  void onPoll(const PublishedPoll& poll) override {
    ++polls;
    if (!poll.samples->empty()) last_ms = poll.samples->back().timestamp_ms;
  }
  void onPollFailed(const FailedPoll&) override { ++polls; }
  std::size_t polls = 0;
  std::int64_t last_ms = 0;
};

TEST(ReplayThroughPipeline, AFindingCarriesTheCapturesTimeNotTheClocks) {
  const fs::path host = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/replay/synthetic-host/qsfp0";
  const fs::path dir = fs::temp_directory_path() / ("opticsd-replay-rules-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "qsfp0");
  fs::copy_file(host / "module.dump", dir / "qsfp0" / "module.dump");
  std::ofstream(dir / "qsfp0" / "fec.seq") << "time_ms=0 uncorrectable_blocks=0 up=1\n"
                                              "time_ms=30000 uncorrectable_blocks=0 up=1\n"
                                              "time_ms=75000 uncorrectable_blocks=0 up=1\n"
                                              "time_ms=7275000 uncorrectable_blocks=12 up=1\n";
  auto capture = replay::loadReplayDirectory(dir);
  fs::remove_all(dir);
  ASSERT_TRUE(capture) << capture.error().message;

  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  const std::int64_t first = 1'700'000'000'000;
  RulesSink rules(engine);
  LastSampleTime times;
  Pipeline pipeline;
  pipeline.addSink(rules);
  pipeline.addSink(times);
  pipeline.setTargets({"host1"});
  replay::ReplayDriver driver("host1", nullptr, std::move(*capture), 30'000);
  for (int step = 0; step < 4; ++step) {
    // The clock given is only the first step's: later steps take their
    // times from the capture, so no step waits for anything.
    PollReport report{.target = "host1", .driver = "replay", .result = driver.step(first), .started_ms = first};
    report.ok = !report.result.failed();
    pipeline.onReport(report);
  }
  EXPECT_EQ(times.polls, 4u);
  EXPECT_EQ(times.last_ms, first + 7'275'000);
  const Finding* f = sink.firstRaise("qsfp0", "post_fec_uncorrectable");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->start_ms, first + 7'275'000) << "two hours of capture, run in no time";
}

}  // namespace
}  // namespace opticsd
