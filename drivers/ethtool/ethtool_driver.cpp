#include "drivers/ethtool/ethtool_driver.hpp"

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>

#include "drivers/ethtool/interface_selector.hpp"
#include "drivers/options/option_reader.hpp"

namespace opticsd::ethtool {

EthtoolDriver::EthtoolDriver(std::string target, boost::asio::io_context& io, EthtoolOptions options)
    : target_(std::move(target)), io_(io), options_(std::move(options)) {}

EthtoolDriver::~EthtoolDriver() {
  ++generation_;
  if (channel_) channel_->close();
  // Joins the ioctl thread; a result it posts afterwards finds a stale generation.
  if (legacy_pool_) legacy_pool_->join();
}

std::uint64_t EthtoolDriver::netlinkSyscalls() const {
  return (channel_ ? channel_->syscalls() : 0) + (links_ ? links_->syscalls() : 0);
}

void EthtoolDriver::cancel() {
  ++generation_;
  if (channel_) channel_->cancelAll();
  done_ = nullptr;
  ports_left_ = 0;
}

void EthtoolDriver::poll(std::int64_t now_ms, Done done) {
  cancel();  // a poll still in flight is abandoned: its late replies are ignored
  done_ = std::move(done);
  result_ = PollResult{};
  if (!channel_) {
    auto channel = NetlinkChannel::open(io_, NETLINK_GENERIC);
    if (!channel) {
      result_.errors.push_back("target=" + target_ + " driver=ethtool " + channel.error().message);
      auto finish = std::move(done_);
      finish(std::move(result_));
      return;
    }
    channel_ = std::move(*channel);
  }
  if (!links_) {
    auto monitor = LinkMonitor::start(io_);
    if (monitor) {
      links_ = std::move(*monitor);
      links_->onDown([this](const std::string& ifname) { askWhyDown(ifname); });
    } else {
      spdlog::warn("target={} driver=ethtool link_monitor=off reason=\"{}\"", target_, monitor.error().message);
    }
  }
  if (!legacy_pool_) legacy_pool_ = std::make_unique<boost::asio::thread_pool>(1);
  if (family_ || family_missing_) {
    pollInterfaces(now_ms);
  } else {
    const auto generation = generation_;
    resolveFamily([this, generation, now_ms] {
      if (generation == generation_) pollInterfaces(now_ms);
    });
  }
}

void EthtoolDriver::resolveFamily(std::function<void()> then) {
  const auto seq = channel_->nextSeq();
  channel_->request(seq, buildGetFamily(seq, ETHTOOL_GENL_NAME), [this, then](NetlinkChannel::Reply reply) {
    // The channel belongs to this driver and drops its handlers when closed.
    if (reply.error == ENOENT) {
      family_missing_ = true;  // kernel before 5.6: module pages through the ioctl only
      spdlog::info("target={} driver=ethtool netlink_family=absent fallback=ioctl", target_);
    } else if (reply.error != 0) {
      result_.errors.push_back("target=" + target_ +
                               " driver=ethtool resolving the ethtool netlink family: " + std::strerror(reply.error));
      if (done_) {
        auto finish = std::move(done_);
        finish(std::move(result_));
      }
      return;
    } else if (auto family = parseFamilyReply(reply.message.payload)) {
      family_ = *family;
    } else {
      family_missing_ = true;
      spdlog::warn("target={} driver=ethtool netlink_family=unparsable reason=\"{}\"", target_, family.error().message);
    }
    then();
  });
}

void EthtoolDriver::askWhyDown(const std::string& ifname) {
  if (!channel_ || !family_) return;
  const auto seq = channel_->nextSeq();
  auto message = buildEthtoolGet(family_->id, ETHTOOL_MSG_LINKSTATE_GET, seq, ifname, 0);
  if (!message) return;
  // The channel belongs to this driver and drops its handlers when closed.
  channel_->request(seq, std::move(*message), [this, ifname](NetlinkChannel::Reply reply) {
    if (reply.error != 0 || !links_) return;
    if (auto state = parseLinkStateReply(reply.message.payload); state && state->down_reason) {
      links_->recordDownReason(ifname, *state->down_reason);
    }
  });
}

void EthtoolDriver::pollInterfaces(std::int64_t now_ms) {
  const auto selection = selectInterfaces(systemInterfaces(), options_.interfaces);
  for (const auto& missing : selection.missing) {
    result_.errors.push_back("target=" + target_ + " driver=ethtool port=" + missing + " interface not found");
  }
  ports_left_ = selection.selected.size();
  if (ports_left_ == 0) {
    auto finish = std::move(done_);
    if (finish) finish(std::move(result_));
    return;
  }
  PortReadContext context;
  context.io = &io_;
  context.channel = family_ ? channel_ : nullptr;
  context.family = family_;
  context.legacy_pool = legacy_pool_.get();
  const auto generation = generation_;
  for (const auto& name : selection.selected) {
    // An ioctl result may arrive after the driver is gone: hold it weakly.
    readPort(context, name,
             [this, alive = std::weak_ptr<bool>(alive_), generation, now_ms](module::PortReading reading) {
               if (alive.expired() || generation != generation_) return;
               finishPort(generation, now_ms, std::move(reading));
             });
  }
}

void EthtoolDriver::finishPort(std::uint64_t /*generation*/, std::int64_t now_ms, module::PortReading reading) {
  if (observer_) observer_(reading);
  if (reading.module_present) {
    noted_without_module_.erase(reading.port);
    if (links_) {
      if (reading.link.up) links_->seed(reading.port, *reading.link.up);
      // The NIC's own count (ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT) where it keeps
      // one: it survives a daemon restart; else the transitions seen here.
      if (!reading.link.down_events_total) reading.link.down_events_total = links_->downEvents(reading.port);
      if (reading.link.down_reason) links_->recordDownReason(reading.port, *reading.link.down_reason);
      reading.link.last_down_reason = links_->lastDownReason(reading.port);
    }
    Sample sample = module::sampleFromReading(target_, now_ms, reading);
    fec_tails_.apply(sample);
    result_.samples.push_back(std::move(sample));
  } else {
    // Loopback, veth, an empty cage: not an error, noted once per interface.
    if (noted_without_module_.insert(reading.port).second) {
      spdlog::debug("target={} driver=ethtool port={} module=absent skipped=true", target_, reading.port);
    }
    for (const auto& issue : reading.issues) {
      result_.errors.push_back("target=" + target_ + " driver=ethtool port=" + reading.port + " " + issue);
    }
  }
  if (--ports_left_ == 0 && done_) {
    auto finish = std::move(done_);
    finish(std::move(result_));
  }
}

namespace {

std::shared_ptr<const DriverConfig> validate(const std::string&, OptionReader& options) {
  EthtoolOptions parsed;
  parsed.interfaces = options.stringList("interfaces");
  for (const auto& pattern : parsed.interfaces) {
    if (pattern.empty()) options.error("interfaces", "empty interface name");
  }
  if (!options.valid()) return nullptr;
  return makeDriverConfig(std::move(parsed));
}

Result<std::unique_ptr<Driver>> create(const DriverContext& context, const EthtoolOptions& options) {
  return std::make_unique<EthtoolDriver>(context.target_name, context.io, options);
}

}  // namespace

const DriverEntry& driverEntry() {
  static constexpr DriverEntry entry{"ethtool",
                                     "this Linux host's optical modules, FEC and link state over ethtool netlink",
                                     &validate,
                                     &createWith<EthtoolOptions, &create>,
                                     {}};
  return entry;
}

}  // namespace opticsd::ethtool
