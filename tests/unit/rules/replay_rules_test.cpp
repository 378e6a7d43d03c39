// A capture through the rules on its own clock (issue 19, replay with time):
// uncorrectable codewords captured at uneven times raise a finding stamped
// with the capture's time, without waiting for any scheduler.
#include "daemon/rules/replay_rules.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/rules/recording_sink.hpp"

namespace opticsd {
namespace {

namespace fs = std::filesystem;

TEST(ReplayRules, AFindingCarriesTheCapturesTimeNotTheClocks) {
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
  const ReplayRun run = runReplayThroughRules(std::move(*capture), "host1", 4, first, 30'000, engine);
  EXPECT_EQ(run.steps, 4u);
  EXPECT_EQ(run.last_sample_ms, first + 7'275'000);
  const Finding* f = sink.firstRaise("qsfp0", "post_fec_uncorrectable");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->start_ms, first + 7'275'000) << "two hours of capture, run in no time";
}

}  // namespace
}  // namespace opticsd
