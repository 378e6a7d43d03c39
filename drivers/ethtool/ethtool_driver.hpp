#pragma once
// The ethtool driver: reads the optical modules of this Linux host (a GPU
// server's NICs, a SONiC or Cumulus switch) straight from the kernel over
// ethtool generic netlink, with the same decoders as every other path.
//
// Target options:
//   interfaces: [eth2, eth3] | "enp*" | all   (default all)
//
// Threads: created, polled and destroyed on the io_context thread (Driver
// contract). Blocking legacy ioctls run on a one-thread pool of its own.

#include <boost/asio/thread_pool.hpp>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "drivers/driver.hpp"
#include "drivers/ethtool/link_monitor.hpp"
#include "drivers/ethtool/port_reader.hpp"
#include "drivers/fec_tail.hpp"

namespace opticsd::ethtool {

struct EthtoolOptions {
  std::vector<std::string> interfaces;  // names or globs; empty = all
};

class EthtoolDriver : public Driver {
 public:
  EthtoolDriver(std::string target, boost::asio::io_context& io, EthtoolOptions options);
  ~EthtoolDriver() override;

  void poll(std::int64_t now_ms, Done done) override;
  void cancel() override;

  // Sees every port's raw reading before it is decoded (`opticsd capture`).
  void onReading(std::function<void(const module::PortReading&)> observer) { observer_ = std::move(observer); }

  // Syscalls made by the driver's netlink sockets so far (benchmarks, README).
  std::uint64_t netlinkSyscalls() const;

 private:
  void resolveFamily(std::function<void()> then);
  void pollInterfaces(std::int64_t now_ms);
  void finishPort(std::uint64_t generation, std::int64_t now_ms, module::PortReading reading);
  void askWhyDown(const std::string& ifname);  // on a link-down notification

  std::string target_;
  boost::asio::io_context& io_;
  EthtoolOptions options_;
  std::shared_ptr<NetlinkChannel> channel_;
  std::optional<GenlFamily> family_;
  bool family_missing_ = false;  // kernel without the ethtool family: legacy reads only
  std::unique_ptr<LinkMonitor> links_;
  std::unique_ptr<boost::asio::thread_pool> legacy_pool_;
  std::set<std::string> noted_without_module_;
  std::function<void(const module::PortReading&)> observer_;
  FecTailTracker fec_tails_;

  std::uint64_t generation_ = 0;  // bumps on every poll and cancel; stale callbacks check it
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // callbacks hold it weakly
  Done done_;
  PollResult result_;
  std::size_t ports_left_ = 0;
};

// validate: `interfaces` into EthtoolOptions; create: an EthtoolDriver.
const DriverEntry& driverEntry();

}  // namespace opticsd::ethtool
