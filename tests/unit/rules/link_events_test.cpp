// Link events are the port's (issue 19 item 5): one bounce with LOS on every
// lane is one event, and lane rules do not raise and clear on every bounce of
// a link already found flapping.
#include <gtest/gtest.h>

#include <set>

#include "daemon/rules/rules_engine.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000;
constexpr std::int64_t kPollMs = 30'000;

// A 4-lane optic; on a bounce poll every lane has LOS and reads no light.
Sample poll(std::int64_t i, bool bounce, std::uint64_t downs) {
  Sample s = test::optic("sw", "p1", kT0 + i * kPollMs);
  s.link.up = !bounce;
  s.link.down_events_total = downs;
  for (auto& lane : s.lanes) {
    lane.status.rx_los = bounce;
    if (bounce) lane.values.set(LaneMetric::kRxPowerDbm, -30.0);
  }
  return s;
}

// Findings of `rule` raised (escalations record the same start again) after `from_ms`.
std::size_t raisesOf(const test::RecordingSink& sink, const std::string& rule, std::int64_t from_ms = 0) {
  std::set<std::int64_t> starts;
  for (const auto& f : sink.records) {
    if (f.active() && f.rule == rule && f.start_ms > from_ms) starts.insert(f.start_ms);
  }
  return starts.size();
}

TEST(LinkEvents, OneBounceOnFourLanesIsOneEventNotAFlappingLink) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::uint64_t downs = 0;
  for (std::int64_t i = 0; i < 40; ++i) {
    const bool bounce = i == 20;
    if (bounce) ++downs;
    engine.evaluate("sw", {poll(i, bounce, downs)});
  }
  EXPECT_EQ(raisesOf(sink, "link_flapping"), 0u);
}

TEST(LinkEvents, ALinkAlreadyFlappingDoesNotReRaiseLaneRulesOnEveryBounce) {
  test::RecordingSink sink;
  RulesEngine engine(defaultRuleSet(), Topology{}, &sink);
  std::uint64_t downs = 0;
  // A bounce every 5th poll for 160 polls: 32 bounces, 12 per hour.
  for (std::int64_t i = 0; i < 160; ++i) {
    const bool bounce = i % 5 == 4;
    if (bounce) ++downs;
    engine.evaluate("sw", {poll(i, bounce, downs)});
  }
  ASSERT_EQ(raisesOf(sink, "link_flapping"), 1u);
  // Before the flapping finding the first bounces raise a low Rx; after it,
  // no more raise/clear pairs (there was one per bounce, 28 more).
  const Finding* flapping = sink.firstRaise("p1", "link_flapping");
  EXPECT_EQ(raisesOf(sink, "rx_power_low", flapping->start_ms), 0u);
  EXPECT_GE(raisesOf(sink, "rx_power_low"), 1u);
}

}  // namespace
}  // namespace opticsd
