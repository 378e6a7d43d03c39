#include "drivers/sim/sim_driver.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <boost/asio/io_context.hpp>

namespace opticsd::sim {
namespace {

constexpr std::int64_t kNow = 1'700'000'000'000;

struct Made {
  std::unique_ptr<Driver> driver;
  std::vector<ConfigIssue> issues;
};

Made make(const std::string& yaml, boost::asio::io_context* io) {
  Made m;
  OptionReader reader(YAML::Load(yaml), "t.yaml", "targets[0]", m.issues);
  m.driver = createSimDriver(DriverContext{"spine1", io}, reader);
  return m;
}

TEST(SimDriver, ValidateOnlyWithoutAnIoContext) {
  Made ok = make("ports: 4", nullptr);
  EXPECT_EQ(ok.driver, nullptr);
  EXPECT_TRUE(ok.issues.empty());
  Made bad = make("ports: -4", nullptr);
  EXPECT_EQ(bad.driver, nullptr);
  ASSERT_EQ(bad.issues.size(), 1u);
  EXPECT_EQ(bad.issues[0].key, "targets[0].ports");
}

TEST(SimDriver, InvalidOptionsGiveNoDriver) {
  boost::asio::io_context io;
  Made bad = make("scenarios: [{scenario: meteor_strike, port: 1}]", &io);
  EXPECT_EQ(bad.driver, nullptr);
  EXPECT_FALSE(bad.issues.empty());
}

TEST(SimDriver, PollDeliversEveryPortThroughTheIoContext) {
  boost::asio::io_context io;
  Made m = make("ports: 4\nscenarios: [{scenario: lane_failure, port: 2, lane: 1, onset: 1m, ramp: 0s}]", &io);
  ASSERT_NE(m.driver, nullptr);
  std::optional<PollResult> got;
  m.driver->poll(kNow, [&](PollResult r) { got = std::move(r); });
  EXPECT_FALSE(got) << "done must not run inside poll()";
  io.run();
  ASSERT_TRUE(got);
  EXPECT_TRUE(got->errors.empty());
  ASSERT_EQ(got->samples.size(), 4u);
  EXPECT_EQ(got->samples[1].target, "spine1");
  EXPECT_EQ(got->samples[1].port, "Ethernet2");
  EXPECT_EQ(got->samples[1].timestamp_ms, kNow);
  EXPECT_TRUE(got->samples[1].link.up.value_or(false));

  // The epoch is the first poll: the failure starts a minute after it.
  got.reset();
  io.restart();
  m.driver->poll(kNow + 61'000, [&](PollResult r) { got = std::move(r); });
  io.run();
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->samples[1].link.up.value_or(true));
  EXPECT_TRUE(got->samples[0].link.up.value_or(false));
}

TEST(SimDriver, CancelSilencesThePollInFlight) {
  boost::asio::io_context io;
  Made m = make("ports: 2", &io);
  ASSERT_NE(m.driver, nullptr);
  int calls = 0;
  m.driver->poll(kNow, [&](PollResult) { ++calls; });
  m.driver->cancel();
  io.run();
  EXPECT_EQ(calls, 0);
  io.restart();
  m.driver->poll(kNow + 30'000, [&](PollResult) { ++calls; });
  m.driver.reset();  // destroyed before the handler runs
  io.run();
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace opticsd::sim
