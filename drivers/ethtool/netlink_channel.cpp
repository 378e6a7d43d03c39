#include "drivers/ethtool/netlink_channel.hpp"

#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace opticsd::ethtool {
namespace {

// Replies in flight at once: the socket's receive buffer must hold them all
// (an EEPROM reply costs about 1 KiB of skb truesize), or the kernel drops
// them with ENOBUFS.
constexpr std::size_t kMaxInFlight = 96;
constexpr int kReceiveBuffer = 4 << 20;
constexpr std::size_t kBatch = 16;          // datagrams per recvmmsg
constexpr std::size_t kBufferSize = 16384;  // one datagram (kernel replies fit in a page or two)
constexpr std::size_t kMaxSendBytes = 32768;

std::string errnoText(int error) { return std::strerror(error); }

}  // namespace

Result<std::shared_ptr<NetlinkChannel>> NetlinkChannel::open(boost::asio::io_context& io, int protocol,
                                                             std::uint32_t groups) {
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
  if (fd < 0) return fail("netlink socket: " + errnoText(errno));
  int size = kReceiveBuffer;
  // Root may exceed rmem_max; others get what rmem_max allows.
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) != 0) {
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
  }
  int one = 1;
  ::setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
  ::setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  local.nl_groups = groups;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0) {
    const int error = errno;
    ::close(fd);
    return fail("netlink bind: " + errnoText(error));
  }
  return std::shared_ptr<NetlinkChannel>(new NetlinkChannel(io, fd, true));
}

std::shared_ptr<NetlinkChannel> NetlinkChannel::adopt(boost::asio::io_context& io, int fd) {
  return std::shared_ptr<NetlinkChannel>(new NetlinkChannel(io, fd, false));
}

NetlinkChannel::NetlinkChannel(boost::asio::io_context& io, int fd, bool to_kernel)
    : io_(io),
      socket_(io, fd),
      // Start sequence numbers away from 0 (notifications carry 0) and from
      // other instances' numbers, which makes stray replies easy to spot.
      seq_(static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 1u),
      to_kernel_(to_kernel) {}

NetlinkChannel::~NetlinkChannel() { close(); }

void NetlinkChannel::close() {
  handlers_.clear();
  queue_.clear();
  boost::system::error_code ignored;
  socket_.close(ignored);
}

void NetlinkChannel::request(std::uint32_t seq, std::vector<std::uint8_t> message, Handler handler) {
  queue_.push_back(Queued{seq, std::move(message), std::move(handler)});
  scheduleFlush();
}

void NetlinkChannel::onNotification(NotificationHandler handler) {
  notify_ = std::move(handler);
  armRead();
}

void NetlinkChannel::scheduleFlush() {
  if (flush_scheduled_) return;
  flush_scheduled_ = true;
  // Everything queued in this turn of the loop goes out in one datagram.
  boost::asio::post(io_, [weak = weak_from_this()] {
    if (auto self = weak.lock()) {
      self->flush_scheduled_ = false;
      self->flush();
    }
  });
}

void NetlinkChannel::flush() {
  if (!socket_.is_open()) return;
  std::vector<std::uint8_t> datagram;
  std::vector<std::uint32_t> sent;
  while (!queue_.empty() && handlers_.size() + sent.size() < kMaxInFlight &&
         datagram.size() + queue_.front().bytes.size() <= kMaxSendBytes) {
    auto& next = queue_.front();
    datagram.insert(datagram.end(), next.bytes.begin(), next.bytes.end());
    handlers_[next.seq] = std::move(next.handler);
    sent.push_back(next.seq);
    queue_.pop_front();
  }
  if (sent.empty()) return;
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  ssize_t n;
  do {
    ++syscalls_;
    n = to_kernel_ ? ::sendto(socket_.native_handle(), datagram.data(), datagram.size(), 0,
                              reinterpret_cast<sockaddr*>(&kernel), sizeof(kernel))
                   : ::send(socket_.native_handle(), datagram.data(), datagram.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    const int error = errno;
    for (auto seq : sent) {
      auto it = handlers_.find(seq);
      if (it == handlers_.end()) continue;
      auto handler = std::move(it->second);
      handlers_.erase(it);
      handler(Reply{error, "netlink send: " + errnoText(error), {}});
    }
    if (!queue_.empty()) scheduleFlush();
    return;
  }
  armRead();
}

void NetlinkChannel::armRead() {
  if (reading_ || !socket_.is_open()) return;
  reading_ = true;
  socket_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                     [weak = weak_from_this()](const boost::system::error_code& ec) {
                       auto self = weak.lock();
                       if (!self) return;
                       self->reading_ = false;
                       if (ec) return;  // closed or cancelled
                       self->drain();
                     });
}

void NetlinkChannel::drain() {
  if (rx_.empty()) rx_.resize(kBatch * kBufferSize);
  std::array<mmsghdr, kBatch> headers{};
  std::array<iovec, kBatch> iov{};
  for (;;) {
    if (!socket_.is_open()) return;
    for (std::size_t i = 0; i < kBatch; ++i) {
      iov[i] = iovec{rx_.data() + i * kBufferSize, kBufferSize};
      headers[i] = mmsghdr{};
      headers[i].msg_hdr.msg_iov = &iov[i];
      headers[i].msg_hdr.msg_iovlen = 1;
    }
    ++syscalls_;
    const int got = ::recvmmsg(socket_.native_handle(), headers.data(), kBatch, MSG_DONTWAIT, nullptr);
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      // ENOBUFS: the kernel dropped replies; nobody will ever answer the
      // requests in flight, so fail them rather than hang the poll.
      failAll(errno, "netlink receive: " + errnoText(errno));
      break;
    }
    // Keep a strong reference: handlers may drop the last owner.
    auto self = shared_from_this();
    for (int i = 0; i < got; ++i) {
      const auto len = std::min<std::size_t>(headers[i].msg_len, kBufferSize);
      auto messages = splitMessages(std::span<const std::uint8_t>(rx_.data() + i * kBufferSize, len));
      if (!messages) continue;  // a malformed datagram answers nobody; its request fails by timeout
      for (auto& message : *messages) dispatch(std::move(message));
      if (!socket_.is_open()) return;
    }
    if (static_cast<std::size_t>(got) < kBatch) break;
  }
  if (!queue_.empty()) flush();
  if (!handlers_.empty() || notify_) armRead();
}

void NetlinkChannel::dispatch(NetlinkMessage message) {
  auto it = message.seq != 0 ? handlers_.find(message.seq) : handlers_.end();
  if (it == handlers_.end()) {
    if (notify_ && message.type != NLMSG_ERROR && message.type != NLMSG_DONE) notify_(message);
    return;
  }
  Reply reply;
  if (message.type == NLMSG_ERROR) {
    auto ack = parseAck(message.payload);
    reply.error = ack ? ack->error : EPROTO;
    if (ack) reply.error_message = ack->message;
    if (reply.error == 0) return;  // a bare ACK; the reply itself came before it
  }
  reply.message = std::move(message);
  auto handler = std::move(it->second);
  handlers_.erase(it);
  handler(std::move(reply));
}

void NetlinkChannel::failAll(int error, const std::string& why) {
  auto pending = std::move(handlers_);
  handlers_.clear();
  for (auto& [seq, handler] : pending) handler(Reply{error, why, {}});
}

void NetlinkChannel::cancelAll() {
  handlers_.clear();
  queue_.clear();
}

}  // namespace opticsd::ethtool
