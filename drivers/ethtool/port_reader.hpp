#pragma once
// Reads one port asynchronously: the module pages (netlink page reads, or the
// legacy ioctl where netlink cannot), FEC statistics, link modes and link
// state, all queued on one shared NetlinkChannel so that many ports' requests
// travel together.
//
// Threads: start on the io_context thread; `done` runs there exactly once
// (unless the channel is closed first, which drops it).

#include <boost/asio/thread_pool.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "drivers/ethtool/netlink_channel.hpp"
#include "drivers/module/port_reading.hpp"

namespace opticsd::ethtool {

struct PortReadContext {
  boost::asio::io_context* io = nullptr;
  std::shared_ptr<NetlinkChannel> channel;          // null: no ethtool netlink family (legacy only)
  std::optional<GenlFamily> family;                 // the resolved "ethtool" family
  boost::asio::thread_pool* legacy_pool = nullptr;  // where blocking ioctls run; null: no legacy fallback
};

// `module_present` false in the result means the interface has no module to
// read (loopback, veth, empty cage): the kernel said EOPNOTSUPP or ENODEV.
void readPort(const PortReadContext& context, std::string ifname, std::function<void(module::PortReading)> done);

}  // namespace opticsd::ethtool
