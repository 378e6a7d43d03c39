#include "drivers/snmp/host_resolver.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace opticsd::snmp {

bool isNumericAddress(const std::string& host) {
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1 || inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

Result<std::string> HostResolver::systemLookup(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0) {
    std::string why = rc == EAI_SYSTEM ? std::strerror(errno) : gai_strerror(rc);
    if (found) freeaddrinfo(found);
    return fail(why);
  }
  std::string address;
  for (const addrinfo* a = found; a && address.empty(); a = a->ai_next) {
    if (a->ai_family != AF_INET && a->ai_family != AF_INET6) continue;
    char text[NI_MAXHOST];
    if (getnameinfo(a->ai_addr, a->ai_addrlen, text, sizeof(text), nullptr, 0, NI_NUMERICHOST) == 0) address = text;
  }
  freeaddrinfo(found);
  if (address.empty()) return fail("no IPv4 or IPv6 address");
  return address;
}

struct HostResolver::Pending::Waiter {
  std::mutex mutex;
  boost::asio::io_context* io = nullptr;  // null once answered or dropped
  Callback done;
};

HostResolver::Pending::~Pending() {
  Callback dropped;
  {
    std::lock_guard lock(waiter_->mutex);
    waiter_->io = nullptr;
    dropped = std::move(waiter_->done);
  }
}

struct HostResolver::State : std::enable_shared_from_this<State> {
  using Waiter = Pending::Waiter;
  struct Entry {
    std::string address;
    std::chrono::steady_clock::time_point at;
  };

  State(Lookup l, Options o) : lookup(std::move(l)), options(o) {}

  // Called with `mutex` held, `host` already in `in_flight`.
  bool start(const std::string& host) {
    if (threads >= options.max_threads) {
      queue.push_back(host);
      return true;
    }
    try {
      std::thread([self = shared_from_this(), host] { self->run(host); }).detach();
    } catch (const std::exception&) {
      return false;
    }
    ++threads;
    return true;
  }

  Result<std::string> lookupOnce(const std::string& host) {
    try {
      return lookup(host);
    } catch (const std::exception& e) {
      return fail(e.what());
    }
  }

  // A resolver thread: looks up `host`, then whatever queued meanwhile.
  void run(std::string host) {
    for (;;) {
      Result<std::string> result = lookupOnce(host);
      std::vector<std::shared_ptr<Waiter>> waiters;
      bool more = false;
      {
        std::lock_guard lock(mutex);
        if (result) cache[host] = Entry{*result, std::chrono::steady_clock::now()};
        if (auto it = in_flight.find(host); it != in_flight.end()) {
          waiters = std::move(it->second);
          in_flight.erase(it);
        }
        if (queue.empty()) {
          --threads;
        } else {
          more = true;
          host = queue.front();
          queue.pop_front();
        }
      }
      deliver(waiters, result);
      if (!more) return;
    }
  }

  static void deliver(const std::vector<std::shared_ptr<Waiter>>& waiters, const Result<std::string>& result) {
    for (const auto& w : waiters) {
      std::lock_guard lock(w->mutex);
      if (!w->io) continue;  // dropped: the io_context may be gone
      boost::asio::post(*w->io, [w, result] {
        Callback done;
        {
          std::lock_guard inner(w->mutex);
          if (!w->io) return;
          w->io = nullptr;
          done = std::move(w->done);
        }
        done(result);
      });
    }
  }

  const Lookup lookup;
  const Options options;
  mutable std::mutex mutex;
  std::map<std::string, Entry> cache;
  std::map<std::string, std::vector<std::shared_ptr<Waiter>>> in_flight;  // running or queued
  std::deque<std::string> queue;
  std::size_t threads = 0;
};

HostResolver::HostResolver(Lookup lookup) : HostResolver(std::move(lookup), Options{}) {}

HostResolver::HostResolver(Lookup lookup, Options options)
    : state_(std::make_shared<State>(std::move(lookup), options)) {}

// Threads still blocked in a lookup hold the State; they finish on their own.
HostResolver::~HostResolver() = default;

std::shared_ptr<HostResolver> HostResolver::shared() {
  static const std::shared_ptr<HostResolver> instance = std::make_shared<HostResolver>();
  return instance;
}

std::optional<HostResolver::Cached> HostResolver::cached(const std::string& host) const {
  std::lock_guard lock(state_->mutex);
  auto it = state_->cache.find(host);
  if (it == state_->cache.end()) return std::nullopt;
  return Cached{it->second.address, std::chrono::steady_clock::now() - it->second.at >= state_->options.ttl};
}

void HostResolver::refresh(const std::string& host) {
  std::lock_guard lock(state_->mutex);
  auto [it, inserted] = state_->in_flight.try_emplace(host);
  if (inserted && !state_->start(host)) state_->in_flight.erase(it);
}

std::unique_ptr<HostResolver::Pending> HostResolver::resolve(boost::asio::io_context& io, const std::string& host,
                                                             Callback done) {
  auto waiter = std::make_shared<Pending::Waiter>();
  waiter->io = &io;
  waiter->done = std::move(done);
  bool started = true;
  {
    std::lock_guard lock(state_->mutex);
    auto [it, inserted] = state_->in_flight.try_emplace(host);
    // Polls that gave up on a hung lookup leave dropped waiters behind.
    std::erase_if(it->second, [](const std::shared_ptr<Pending::Waiter>& w) {
      std::lock_guard waiter_lock(w->mutex);
      return w->io == nullptr;
    });
    it->second.push_back(waiter);
    if (inserted && !state_->start(host)) {
      state_->in_flight.erase(it);
      started = false;
    }
  }
  if (!started) State::deliver({waiter}, fail("cannot start a resolver thread"));
  return std::make_unique<Pending>(std::move(waiter));
}

std::size_t HostResolver::inFlight() const {
  std::lock_guard lock(state_->mutex);
  return state_->in_flight.size();
}

}  // namespace opticsd::snmp
