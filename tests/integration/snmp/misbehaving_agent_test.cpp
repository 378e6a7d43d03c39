// The SNMP driver through net-snmp against agents that misbehave on the
// wire (misbehaving_agent.py, a small SNMPv2c responder): a walk that loops,
// a table that never ends (the max_varbinds cap), and ~60 KiB strings.
// Each must end the poll with a clear per-target error, and a good target
// polled at the same time on the same io_context must be unaffected.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <thread>

#include "agents.hpp"
#include "driver_helpers.hpp"
#include "drivers/snmp/snmp_driver.hpp"

namespace opticsd::snmp {
namespace {

using testing::Agent;
using testing::errorsOf;
using testing::makeDriver;
using testing::pollAll;

// The Python responder, killed by its own pid when the test ends.
class PyAgent {
 public:
  PyAgent() {
    port_ = testing::freeUdpPort();
    std::string script = std::string(OPTICSD_SOURCE_DIR) + "/tests/integration/snmp/misbehaving_agent.py";
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[1]);
      ::close(fds[0]);
      ::execlp("python3", "python3", script.c_str(), std::to_string(port_).c_str(), nullptr);
      ::_exit(127);
    }
    ::close(fds[1]);
    std::string line;
    char c = 0;
    while (line.size() < 16 && ::read(fds[0], &c, 1) == 1 && c != '\n') line += c;
    ready_ = line == "ready";
    ::close(fds[0]);
  }
  ~PyAgent() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool ready() const { return ready_; }
  std::uint16_t port() const { return port_; }

 private:
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  bool ready_ = false;
};

class MisbehavingAgent : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::haveProgram("python3")) GTEST_SKIP() << "python3 not installed";
    bad_ = std::make_unique<PyAgent>();
    if (!bad_->ready()) GTEST_SKIP() << "misbehaving_agent.py did not start";
    if (testing::haveProgram("snmpsimd") && testing::haveProgram("snmpget")) {
      good_ = std::make_unique<Agent>();
      if (!good_->startSnmpsim({std::string(OPTICSD_SOURCE_DIR) + "/tests/fixtures/snmp/arista-eos.snmprec"}) ||
          !good_->waitReady("-v2c -c arista-eos")) {
        good_.reset();
      }
    }
  }

  // Polls the misbehaving target (community = mode) and, when snmpsim runs, a
  // good Arista target alongside it. Returns {bad, good} and the wall time.
  std::pair<PollResult, std::optional<PollResult>> pollBoth(const std::string& mode, const std::string& extra = "") {
    boost::asio::io_context io;
    std::vector<std::unique_ptr<Driver>> drivers;
    drivers.push_back(makeDriver(io, "bad",
                                 "address: 127.0.0.1\nport: " + std::to_string(bad_->port()) + "\ncommunity: " + mode +
                                     "\ntimeout: 2s\nretries: 0\nmax_repetitions: 20\n" + extra));
    if (good_) {
      drivers.push_back(makeDriver(io, "good",
                                   "address: 127.0.0.1\nport: " + std::to_string(good_->port()) +
                                       "\ncommunity: arista-eos\ntimeout: 3s\nretries: 1\n"));
    }
    for (const auto& d : drivers) {
      if (!d) return {};
    }
    auto out = pollAll(io, drivers);
    std::optional<PollResult> good;
    if (good_) good = out[1];
    return {out[0], good};
  }

  void expectGoodUnaffected(const std::optional<PollResult>& good) {
    if (!good) return;
    EXPECT_TRUE(good->errors.empty()) << errorsOf(*good);
    EXPECT_EQ(good->samples.size(), 2u);  // Ethernet1 and Ethernet49 in the fixture
  }

  std::unique_ptr<PyAgent> bad_;
  std::unique_ptr<Agent> good_;
};

TEST_F(MisbehavingAgent, LoopingWalkIsACleanPerTargetError) {
  auto [bad, good] = pollBoth("loop", "profile: arista-eos\n");
  EXPECT_TRUE(bad.samples.empty());
  ASSERT_FALSE(bad.errors.empty());
  EXPECT_NE(errorsOf(bad).find("not increasing"), std::string::npos) << errorsOf(bad);
  EXPECT_NE(errorsOf(bad).find("udp:127.0.0.1:"), std::string::npos) << "the error names the target: " << errorsOf(bad);
  expectGoodUnaffected(good);
}

TEST_F(MisbehavingAgent, EndlessTableStopsAtMaxVarbinds) {
  auto [bad, good] = pollBoth("endless", "profile: arista-eos\nmax_varbinds: 2000\n");
  EXPECT_TRUE(bad.samples.empty());
  EXPECT_NE(errorsOf(bad).find("exceeded 2000 varbinds (max_varbinds)"), std::string::npos) << errorsOf(bad);
  expectGoodUnaffected(good);
}

TEST_F(MisbehavingAgent, RepliesOfOnlyExceptionsStillAdvanceTheWalk) {
  // Every reply is noSuchInstance rows at increasing OIDs: the walk must go on
  // from them and stop at the cap, not ask for the same rows again for ever.
  auto [bad, good] = pollBoth("exceptions", "profile: arista-eos\nmax_varbinds: 2000\n");
  EXPECT_TRUE(bad.samples.empty());
  EXPECT_NE(errorsOf(bad).find("exceeded 2000 varbinds (max_varbinds)"), std::string::npos) << errorsOf(bad);
  expectGoodUnaffected(good);
}

TEST_F(MisbehavingAgent, AFloodOfDuplicateAndStrayRepliesIsIgnored) {
  // Each answer arrives 20 times after 20 stray datagrams: the walk must use
  // each answer once (reaching the cap exactly as without the flood) and
  // neither loop on duplicates nor trip on the strays.
  auto [bad, good] = pollBoth("flood", "profile: arista-eos\nmax_varbinds: 2000\n");
  EXPECT_TRUE(bad.samples.empty());
  EXPECT_NE(errorsOf(bad).find("exceeded 2000 varbinds (max_varbinds)"), std::string::npos) << errorsOf(bad);
  EXPECT_EQ(errorsOf(bad).find("not increasing"), std::string::npos) << "a duplicate was taken as a new answer";
  expectGoodUnaffected(good);
}

TEST_F(MisbehavingAgent, EndlessTableWithoutProfilePicksAristaBySysObjectIdFirst) {
  // The GET of sysObjectID works; the walks then hit the cap.
  auto [bad, good] = pollBoth("endless", "max_varbinds: 500\n");
  EXPECT_NE(errorsOf(bad).find("(max_varbinds)"), std::string::npos) << errorsOf(bad);
  expectGoodUnaffected(good);
}

TEST_F(MisbehavingAgent, SixtyKilobyteStringsDoNotCrashAndAreCut) {
  auto [bad, good] = pollBoth("huge", "profile: arista-eos\n");
  // Every column holds one 60 KB string: numbers are of the wrong type, the
  // description matches but has no usable value; nothing may crash.
  for (const auto& s : bad.samples) {
    EXPECT_LE(s.port.size(), 255u);
    EXPECT_LE(s.identity().serial.size(), 255u);
  }
  for (const auto& e : bad.errors) EXPECT_LE(e.size(), 4096u) << "errors must not carry the 60 KB value";
  expectGoodUnaffected(good);
}

}  // namespace
}  // namespace opticsd::snmp
