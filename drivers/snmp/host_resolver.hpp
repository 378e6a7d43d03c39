#pragma once
// Host names of SNMP targets, resolved off the polling thread.
//
// getaddrinfo() blocks for as long as the DNS server takes (with a silent
// server: timeout x attempts per address family, easily 10 s or more), and
// it cannot be cancelled. So each name is looked up on a resolver thread of
// its own, never on the io_context thread; the poll that wants it waits
// asynchronously (with its own deadline, see SnmpDriver) and a later poll of
// the same name joins the lookup still in flight instead of starting another.
// Answers are cached for `ttl`; after that the old address stays in use while
// a background lookup refreshes it, so a DNS outage does not take down targets
// that were already reachable. Failures are not cached: the next poll asks again.
//
// Threading: cached(), refresh() and resolve() may be called from any thread;
// callbacks run on the io_context passed to resolve(), and never after the
// Pending handle was destroyed.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "drivers/result.hpp"

namespace boost::asio {
class io_context;
}

namespace opticsd::snmp {

// True for an IPv4 dotted quad or an IPv6 literal: nothing to resolve.
bool isNumericAddress(const std::string& host);

class HostResolver {
 public:
  // One blocking lookup: `host` to a numeric address, or why not (the
  // message does not repeat the host name). Runs on a resolver thread.
  using Lookup = std::function<Result<std::string>(const std::string& host)>;
  using Callback = std::function<void(Result<std::string>)>;

  struct Options {
    std::chrono::steady_clock::duration ttl = std::chrono::minutes(5);
    std::size_t max_threads = 16;  // distinct names looked up at once; more wait in a queue
  };

  // A resolve() in progress. Destroying it drops the callback (the lookup
  // itself runs on, for the next caller and the cache).
  class Pending {
   public:
    struct Waiter;
    explicit Pending(std::shared_ptr<Waiter> waiter) : waiter_(std::move(waiter)) {}
    ~Pending();
    Pending(const Pending&) = delete;
    Pending& operator=(const Pending&) = delete;

   private:
    std::shared_ptr<Waiter> waiter_;
  };

  explicit HostResolver(Lookup lookup = systemLookup);
  HostResolver(Lookup lookup, Options options);
  ~HostResolver();
  HostResolver(const HostResolver&) = delete;
  HostResolver& operator=(const HostResolver&) = delete;

  // The process-wide resolver (getaddrinfo), shared by every SNMP target.
  static std::shared_ptr<HostResolver> shared();
  // getaddrinfo(AF_UNSPEC, SOCK_DGRAM): the first address, as text.
  static Result<std::string> systemLookup(const std::string& host);

  struct Cached {
    std::string address;
    bool stale = false;  // older than ttl: use it, and refresh()
  };
  std::optional<Cached> cached(const std::string& host) const;
  // Starts a background lookup of `host` unless one is in flight.
  void refresh(const std::string& host);
  // Looks `host` up (joining a lookup in flight); `done` is posted to `io`.
  std::unique_ptr<Pending> resolve(boost::asio::io_context& io, const std::string& host, Callback done);

  // Lookups currently running or queued (for tests).
  std::size_t inFlight() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace opticsd::snmp
