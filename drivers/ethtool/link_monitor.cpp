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
  const bool went_down = state.running.value_or(false) && !event.running;
  if (went_down) ++state.down_events;
  state.running = event.running;
  if (went_down && on_down_) on_down_(event.name);
}

void LinkMonitor::recordDownReason(const std::string& ifname, const LinkDownReason& reason) {
  links_[ifname].last_reason = reason;
}

std::optional<LinkDownReason> LinkMonitor::lastDownReason(const std::string& ifname) const {
  auto it = links_.find(ifname);
  return it == links_.end() ? std::nullopt : it->second.last_reason;
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
