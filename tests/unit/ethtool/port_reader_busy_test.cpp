// The live ethtool port reader on a module whose firmware is being flashed:
// the kernel answers its page reads with -EBUSY (net/ethtool/module.c, while
// module_fw_flash_in_progress) and its counters as usual. A fake kernel on a
// socketpair serves replies built from the uAPI (<linux/ethtool_netlink.h>)
// to the real NetlinkChannel, netlink parsing and PortRead; the scheduler
// then sees the poll. Busy is maintenance: the port reports a Sample marked
// firmware_flashing, no error, and the target is not backed off.
#include <gtest/gtest.h>
#include <linux/ethtool_netlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cerrno>
#include <cstring>
#include <map>

#include "daemon/scheduler/scheduler.hpp"
#include "drivers/ethtool/port_reader.hpp"
#include "drivers/module/module_read_session.hpp"
#include "netlink_test_bytes.hpp"

namespace opticsd::ethtool {
namespace {

using namespace testing;
using std::chrono::milliseconds;

constexpr std::uint16_t kFamily = 0x1c;
// Spelled out from the 6.18 spec (ethtool.yaml fec-stat/fec-hist), not taken
// from the code under test.
constexpr std::uint16_t kFecStatHist = 5, kHistBinLow = 2, kHistBinHigh = 3, kHistBinVal = 4;

// The kernel's side of the socketpair: answers each request by its command,
// with a reply payload or an errno (NLMSG_ERROR, the request's header echoed,
// the extended ACK message after it, as NETLINK_CAP_ACK has it).
class FakeKernel {
 public:
  struct Answer {
    Bytes reply;    // a genl payload, or
    int error = 0;  // a positive errno
    std::string ack_message;
  };
  FakeKernel(boost::asio::io_context& io, int fd) : socket_(io, fd) { arm(); }
  std::map<std::uint8_t, Answer> answers;
  std::map<std::uint8_t, int> asked;  // requests seen, by command

 private:
  void arm() {
    socket_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
      if (ec) return;
      serve();
      arm();
    });
  }
  void serve() {
    Bytes datagram(65536);
    const ssize_t n = ::recv(socket_.native_handle(), datagram.data(), datagram.size(), MSG_DONTWAIT);
    if (n <= 0) return;
    datagram.resize(static_cast<std::size_t>(n));
    Bytes out;
    for (std::size_t at = 0; at + NLMSG_HDRLEN <= datagram.size();) {
      nlmsghdr header{};
      std::memcpy(&header, datagram.data() + at, sizeof(header));
      if (header.nlmsg_len < NLMSG_HDRLEN || at + header.nlmsg_len > datagram.size()) break;
      const std::uint8_t command = datagram[at + NLMSG_HDRLEN];
      ++asked[command];
      const auto it = answers.find(command);
      const Answer answer = it == answers.end() ? Answer{{}, EOPNOTSUPP, {}} : it->second;
      if (answer.error != 0) {
        Bytes payload = scalarBytes<std::int32_t>(-answer.error);
        appendRaw(payload, &header, sizeof(header));  // capped: the header only
        if (!answer.ack_message.empty()) payload = concat({payload, attr(NLMSGERR_ATTR_MSG, str(answer.ack_message))});
        out = concat({out, nlmsg(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS, header.nlmsg_seq, payload)});
      } else {
        out = concat({out, nlmsg(kFamily, 0, header.nlmsg_seq, answer.reply)});
      }
      at += NLMSG_ALIGN(header.nlmsg_len);
    }
    if (!out.empty()) ::send(socket_.native_handle(), out.data(), out.size(), 0);
  }
  boost::asio::posix::stream_descriptor socket_;
};

Bytes histBin(std::uint32_t low, std::uint32_t high, std::uint32_t count) {
  return attr(kFecStatHist | NLA_F_NESTED,
              concat({attr(kHistBinLow, scalarBytes(low)), attr(kHistBinHigh, scalarBytes(high)),
                      attr(kHistBinVal, scalarBytes(count))}));
}

// A module being flashed on a 400G RS-FEC port whose NIC still counts.
void flashing(FakeKernel& kernel) {
  kernel.answers[ETHTOOL_MSG_MODULE_EEPROM_GET] = {{}, EBUSY, "Module firmware flashing is in progress"};
  kernel.answers[ETHTOOL_MSG_FEC_GET] = {
      genl(ETHTOOL_MSG_FEC_GET_REPLY,
           concat({attr(ETHTOOL_A_FEC_ACTIVE, scalarBytes<std::uint32_t>(ETHTOOL_LINK_MODE_FEC_RS_BIT)),
                   attr(ETHTOOL_A_FEC_STATS | NLA_F_NESTED, concat({attr(ETHTOOL_A_FEC_STAT_CORRECTED, u64s({1234})),
                                                                    histBin(0, 0, 100000), histBin(1, 15, 77)}))})),
      0,
      {}};
  kernel.answers[ETHTOOL_MSG_LINKMODES_GET] = {
      genl(ETHTOOL_MSG_LINKMODES_GET_REPLY, concat({attr(ETHTOOL_A_LINKMODES_SPEED, scalarBytes<std::uint32_t>(400000)),
                                                    attr(ETHTOOL_A_LINKMODES_LANES, scalarBytes<std::uint32_t>(8))})),
      0,
      {}};
  kernel.answers[ETHTOOL_MSG_LINKSTATE_GET] = {
      genl(ETHTOOL_MSG_LINKSTATE_GET_REPLY, attr(ETHTOOL_A_LINKSTATE_LINK, scalarBytes<std::uint8_t>(1))), 0, {}};
}

struct Pair {
  Pair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds), 0); }
  int fds[2] = {-1, -1};
};

PortReadContext contextFor(boost::asio::io_context& io, int fd) {
  PortReadContext context;
  context.io = &io;
  context.channel = NetlinkChannel::adopt(io, fd);
  GenlFamily family;
  family.id = kFamily;
  family.operations = {ETHTOOL_MSG_FEC_GET, ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_MSG_LINKSTATE_GET,
                       ETHTOOL_MSG_MODULE_EEPROM_GET};
  context.family = family;
  return context;
}

// A module being flashed behind a fake kernel, and one read of its port.
class PortReaderBusy : public ::testing::Test {
 protected:
  PortReaderBusy() { flashing(kernel); }
  std::optional<module::PortReading> readOnce() {
    std::optional<module::PortReading> got;
    readPort(contextFor(io, pair.fds[0]), "eth7", [&](module::PortReading r) { got = std::move(r); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!got && std::chrono::steady_clock::now() < deadline) io.run_for(milliseconds(5));
    return got;
  }
  boost::asio::io_context io;
  Pair pair;
  FakeKernel kernel{io, pair.fds[1]};
};

TEST_F(PortReaderBusy, AnEbusyPageReadIsMaintenanceNotAnError) {
  const auto got = readOnce();
  ASSERT_TRUE(got) << "the reader never answered";
  // The first round's reads went out together; no later round follows a busy module.
  EXPECT_EQ(static_cast<std::size_t>(kernel.asked[ETHTOOL_MSG_MODULE_EEPROM_GET]),
            module::ModuleReadSession().start().size());
  EXPECT_TRUE(got->module_present);
  ASSERT_TRUE(got->maintenance);
  EXPECT_EQ(got->maintenance->reason, "firmware_flashing");
  EXPECT_TRUE(got->issues.empty()) << got->issues.front();
  EXPECT_TRUE(got->memory.empty());
  // The NIC's side still counts while the module is flashed.
  EXPECT_EQ(got->fec.corrected_blocks_total, 1234u);
  ASSERT_EQ(got->fec.histogram.size(), 2u);
  EXPECT_EQ(got->fec.histogram[1].codewords_total, 77u);
  EXPECT_EQ(got->link.up, true);
  EXPECT_EQ(got->fec.correctable_symbols, 15);

  const Sample s = module::sampleFromReading("host-1", 1000, *got);
  ASSERT_TRUE(s.maintenance);
  EXPECT_EQ(s.maintenance->reason, "firmware_flashing");
  EXPECT_TRUE(s.module_present);
}

// Control: the same page read failing with EIO is a module that does not
// answer (an issue on the Sample), not maintenance.
TEST_F(PortReaderBusy, AnotherErrnoIsNotMaintenance) {
  kernel.answers[ETHTOOL_MSG_MODULE_EEPROM_GET] = {{}, EIO, {}};
  const auto got = readOnce();
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->maintenance);
  EXPECT_FALSE(got->issues.empty());
}

// A driver of one port at the scheduler's seam, reading through the real
// reader and fake kernel: what EthtoolDriver::finishPort does with a present
// module (a Sample, its issues on it), no interface listing.
struct OnePortDriver : Driver {
  OnePortDriver(boost::asio::io_context& io, PortReadContext context) : io_(io), context_(std::move(context)) {}
  void poll(std::int64_t now_ms, Done done) override {
    readPort(context_, "eth7", [now_ms, done = std::move(done)](module::PortReading reading) {
      PollResult result;
      if (reading.module_present) {
        result.samples.push_back(module::sampleFromReading("host-1", now_ms, reading));
      } else {
        for (const auto& issue : reading.issues) result.errors.push_back(issue);
      }
      done(std::move(result));
    });
  }
  void cancel() override {}
  boost::asio::io_context& io_;
  PortReadContext context_;
};

TEST_F(PortReaderBusy, TheSchedulerDoesNotBackOffATargetInMaintenance) {
  std::vector<PollReport> reports;
  Scheduler::Options options;
  options.jitter_fraction = 0;  // next_delay is then the interval itself, or the backoff
  Scheduler scheduler(io, options, [&](PollReport& r) { reports.push_back(r); });
  std::vector<TargetPlan> plans;
  plans.push_back(TargetPlan{"host-1", "ethtool", std::make_unique<OnePortDriver>(io, contextFor(io, pair.fds[0])),
                             milliseconds(50), milliseconds(5000), "host-1"});
  scheduler.setTargets(std::move(plans));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (reports.size() < 3 && std::chrono::steady_clock::now() < deadline) io.run_for(milliseconds(5));
  scheduler.stop();
  ASSERT_GE(reports.size(), 3u);
  for (const auto& r : reports) {
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.result.errors.empty());
    EXPECT_EQ(r.consecutive_failures, 0u);
    EXPECT_EQ(r.next_delay, milliseconds(50)) << "backed off";
    ASSERT_EQ(r.result.samples.size(), 1u);
    ASSERT_TRUE(r.result.samples[0].maintenance);
    EXPECT_EQ(r.result.samples[0].maintenance->reason, "firmware_flashing");
  }
}

}  // namespace
}  // namespace opticsd::ethtool
