#include "drivers/sim/sim_driver.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <boost/asio/io_context.hpp>

#include "drivers/options/option_reader.hpp"
#include "drivers/sim/sim_switch.hpp"

namespace opticsd::sim {
namespace {

constexpr std::int64_t kNow = 1'700'000'000'000;

struct Made {
  std::unique_ptr<Driver> driver;
  std::vector<ConfigIssue> issues;
};

std::shared_ptr<const DriverConfig> validate(const std::string& yaml, std::vector<ConfigIssue>& issues) {
  OptionReader reader(YAML::Load(yaml), "t.yaml", "targets[0]", issues);
  return driverEntry().validate("spine1", reader);
}

Made make(const std::string& yaml, boost::asio::io_context& io) {
  Made m;
  auto config = validate(yaml, m.issues);
  if (config == nullptr) return m;
  auto driver = driverEntry().create(DriverContext{"spine1", io}, *config);
  if (driver) m.driver = std::move(*driver);
  return m;
}

TEST(SimDriver, ValidateReadsTheOptionsIntoATypedConfig) {
  std::vector<ConfigIssue> issues;
  auto ok = validate("ports: 4", issues);
  ASSERT_NE(ok, nullptr);
  EXPECT_TRUE(issues.empty());
  const auto* sim = driverConfigAs<SimSwitchConfig>(*ok);
  ASSERT_NE(sim, nullptr);
  EXPECT_EQ(sim->ports, 4);
  EXPECT_EQ(validate("ports: -4", issues), nullptr);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].key, "targets[0].ports");
}

TEST(SimDriver, CreateRefusesAnotherDriversConfig) {
  boost::asio::io_context io;
  const DriverConfigOf<int> foreign(7);
  auto driver = driverEntry().create(DriverContext{"spine1", io}, foreign);
  ASSERT_FALSE(driver);
  EXPECT_NE(driver.error().message.find("another driver's config"), std::string::npos);
}

TEST(SimDriver, InvalidOptionsGiveNoDriver) {
  boost::asio::io_context io;
  Made bad = make("scenarios: [{scenario: meteor_strike, port: 1}]", io);
  EXPECT_EQ(bad.driver, nullptr);
  EXPECT_FALSE(bad.issues.empty());
}

TEST(SimDriver, PollDeliversEveryPortThroughTheIoContext) {
  boost::asio::io_context io;
  Made m = make("ports: 4\nscenarios: [{scenario: lane_failure, port: 2, lane: 1, onset: 1m, ramp: 0s}]", io);
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
  Made m = make("ports: 2", io);
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
