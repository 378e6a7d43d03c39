#pragma once
// Helpers shared by the SNMP integration tests: drivers built from a YAML
// target mapping exactly as the config loader builds them, polled together
// on one io_context.

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents.hpp"
#include "drivers/snmp/snmp_driver.hpp"

namespace opticsd::snmp::testing {

inline std::unique_ptr<Driver> makeDriver(boost::asio::io_context& io, const std::string& name,
                                          const std::string& yaml) {
  std::vector<ConfigIssue> issues;
  OptionReader reader(YAML::Load(yaml), "test.yaml", name, issues);
  auto config = driverEntry().validate(name, reader);
  for (const auto& i : issues) ADD_FAILURE() << i.format();
  if (config == nullptr) return nullptr;
  auto driver = driverEntry().create(DriverContext{name, io}, *config);
  if (!driver) ADD_FAILURE() << driver.error().message;
  return driver ? std::move(*driver) : nullptr;
}

// Polls every driver once, concurrently on one io_context; each must answer once.
inline std::vector<PollResult> pollAll(boost::asio::io_context& io, std::vector<std::unique_ptr<Driver>>& drivers) {
  std::vector<PollResult> out(drivers.size());
  std::vector<int> calls(drivers.size(), 0);
  for (std::size_t i = 0; i < drivers.size(); ++i) {
    if (!drivers[i]) {
      ADD_FAILURE() << "driver " << i << " was not created";
      return out;
    }
    drivers[i]->poll(0, [&, i](PollResult r) {
      ++calls[i];
      out[i] = std::move(r);
    });
  }
  io.restart();
  io.run();  // returns only when every poll has finished: a looping walk would hang here
  for (auto c : calls) EXPECT_EQ(c, 1);
  return out;
}

inline std::string errorsOf(const PollResult& r) {
  std::string out;
  for (const auto& e : r.errors) out += e + "\n";
  return out;
}

// A suite-wide agent: started by `start` (which also waits until it answers),
// or null when it would not start (the suite then skips).
inline Agent* startSharedAgent(const std::function<bool(Agent&)>& start) {
  auto agent = std::make_unique<Agent>();
  if (!start(*agent)) return nullptr;
  return agent.release();
}

}  // namespace opticsd::snmp::testing
