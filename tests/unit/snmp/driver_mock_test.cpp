// The driver against the map-backed MockSession: what it asks for, when it
// re-reads the slow tables, and how failures come out.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "drivers/snmp/explain.hpp"
#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/snmp_driver.hpp"
#include "test_support.hpp"
#include "tests/support/snmp/mock_session.hpp"
#include "tests/support/snmp/snmprec.hpp"

namespace opticsd::snmp {
namespace {

struct Harness {
  boost::asio::io_context io;
  MockSession* mock = nullptr;
  std::unique_ptr<SnmpDriver> driver;
  std::optional<VarbindStore> store_override;  // served instead of the fixture when set before the first poll

  Harness(const std::string& fixture, const std::string& profile, int static_refresh = 3, bool lldp = false) {
    auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
    EXPECT_TRUE(catalog);
    DriverOptions options;
    options.profile = profile;
    options.static_refresh = static_refresh;
    options.lldp = lldp;
    auto store = testing::fixtureStore(fixture);
    driver = std::make_unique<SnmpDriver>(
        &io, "sw1", options, *catalog, [this, store](const std::string&) -> Result<std::unique_ptr<Session>> {
          auto session = std::make_unique<MockSession>(io, store_override ? *store_override : store);
          mock = session.get();
          return std::unique_ptr<Session>(std::move(session));
        });
  }

  PollResult pollOnce(std::int64_t now = 1000) {
    int calls = 0;
    PollResult out;
    driver->poll(now, [&](PollResult r) {
      ++calls;
      out = std::move(r);
    });
    EXPECT_EQ(calls, 0) << "done must not run inside poll()";
    io.restart();
    io.run();
    EXPECT_EQ(calls, 1);
    return out;
  }
};

TEST(SnmpDriverMock, PicksProfileBySysObjectIdThenWalks) {
  Harness h("sonic.snmprec", "");
  auto r = h.pollOnce();
  ASSERT_EQ(r.samples.size(), 1u) << (r.errors.empty() ? "" : r.errors.front());
  EXPECT_EQ(r.samples[0].port, "Ethernet0");
  ASSERT_EQ(h.mock->gets().size(), 1u);
  EXPECT_EQ(h.mock->gets()[0][0].toString(), "1.3.6.1.2.1.1.2.0");
  ASSERT_NE(h.driver->profile(), nullptr);
  EXPECT_EQ(h.driver->profile()->name, "sonic");
}

TEST(SnmpDriverMock, SlowTablesOnlyEveryStaticRefreshPolls) {
  Harness h("arista-eos.snmprec", "arista-eos", 3);
  auto plan = planWalks(*h.driver->profile());
  h.pollOnce();
  EXPECT_EQ(h.mock->walked().size(), plan.static_roots.size() + plan.dynamic_roots.size());
  EXPECT_TRUE(h.mock->gets().empty());  // profile named: no sysObjectID GET
  for (int i = 0; i < 2; ++i) {
    h.mock->clearCalls();
    auto r = h.pollOnce();
    EXPECT_EQ(r.samples.size(), 2u);
    EXPECT_EQ(h.mock->walked(), plan.dynamic_roots);  // values only
  }
  h.mock->clearCalls();
  h.pollOnce();
  EXPECT_EQ(h.mock->walked().size(), plan.static_roots.size() + plan.dynamic_roots.size());
}

TEST(SnmpDriverMock, ValuesChangeBetweenPollsWithoutReResolving) {
  Harness h("sonic.snmprec", "sonic", 100);
  h.pollOnce();
  auto rows = readSnmprecFile(testing::fixturePath("sonic.snmprec"));
  ASSERT_TRUE(rows);
  for (auto& vb : *rows) {
    if (vb.oid.toString() == "1.3.6.1.2.1.99.1.1.1.4.1000000110") vb.integer = 40250000;
  }
  h.mock->setData(VarbindStore(*rows));
  auto r = h.pollOnce();
  ASSERT_EQ(r.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(*r.samples[0].module[ModuleMetric::kTemperatureCelsius], 40.25);
}

TEST(SnmpDriverMock, FailedSubtreeIsAPerTargetErrorAndOtherValuesSurvive) {
  Harness h("arista-eos.snmprec", "arista-eos");
  h.pollOnce();
  h.mock->failUnder(Oid{1, 3, 6, 1, 4, 1, 30065, 3, 37}, "timeout: no answer");
  auto r = h.pollOnce();
  EXPECT_EQ(r.samples.size(), 2u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("timeout"), std::string::npos);
  EXPECT_FALSE(r.failed());
}

TEST(SnmpDriverMock, FailedReReadOfSlowTablesKeepsTheLayoutAndRetriesNextPoll) {
  Harness h("arista-eos.snmprec", "arista-eos", 2);
  const auto plan = planWalks(*h.driver->profile());
  ASSERT_FALSE(plan.static_roots.empty());
  ASSERT_EQ(h.pollOnce().samples.size(), 2u);
  h.pollOnce();  // values only
  h.mock->failUnder(plan.static_roots.front(), "timeout: no answer");
  auto r = h.pollOnce();  // the periodic re-read, which fails
  EXPECT_EQ(r.samples.size(), 2u) << "values lost because the slow tables did not answer";
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("timeout"), std::string::npos);
  h.mock->clearCalls();
  h.pollOnce();
  EXPECT_EQ(h.mock->walked().size(), plan.static_roots.size() + plan.dynamic_roots.size())
      << "the failed re-read is not tried again on the next poll";
}

TEST(SnmpDriverMock, UnknownSysObjectIdSaysSo) {
  Harness h("sonic.snmprec", "");
  auto rows = readSnmprecFile(testing::fixturePath("sonic.snmprec"));
  ASSERT_TRUE(rows);
  for (auto& vb : *rows) {
    if (vb.type == VarType::kObjectId) vb.oid_value = Oid{1, 3, 6, 1, 4, 1, 424242};
  }
  h.store_override = VarbindStore(*rows);
  auto r = h.pollOnce();
  ASSERT_TRUE(r.failed());
  EXPECT_NE(r.errors[0].find("1.3.6.1.4.1.424242"), std::string::npos) << r.errors[0];
  EXPECT_EQ(h.driver->profile(), nullptr);
}

TEST(SnmpDriverMock, CancelSuppressesDone) {
  Harness h("sonic.snmprec", "sonic");
  int calls = 0;
  h.driver->poll(0, [&](PollResult) { ++calls; });
  h.driver->cancel();
  h.io.run();
  EXPECT_EQ(calls, 0);
}

TEST(SnmpDriverMock, LldpNeighbours) {
  auto rows = readSnmprecFile(testing::fixturePath("sonic.snmprec"));
  ASSERT_TRUE(rows);
  auto add = [&](const std::string& oid, std::string text) {
    rows->push_back(Varbind::textValue(*Oid::parse(oid), std::move(text)));
  };
  rows->push_back(Varbind::integerValue(*Oid::parse("1.0.8802.1.1.2.1.3.7.1.2.1"), 5));
  add("1.0.8802.1.1.2.1.3.7.1.3.1", "Ethernet0");
  add("1.0.8802.1.1.2.1.4.1.1.7.0.1.1", "eth2");
  add("1.0.8802.1.1.2.1.4.1.1.9.0.1.1", "gpu-node-17");
  boost::asio::io_context io;
  auto catalog = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
  DriverOptions options;
  options.profile = "sonic";
  options.lldp = true;
  VarbindStore store(*rows);
  SnmpDriver driver(&io, "leaf1", options, *catalog, [&](const std::string&) -> Result<std::unique_ptr<Session>> {
    return std::unique_ptr<Session>(std::make_unique<MockSession>(io, store));
  });
  PollResult out;
  driver.poll(0, [&](PollResult r) { out = std::move(r); });
  io.run();
  ASSERT_EQ(out.neighbors.size(), 1u);
  EXPECT_EQ(out.neighbors[0].port, "Ethernet0");
  EXPECT_EQ(out.neighbors[0].remote_system, "gpu-node-17");
  EXPECT_EQ(out.neighbors[0].remote_port, "eth2");
}

// A Cisco-enterprise agent whose sensor names the profile does not know,
// with transceivers in ENTITY-MIB: 0 modules must be a poll error with the
// reason, not a healthy empty poll (issue 12, item 2).
const char* kUnknownCiscoNaming = R"(1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.9.1.2494
1.3.6.1.2.1.47.1.1.1.1.2.1001|4|SFP-10GBase-SR
1.3.6.1.2.1.47.1.1.1.1.2.1002|4|Te1/0/1 Widget Reading
1.3.6.1.2.1.47.1.1.1.1.4.1002|2|1001
1.3.6.1.2.1.47.1.1.1.1.7.1002|4|Te1/0/1 Widget Reading
1.3.6.1.4.1.9.9.91.1.1.1.1.1.1002|2|8
1.3.6.1.4.1.9.9.91.1.1.1.1.2.1002|2|9
1.3.6.1.4.1.9.9.91.1.1.1.1.3.1002|2|0
1.3.6.1.4.1.9.9.91.1.1.1.1.4.1002|2|30
1.3.6.1.4.1.9.9.91.1.1.1.1.5.1002|2|1
)";

TEST(SnmpDriverMock, ZeroModulesWhileEntityMibListsTransceiversIsAPollError) {
  Harness h("cisco-entity-sensor.snmprec", "cisco-entity-sensor");
  h.store_override = VarbindStore(*parseSnmprec(kUnknownCiscoNaming));
  auto r = h.pollOnce();
  ASSERT_TRUE(r.failed()) << "a silent ok poll with 0 modules";
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("profile cisco-entity-sensor found 0 modules"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("1 transceiver entities (e.g. 'SFP-10GBase-SR')"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("1 sensor rows matched none"), std::string::npos) << r.errors[0];
  // Between re-reads of the slow tables the reason is kept, not walked for again.
  h.mock->clearCalls();
  auto again = h.pollOnce();
  EXPECT_TRUE(again.failed());
  EXPECT_EQ(std::count(h.mock->walked().begin(), h.mock->walked().end(), oids::kEntPhysicalEntry.child(2)), 0);
}

TEST(SnmpDriverMock, ZeroModulesOnADeviceWithoutTransceiversIsFine) {
  Harness h("cisco-entity-sensor.snmprec", "cisco-entity-sensor");
  h.store_override = VarbindStore(*parseSnmprec("1.3.6.1.2.1.47.1.1.1.1.2.1|4|Chassis\n"));
  auto r = h.pollOnce();
  EXPECT_TRUE(r.samples.empty());
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
}

TEST(SnmpDriverMock, ExplainTracesEveryRowToTheSink) {
  std::vector<std::string> lines;
  std::string traced_target;
  setExplainSink([&](const std::string& target, std::vector<std::string> l) {
    traced_target = target;
    lines = std::move(l);
  });
  Harness h("cisco-entity-sensor.snmprec", "cisco-entity-sensor");
  h.store_override = VarbindStore(*parseSnmprec(kUnknownCiscoNaming));
  h.pollOnce();
  setExplainSink(nullptr);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_EQ(traced_target, "sw1");
  EXPECT_NE(all.find("profile cisco-entity-sensor ("), std::string::npos) << all;
  EXPECT_NE(all.find("sensor 1002 'Te1/0/1 Widget Reading' type 8: no rule matches"), std::string::npos) << all;
  EXPECT_NE(all.find("0 modules"), std::string::npos) << all;
}

}  // namespace
}  // namespace opticsd::snmp
