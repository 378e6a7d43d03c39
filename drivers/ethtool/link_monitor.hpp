#pragma once
// Counts link-down transitions as the kernel announces them (rtnetlink
// RTMGRP_LINK), so a link that flaps several times between two polls is
// counted every time; latched module flags and a polled link state lose
// those.
//
// A transition is IFF_RUNNING (carrier) going from set to clear. Counts
// start at 0 when monitoring starts and never decrease. Used on the
// io_context thread only.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "drivers/ethtool/netlink_channel.hpp"

namespace opticsd::ethtool {

class LinkMonitor {
 public:
  // Opens the subscription; fails when the socket cannot be opened.
  static Result<std::unique_ptr<LinkMonitor>> start(boost::asio::io_context& io);

  // Applies one notification (public so tests can feed parsed messages).
  void apply(const LinkEvent& event);

  // Seeds the state of an interface no notification has spoken of yet, from
  // a polled link state, so its first "down" notification counts.
  void seed(const std::string& ifname, bool running);

  // Down transitions seen for `ifname` (0 once monitored).
  std::uint64_t downEvents(const std::string& ifname) const;

  std::uint64_t syscalls() const { return channel_ ? channel_->syscalls() : 0; }

  // Called with the interface name on every down transition apply() counts,
  // so the driver can ask the kernel why (ETHTOOL_MSG_LINKSTATE_GET) while
  // the link is still down.
  void onDown(std::function<void(const std::string&)> handler) { on_down_ = std::move(handler); }
  // Why `ifname` went down last, as the kernel said at that event or a poll.
  void recordDownReason(const std::string& ifname, const LinkDownReason& reason);
  std::optional<LinkDownReason> lastDownReason(const std::string& ifname) const;

 private:
  struct State {
    std::optional<bool> running;
    std::uint64_t down_events = 0;
    std::optional<LinkDownReason> last_reason;
  };
  std::function<void(const std::string&)> on_down_;
  std::shared_ptr<NetlinkChannel> channel_;
  std::unordered_map<std::string, State> links_;
};

}  // namespace opticsd::ethtool
