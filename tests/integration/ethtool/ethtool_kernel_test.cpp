// The ethtool driver against the real kernel, in a network namespace the
// test creates: lo and a veth pair have no module and must be reported
// cleanly; the ethtool netlink family, the message builders and parsers, the
// rtnetlink link-down counting and the permission boundary are exercised for
// real (nothing mocked).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/netlink.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>

#include "drivers/ethtool/ethtool_driver.hpp"
#include "drivers/ethtool/legacy_module_reader.hpp"
#include "drivers/ethtool/link_monitor.hpp"
#include "drivers/ethtool/netlink_channel.hpp"
#include "drivers/ethtool/port_reader.hpp"

namespace opticsd::ethtool {
namespace {

int sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

// Runs the io_context until `done()` or 5 s pass.
template <typename Pred>
bool runUntil(boost::asio::io_context& io, Pred done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    io.restart();
    io.run_for(std::chrono::milliseconds(20));
  }
  return done();
}

class EthtoolKernel : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root for a network namespace";
    name_ = "opticsd-eth-" + std::to_string(::getpid());
    if (sh("ip netns add " + name_) != 0) GTEST_SKIP() << "no network namespace support (ip netns add failed)";
    created_ = true;
    original_ = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    const int target = ::open(("/run/netns/" + name_).c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(target, 0);
    ASSERT_EQ(::setns(target, CLONE_NEWNET), 0);
    ::close(target);
    // Children (ip) inherit this thread's namespace.
    ASSERT_EQ(sh("ip link add va type veth peer name vb"), 0);
    ASSERT_EQ(sh("ip link set lo up"), 0);
  }
  void TearDown() override {
    if (original_ >= 0) {
      ::setns(original_, CLONE_NEWNET);
      ::close(original_);
    }
    if (created_) sh("ip netns del " + name_);
  }

  // One request through a real channel; returns the reply.
  NetlinkChannel::Reply ask(boost::asio::io_context& io, NetlinkChannel& channel, std::uint32_t seq,
                            std::vector<std::uint8_t> message) {
    std::optional<NetlinkChannel::Reply> reply;
    channel.request(seq, std::move(message), [&](NetlinkChannel::Reply r) { reply = std::move(r); });
    EXPECT_TRUE(runUntil(io, [&] { return reply.has_value(); }));
    return reply.value_or(NetlinkChannel::Reply{ETIMEDOUT, "timeout", {}});
  }

  GenlFamily family(boost::asio::io_context& io, NetlinkChannel& channel) {
    const auto seq = channel.nextSeq();
    auto reply = ask(io, channel, seq, buildGetFamily(seq, ETHTOOL_GENL_NAME));
    EXPECT_EQ(reply.error, 0) << reply.error_message;
    auto parsed = parseFamilyReply(reply.message.payload);
    EXPECT_TRUE(parsed);
    return parsed.value_or(GenlFamily{});
  }

  std::string name_;
  bool created_ = false;
  int original_ = -1;
};

TEST_F(EthtoolKernel, FamilyAndMessagesAgainstTheKernel) {
  boost::asio::io_context io;
  auto channel = NetlinkChannel::open(io, NETLINK_GENERIC);
  ASSERT_TRUE(channel) << channel.error().message;
  const auto ethtool = family(io, **channel);
  EXPECT_NE(ethtool.id, 0);
  EXPECT_TRUE(ethtool.supports(ETHTOOL_MSG_FEC_GET));
  EXPECT_TRUE(ethtool.supports(ETHTOOL_MSG_LINKSTATE_GET));

  auto& ch = **channel;
  // veth implements link settings: 10 Gb/s, link state from the peer's carrier.
  ASSERT_EQ(sh("ip link set va up && ip link set vb up"), 0);
  auto seq = ch.nextSeq();
  auto modes = ask(io, ch, seq,
                   *buildEthtoolGet(ethtool.id, ETHTOOL_MSG_LINKMODES_GET, seq, "va", ETHTOOL_FLAG_COMPACT_BITSETS));
  ASSERT_EQ(modes.error, 0) << modes.error_message;
  auto parsed_modes = parseLinkModesReply(modes.message.payload);
  ASSERT_TRUE(parsed_modes);
  EXPECT_EQ(parsed_modes->speed_mbps, 10000u);

  seq = ch.nextSeq();
  auto state = ask(io, ch, seq, *buildEthtoolGet(ethtool.id, ETHTOOL_MSG_LINKSTATE_GET, seq, "lo", 0));
  ASSERT_EQ(state.error, 0) << state.error_message;
  auto link = parseLinkStateReply(state.message.payload);
  ASSERT_TRUE(link);
  EXPECT_EQ(link->link, std::optional<bool>(true));

  // A veth whose peer is down: the link is down, and the kernel gives no
  // extended state or down counter for it (veth has no get_link_ext_state):
  // a clean "not reported", not an error.
  ASSERT_EQ(sh("ip link set vb down"), 0);
  seq = ch.nextSeq();
  auto down = ask(io, ch, seq, *buildEthtoolGet(ethtool.id, ETHTOOL_MSG_LINKSTATE_GET, seq, "va", 0));
  ASSERT_EQ(down.error, 0) << down.error_message;
  auto down_state = parseLinkStateReply(down.message.payload);
  ASSERT_TRUE(down_state);
  EXPECT_EQ(down_state->link, std::optional<bool>(false));
  EXPECT_FALSE(down_state->down_reason);
  EXPECT_FALSE(down_state->down_count);
  ASSERT_EQ(sh("ip link set vb up"), 0);

  // No module and no FEC on virtual links: the kernel says EOPNOTSUPP.
  seq = ch.nextSeq();
  auto fec = ask(io, ch, seq, *buildEthtoolGet(ethtool.id, ETHTOOL_MSG_FEC_GET, seq, "va", ETHTOOL_FLAG_STATS));
  EXPECT_EQ(fec.error, EOPNOTSUPP);
  seq = ch.nextSeq();
  auto page = ask(io, ch, seq, *buildModuleEepromGet(ethtool.id, seq, "lo", eeprom::PageRequest{}));
  EXPECT_EQ(page.error, EOPNOTSUPP);
  seq = ch.nextSeq();
  auto missing = ask(io, ch, seq, *buildModuleEepromGet(ethtool.id, seq, "nosuch0", eeprom::PageRequest{}));
  EXPECT_EQ(missing.error, ENODEV);
  EXPECT_FALSE(missing.error_message.empty());  // the kernel's extended ACK text came through
  EXPECT_GT(ch.syscalls(), 0u);
}

TEST_F(EthtoolKernel, ManyRequestsInOneDatagramAllAnswered) {
  boost::asio::io_context io;
  auto channel = NetlinkChannel::open(io, NETLINK_GENERIC);
  ASSERT_TRUE(channel);
  const auto ethtool = family(io, **channel);
  auto& ch = **channel;
  const auto before = ch.syscalls();
  std::map<std::uint32_t, int> errors;
  for (int i = 0; i < 300; ++i) {  // more than one window of requests in flight
    const auto seq = ch.nextSeq();
    const char* dev = i % 3 == 0 ? "lo" : (i % 3 == 1 ? "va" : "vb");
    ch.request(seq, *buildEthtoolGet(ethtool.id, ETHTOOL_MSG_LINKSTATE_GET, seq, dev, 0),
               [&errors, seq](NetlinkChannel::Reply r) { errors[seq] = r.error; });
  }
  ASSERT_TRUE(runUntil(io, [&] { return errors.size() == 300; }));
  for (const auto& [seq, error] : errors) EXPECT_EQ(error, 0) << seq;
  // Batched: far fewer syscalls than the 600 one send and one receive each would take.
  EXPECT_LT(ch.syscalls() - before, 150u);
}

TEST_F(EthtoolKernel, InterfacesWithoutModulesAreSkippedCleanly) {
  boost::asio::io_context io;
  EthtoolDriver driver("host", io, EthtoolOptions{});
  std::optional<PollResult> result;
  driver.poll(1000, [&](PollResult r) { result = std::move(r); });
  ASSERT_TRUE(runUntil(io, [&] { return result.has_value(); }));
  EXPECT_TRUE(result->samples.empty());
  EXPECT_TRUE(result->errors.empty()) << result->errors.front();
  EXPECT_FALSE(result->failed());

  // A second cycle behaves the same (family cached, nothing noted twice).
  result.reset();
  driver.poll(2000, [&](PollResult r) { result = std::move(r); });
  ASSERT_TRUE(runUntil(io, [&] { return result.has_value(); }));
  EXPECT_TRUE(result->errors.empty());
  EXPECT_GT(driver.netlinkSyscalls(), 0u);
}

TEST_F(EthtoolKernel, ExplicitMissingInterfaceIsAnError) {
  boost::asio::io_context io;
  EthtoolDriver driver("host", io, EthtoolOptions{{"va", "eth99"}});
  std::optional<PollResult> result;
  driver.poll(1000, [&](PollResult r) { result = std::move(r); });
  ASSERT_TRUE(runUntil(io, [&] { return result.has_value(); }));
  ASSERT_EQ(result->errors.size(), 1u);
  EXPECT_NE(result->errors[0].find("eth99"), std::string::npos);
  EXPECT_TRUE(result->samples.empty());
}

TEST_F(EthtoolKernel, PortReadOfLoopbackSaysNoModule) {
  boost::asio::io_context io;
  auto channel = NetlinkChannel::open(io, NETLINK_GENERIC);
  ASSERT_TRUE(channel);
  PortReadContext context;
  context.io = &io;
  context.channel = *channel;
  context.family = family(io, **channel);
  boost::asio::thread_pool pool(1);
  context.legacy_pool = &pool;
  std::optional<module::PortReading> reading;
  readPort(context, "lo", [&](module::PortReading r) { reading = std::move(r); });
  ASSERT_TRUE(runUntil(io, [&] { return reading.has_value(); }));
  EXPECT_FALSE(reading->module_present);
  EXPECT_TRUE(reading->issues.empty());
  EXPECT_EQ(reading->link.up, std::optional<bool>(true));
  EXPECT_TRUE(reading->fec.empty());
  pool.join();
}

TEST_F(EthtoolKernel, KernelWithoutPageMessageUsesTheLegacyIoctl) {
  boost::asio::io_context io;
  auto channel = NetlinkChannel::open(io, NETLINK_GENERIC);
  ASSERT_TRUE(channel);
  PortReadContext context;
  context.io = &io;
  context.channel = *channel;
  auto old_kernel = family(io, **channel);
  // What a kernel before 5.13 lists: everything but ETHTOOL_MSG_MODULE_EEPROM_GET.
  std::erase(old_kernel.operations, static_cast<std::uint32_t>(ETHTOOL_MSG_MODULE_EEPROM_GET));
  ASSERT_FALSE(old_kernel.operations.empty());
  context.family = old_kernel;
  boost::asio::thread_pool pool(1);
  context.legacy_pool = &pool;
  const auto before = (*channel)->syscalls();
  std::optional<module::PortReading> reading;
  readPort(context, "va", [&](module::PortReading r) { reading = std::move(r); });
  ASSERT_TRUE(runUntil(io, [&] { return reading.has_value(); }));
  // The ioctl ran (on the pool) and said "no module"; counters still came over netlink.
  EXPECT_FALSE(reading->module_present);
  EXPECT_TRUE(reading->issues.empty()) << reading->issues.front();
  EXPECT_EQ(reading->link.speed_gbps, 10.0);
  EXPECT_GT((*channel)->syscalls(), before);
  pool.join();
}

TEST_F(EthtoolKernel, LinkDownTransitionsCountedAsTheyHappen) {
  boost::asio::io_context io;
  auto monitor = LinkMonitor::start(io);
  ASSERT_TRUE(monitor) << monitor.error().message;
  ASSERT_EQ(sh("ip link set va up && ip link set vb up"), 0);
  // Notifications queue in the socket and are applied in order, so the loop
  // need not run between the flaps. The short sleeps leave the kernel's
  // linkwatch time to announce va's carrier change before it flips back.
  for (int flap = 0; flap < 3; ++flap) {
    ASSERT_EQ(sh("sleep 0.05; ip link set vb down && sleep 0.05 && ip link set vb up"), 0);
  }
  // Three flaps between two "polls": each one counted on both ends.
  EXPECT_TRUE(runUntil(io, [&] { return (*monitor)->downEvents("va") >= 3; }));
  EXPECT_EQ((*monitor)->downEvents("va"), 3u);
  EXPECT_EQ((*monitor)->downEvents("vb"), 3u);
  EXPECT_EQ((*monitor)->downEvents("lo"), 0u);
}

// Runs `probe` in a child process with only `caps` effective (a bitmask of
// CAP_*), as uid nobody; returns the child's exit code.
int withCapabilities(std::uint64_t caps, const std::function<int()>& probe) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_KEEPCAPS, 1);
    if (::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0) ::_exit(90);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    data[0].effective = data[0].permitted = static_cast<std::uint32_t>(caps);
    if (::syscall(SYS_capset, &header, data) != 0) ::_exit(91);
    ::_exit(probe());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

// The errno the kernel answers for one ethtool GET on lo (0 = success).
int ethtoolErrno(std::uint8_t command, bool module_page) {
  boost::asio::io_context io;
  auto channel = NetlinkChannel::open(io, NETLINK_GENERIC);
  if (!channel) return 92;
  auto& ch = **channel;
  std::optional<NetlinkChannel::Reply> reply;
  auto seq = ch.nextSeq();
  ch.request(seq, buildGetFamily(seq, ETHTOOL_GENL_NAME), [&](NetlinkChannel::Reply r) { reply = std::move(r); });
  if (!runUntil(io, [&] { return reply.has_value(); }) || reply->error) return 93;
  const auto family = parseFamilyReply(reply->message.payload);
  if (!family) return 94;
  reply.reset();
  seq = ch.nextSeq();
  auto message = module_page ? buildModuleEepromGet(family->id, seq, "lo", eeprom::PageRequest{})
                             : buildEthtoolGet(family->id, command, seq, "lo",
                                               command == ETHTOOL_MSG_FEC_GET ? ETHTOOL_FLAG_STATS : 0);
  ch.request(seq, std::move(*message), [&](NetlinkChannel::Reply r) { reply = std::move(r); });
  if (!runUntil(io, [&] { return reply.has_value(); })) return 95;
  return reply->error;
}

TEST_F(EthtoolKernel, ModulePagesNeedCapNetAdminCountersDoNot) {
  const std::uint64_t none = 0;
  const std::uint64_t net_admin = 1ull << CAP_NET_ADMIN;
  // Unprivileged: module pages are refused before the driver is asked.
  EXPECT_EQ(withCapabilities(none, [] { return ethtoolErrno(0, true); }), EPERM);
  EXPECT_EQ(withCapabilities(net_admin, [] { return ethtoolErrno(0, true); }), EOPNOTSUPP);
  // FEC statistics, link modes and link state are open to anyone.
  EXPECT_EQ(withCapabilities(none, [] { return ethtoolErrno(ETHTOOL_MSG_FEC_GET, false); }), EOPNOTSUPP);
  EXPECT_EQ(withCapabilities(none, [] { return ethtoolErrno(ETHTOOL_MSG_LINKMODES_GET, false); }), EOPNOTSUPP);
  EXPECT_EQ(withCapabilities(none, [] { return ethtoolErrno(ETHTOOL_MSG_LINKSTATE_GET, false); }), 0);
  // The legacy ioctl: GMODULEINFO is privileged too (net/ethtool/ioctl.c).
  auto legacy = [] {
    auto result = readLegacyModule("lo");
    if (result) return 0;
    return result.error().message.find("not permitted") != std::string::npos ? EPERM : 96;
  };
  EXPECT_EQ(withCapabilities(none, legacy), EPERM);
  EXPECT_EQ(withCapabilities(net_admin, legacy), 0);  // lo: "no module", not an error
}

}  // namespace
}  // namespace opticsd::ethtool
