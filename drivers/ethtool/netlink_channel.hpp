#pragma once
// One netlink socket living in a Boost.Asio loop: requests from many ports
// are queued, sent together in one datagram (the kernel handles each message
// in turn) and their replies matched back by sequence number, so 64 ports
// are read concurrently without a blocking call or a thread per port.
//
// Ownership and threads: created with open(), held by a shared_ptr (async
// waits keep only a weak reference), used only on its io_context's thread.
// Handlers run on that thread. Destroying or close()-ing the channel drops
// pending handlers without calling them.

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "drivers/ethtool/netlink_message.hpp"
#include "drivers/result.hpp"

namespace opticsd::ethtool {

class NetlinkChannel : public std::enable_shared_from_this<NetlinkChannel> {
 public:
  // The reply to one request: the message, or `error` (positive errno) when
  // the kernel answered NLMSG_ERROR or the socket failed.
  struct Reply {
    int error = 0;
    std::string error_message;  // extended ACK text or the socket failure
    NetlinkMessage message;
  };
  using Handler = std::function<void(Reply)>;
  using NotificationHandler = std::function<void(const NetlinkMessage&)>;

  // `protocol` NETLINK_GENERIC or NETLINK_ROUTE; `groups` the legacy multicast
  // group bitmask to join (RTMGRP_LINK), 0 for none.
  static Result<std::shared_ptr<NetlinkChannel>> open(boost::asio::io_context& io, int protocol,
                                                      std::uint32_t groups = 0);
  // A connected datagram socket that plays the kernel (one end of an
  // AF_UNIX SOCK_SEQPACKET socketpair): tests serve replies built from the
  // uAPI to the real reader. Requests go out with send(), not to the kernel's
  // address. Takes ownership of `fd`.
  static std::shared_ptr<NetlinkChannel> adopt(boost::asio::io_context& io, int fd);
  ~NetlinkChannel();
  NetlinkChannel(const NetlinkChannel&) = delete;
  NetlinkChannel& operator=(const NetlinkChannel&) = delete;

  std::uint32_t nextSeq() { return ++seq_; }

  // Queues `message` (whose nlmsg_seq is `seq`); `handler` runs exactly once
  // with the reply, unless the channel is closed first.
  void request(std::uint32_t seq, std::vector<std::uint8_t> message, Handler handler);

  // Messages nobody asked for (multicast notifications), for a subscriber.
  void onNotification(NotificationHandler handler);

  // Fails every pending request with ECANCELED and forgets them.
  void cancelAll();
  void close();

  // Syscalls made so far (send and receive), for the benchmark and README.
  std::uint64_t syscalls() const { return syscalls_; }
  std::size_t pending() const { return handlers_.size() + queue_.size(); }

 private:
  NetlinkChannel(boost::asio::io_context& io, int fd, bool to_kernel);
  void scheduleFlush();
  void flush();
  void armRead();
  void drain();
  void dispatch(NetlinkMessage message);
  void failAll(int error, const std::string& why);

  struct Queued {
    std::uint32_t seq;
    std::vector<std::uint8_t> bytes;
    Handler handler;
  };

  boost::asio::io_context& io_;
  boost::asio::posix::stream_descriptor socket_;
  std::uint32_t seq_;
  std::deque<Queued> queue_;
  std::unordered_map<std::uint32_t, Handler> handlers_;  // in flight, by seq
  NotificationHandler notify_;
  bool flush_scheduled_ = false;
  bool reading_ = false;
  std::uint64_t syscalls_ = 0;
  bool to_kernel_ = true;         // false: an adopted socket, already connected to its peer
  std::vector<std::uint8_t> rx_;  // receive buffers (kBatch x kBufferSize)
};

}  // namespace opticsd::ethtool
