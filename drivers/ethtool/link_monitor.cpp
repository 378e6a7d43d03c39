#include "drivers/ethtool/link_monitor.hpp"

#include <linux/rtnetlink.h>

namespace opticsd::ethtool {

Result<std::unique_ptr<LinkMonitor>> LinkMonitor::start(boost::asio::io_context& io) {
  auto channel = NetlinkChannel::open(io, NETLINK_ROUTE, RTMGRP_LINK);
  if (!channel) return tl::unexpected(channel.error());
  auto monitor = std::make_unique<LinkMonitor>();
  monitor->channel_ = std::move(*channel);
  LinkMonitor* raw = monitor.get();  // the channel is owned by the monitor and closed with it
  monitor->channel_->onNotification([raw](const NetlinkMessage& message) {
    if (auto event = parseLinkMessage(message.type, message.payload)) raw->apply(*event);
  });
  return monitor;
}

void LinkMonitor::apply(const LinkEvent& event) {
  if (event.name.empty()) return;
  if (event.deleted) {
    links_.erase(event.name);
    return;
  }
  auto& state = links_[event.name];
  if (state.running.value_or(false) && !event.running) ++state.down_events;
  state.running = event.running;
}

void LinkMonitor::seed(const std::string& ifname, bool running) {
  auto& state = links_[ifname];
  if (!state.running) state.running = running;
}

std::uint64_t LinkMonitor::downEvents(const std::string& ifname) const {
  auto it = links_.find(ifname);
  return it == links_.end() ? 0 : it->second.down_events;
}

}  // namespace opticsd::ethtool
