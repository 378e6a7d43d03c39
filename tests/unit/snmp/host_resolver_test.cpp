// Host names resolved off the polling thread: HostResolver on its own, and
// the driver with a DNS server that never answers (BlockingDns) next to a
// healthy target on the same io_context.
#include "drivers/snmp/host_resolver.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "blocking_dns.hpp"
#include "drivers/snmp/profile_catalog.hpp"
#include "drivers/snmp/snmp_driver.hpp"
#include "test_support.hpp"
#include "tests/support/snmp/mock_session.hpp"

namespace opticsd::snmp {
namespace {

using testing::BlockingDns;
using testing::runUntil;

TEST(HostResolver, NumericAddressesNeedNoLookup) {
  const std::pair<const char*, bool> cases[] = {
      {"10.0.0.1", true},       {"::1", true},     {"fe80::1:2", true}, {"leaf1", false},
      {"leaf1.example", false}, {"10.0.0", false}, {"", false}};
  for (const auto& [text, numeric] : cases) EXPECT_EQ(isNumericAddress(text), numeric) << text;
}

TEST(HostResolver, RequestsForOneNameShareOneLookupAndTheAnswerIsCached) {
  BlockingDns dns;
  HostResolver resolver(dns.lookup());
  boost::asio::io_context io;
  std::vector<Result<std::string>> answers;
  auto a = resolver.resolve(io, "leaf1", [&](Result<std::string> r) { answers.push_back(std::move(r)); });
  auto b = resolver.resolve(io, "leaf1", [&](Result<std::string> r) { answers.push_back(std::move(r)); });
  ASSERT_TRUE(dns.waitRunning());
  io.poll();
  EXPECT_TRUE(answers.empty());
  EXPECT_EQ(resolver.inFlight(), 1u);
  EXPECT_FALSE(resolver.cached("leaf1"));

  dns.answer(std::string("10.0.0.1"));
  ASSERT_TRUE(runUntil(io, [&] { return answers.size() == 2; }));
  for (const auto& r : answers) {
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, "10.0.0.1");
  }
  EXPECT_EQ(dns.asked(), std::vector<std::string>{"leaf1"});
  auto hit = resolver.cached("leaf1");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->address, "10.0.0.1");
  EXPECT_FALSE(hit->stale);
}

TEST(HostResolver, FailuresAreNotCachedAndAskedAgain) {
  BlockingDns dns;
  dns.answer(fail("Name or service not known"));
  HostResolver resolver(dns.lookup());
  boost::asio::io_context io;
  for (int i = 0; i < 2; ++i) {
    std::optional<Result<std::string>> answer;
    auto pending = resolver.resolve(io, "gone", [&](Result<std::string> r) { answer = std::move(r); });
    ASSERT_TRUE(runUntil(io, [&] { return answer.has_value(); }));
    ASSERT_FALSE(*answer);
    EXPECT_EQ(answer->error().message, "Name or service not known");
    EXPECT_FALSE(resolver.cached("gone"));
    ASSERT_TRUE(dns.waitIdle());
  }
  EXPECT_EQ(dns.asked().size(), 2u);
}

TEST(HostResolver, DroppedRequestIsNeverCalledBack) {
  BlockingDns dns;
  HostResolver resolver(dns.lookup());
  boost::asio::io_context io;
  int called = 0;
  auto pending = resolver.resolve(io, "leaf1", [&](Result<std::string>) { ++called; });
  ASSERT_TRUE(dns.waitRunning());
  pending.reset();
  dns.answer(std::string("10.0.0.1"));
  ASSERT_TRUE(runUntil(io, [&] { return resolver.cached("leaf1").has_value(); }));
  io.restart();
  io.poll();
  EXPECT_EQ(called, 0);
}

TEST(HostResolver, StaleAnswerStaysInUseWhileARefreshRuns) {
  BlockingDns dns;
  dns.answer(std::string("10.0.0.1"));
  HostResolver resolver(dns.lookup(), HostResolver::Options{std::chrono::seconds(0), 4});
  boost::asio::io_context io;
  resolver.refresh("leaf1");
  ASSERT_TRUE(runUntil(io, [&] { return resolver.cached("leaf1").has_value(); }));
  ASSERT_TRUE(dns.waitIdle());
  EXPECT_TRUE(resolver.cached("leaf1")->stale);  // ttl 0

  dns.block();
  resolver.refresh("leaf1");
  ASSERT_TRUE(dns.waitRunning());
  EXPECT_EQ(resolver.cached("leaf1")->address, "10.0.0.1");  // still served while DNS is stuck
  dns.answer(std::string("10.0.0.2"));
  ASSERT_TRUE(runUntil(io, [&] { return resolver.cached("leaf1")->address == "10.0.0.2"; }));
}

TEST(HostResolver, MoreNamesThanThreadsQueueAndAllAnswer) {
  BlockingDns dns;
  HostResolver resolver(dns.lookup(), HostResolver::Options{std::chrono::minutes(5), 2});
  boost::asio::io_context io;
  std::vector<std::unique_ptr<HostResolver::Pending>> pending;
  int answered = 0;
  for (int i = 0; i < 5; ++i) {
    pending.push_back(resolver.resolve(io, "leaf" + std::to_string(i), [&](Result<std::string> r) {
      EXPECT_TRUE(r);
      ++answered;
    }));
  }
  ASSERT_TRUE(dns.waitRunning());
  EXPECT_LE(dns.running(), 2);
  dns.answer(std::string("10.0.0.9"));
  ASSERT_TRUE(runUntil(io, [&] { return answered == 5; }));
  EXPECT_EQ(dns.asked().size(), 5u);
  EXPECT_EQ(resolver.inFlight(), 0u);
}

// ---- The driver ----

struct DnsHarness {
  boost::asio::io_context io;
  BlockingDns dns;
  std::shared_ptr<HostResolver> resolver = std::make_shared<HostResolver>(dns.lookup());
  std::shared_ptr<const ProfileCatalog> catalog;
  VarbindStore store = testing::fixtureStore("arista-eos.snmprec");
  std::vector<std::string> opened;  // addresses sessions were opened with

  DnsHarness() {
    auto loaded = ProfileCatalog::load({std::string(OPTICSD_SOURCE_DIR) + "/schemas/snmp-profiles"});
    EXPECT_TRUE(loaded);
    if (loaded) catalog = *loaded;
  }

  std::unique_ptr<SnmpDriver> driver(const std::string& name, const std::string& address) {
    DriverOptions options;
    options.profile = "arista-eos";
    options.session.address = address;
    options.resolve_timeout = std::chrono::milliseconds(50);
    return std::make_unique<SnmpDriver>(
        &io, name, options, catalog,
        [this](const std::string& at) -> Result<std::unique_ptr<Session>> {
          opened.push_back(at);
          return std::unique_ptr<Session>(std::make_unique<MockSession>(io, store));
        },
        resolver);
  }

  PollResult pollOnce(SnmpDriver& d) {
    std::optional<PollResult> out;
    d.poll(1000, [&](PollResult r) { out = std::move(r); });
    EXPECT_FALSE(out.has_value()) << "done must not run inside poll()";
    EXPECT_TRUE(runUntil(io, [&] { return out.has_value(); }));
    return out ? *out : PollResult{};
  }
};

std::string joined(const PollResult& r) {
  std::string out;
  for (const auto& e : r.errors) out += e + "\n";
  return out;
}

TEST(SnmpDriverDns, SilentDnsDelaysNoOtherTargetAndRecoversByItself) {
  DnsHarness h;
  auto healthy = h.driver("ok", "127.0.0.1");
  auto named = h.driver("named", "leaf-1.fabric.example");

  // The named target's poll waits on a lookup that never answers...
  std::optional<PollResult> named_result;
  named->poll(1000, [&](PollResult r) { named_result = std::move(r); });
  ASSERT_TRUE(h.dns.waitRunning());
  // ...while the healthy target completes poll after poll on the same thread.
  for (int i = 0; i < 5; ++i) {
    auto r = h.pollOnce(*healthy);
    EXPECT_EQ(r.samples.size(), 2u) << joined(r);
    EXPECT_EQ(h.dns.running(), 1) << "the lookup is still stuck";
  }
  // The named poll ends at its own resolve_timeout, with a clear error.
  ASSERT_TRUE(runUntil(h.io, [&] { return named_result.has_value(); }));
  EXPECT_TRUE(named_result->failed());
  EXPECT_NE(joined(*named_result).find("cannot resolve host leaf-1.fabric.example: no answer from DNS within 50 ms"),
            std::string::npos)
      << joined(*named_result);

  // A second poll while DNS is still silent joins the lookup in flight.
  auto again = h.pollOnce(*named);
  EXPECT_NE(joined(again).find("cannot resolve host leaf-1.fabric.example"), std::string::npos) << joined(again);
  EXPECT_EQ(h.dns.asked().size(), 1u);

  // DNS answers "no such name": the lookup is not cached, the next poll asks
  // again and says why.
  h.dns.answer(fail("Name or service not known"));
  ASSERT_TRUE(h.dns.waitIdle());
  auto nx = h.pollOnce(*named);
  EXPECT_NE(joined(nx).find("cannot resolve host leaf-1.fabric.example: Name or service not known"), std::string::npos)
      << joined(nx);
  ASSERT_TRUE(h.dns.waitIdle());

  // The name resolves again: the target recovers without any action.
  h.dns.answer(std::string("127.0.0.1"));
  auto up = h.pollOnce(*named);
  EXPECT_EQ(up.samples.size(), 2u) << joined(up);
  EXPECT_TRUE(up.errors.empty()) << joined(up);
  // Sessions only ever get numeric addresses.
  ASSERT_FALSE(h.opened.empty());
  for (const auto& a : h.opened) EXPECT_TRUE(isNumericAddress(a)) << a;
}

TEST(SnmpDriverDns, DestroyedWhileResolvingNeverCallsBack) {
  DnsHarness h;
  auto named = h.driver("named", "leaf-2.fabric.example");
  int called = 0;
  named->poll(1000, [&](PollResult) { ++called; });
  ASSERT_TRUE(h.dns.waitRunning());
  named.reset();
  h.dns.answer(std::string("127.0.0.1"));
  ASSERT_TRUE(h.dns.waitIdle());
  runUntil(h.io, [&] { return h.resolver->inFlight() == 0 && h.resolver->cached("leaf-2.fabric.example"); });
  h.io.restart();
  h.io.run_for(std::chrono::milliseconds(100));  // the expired resolve timer too
  EXPECT_EQ(called, 0);
}

TEST(SnmpDriverDns, ANameThatMovesGetsANewSession) {
  DnsHarness h;
  h.dns.answer(std::string("127.0.0.1"));
  auto resolver = std::make_shared<HostResolver>(h.dns.lookup(), HostResolver::Options{std::chrono::seconds(0), 4});
  h.resolver = resolver;
  auto named = h.driver("named", "leaf-3.fabric.example");
  EXPECT_EQ(h.pollOnce(*named).samples.size(), 2u);
  ASSERT_TRUE(h.dns.waitIdle());
  h.dns.answer(std::string("127.0.0.2"));
  // ttl 0: this poll uses the stale address and refreshes in the background...
  EXPECT_EQ(h.pollOnce(*named).samples.size(), 2u);
  ASSERT_TRUE(runUntil(h.io, [&] { return resolver->cached("leaf-3.fabric.example")->address == "127.0.0.2"; }));
  // ...and the next one talks to the new address.
  EXPECT_EQ(h.pollOnce(*named).samples.size(), 2u);
  EXPECT_EQ(h.opened, (std::vector<std::string>{"127.0.0.1", "127.0.0.2"}));
}

}  // namespace
}  // namespace opticsd::snmp
