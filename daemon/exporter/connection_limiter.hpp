#pragma once
// Who keeps a connection to /metrics when there are too many.
//
// A monitoring endpoint must stay reachable for its scraper, so a full table
// never turns the newest connection away while an older one is only waiting:
// the connection that has waited longest for a request (silent, half a
// request, a TLS handshake not finished, or idle between keep-alive requests)
// is evicted to make room. A connection that is being answered (its request
// complete and authorized) is never evicted; only when every slot is busy is
// a new connection refused. The same rule applies per source address first,
// so one address cannot take the whole table from the others.
//
// Thread-safety: every member may be called from any thread. evict() is
// called with no lock held, after the table has forgotten the connection.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

namespace opticsd {

class ConnectionLimiter {
 public:
  struct Limits {
    std::size_t max_connections = 512;
    std::size_t max_per_source = 256;
  };

  // What the limiter closes to make room.
  class Evictable {
   public:
    virtual ~Evictable() = default;
    virtual void evict() = 0;
  };

  using Ticket = std::uint64_t;

  explicit ConnectionLimiter(Limits limits) : limits_(limits) {}

  // Admits a connection from `source`, waiting for its first request. Evicts
  // the longest-waiting connection of that source when the source is at its
  // limit, else the longest-waiting one overall when the table is full.
  // Empty when there is no room: every candidate is busy being answered.
  std::optional<Ticket> admit(const std::string& source, std::weak_ptr<Evictable> connection);
  // A complete, authorized request is being answered: not evictable.
  void busy(Ticket ticket);
  // Waiting for a (next) request: evictable, after every connection that
  // has waited longer.
  void waiting(Ticket ticket);
  // The connection is gone (a no-op once it was evicted).
  void leave(Ticket ticket);

  std::size_t connections() const;
  std::uint64_t evictions() const;
  std::uint64_t refusals() const;

 private:
  struct Entry {
    std::string source;
    std::weak_ptr<Evictable> connection;
    std::optional<std::uint64_t> waiting_since;  // order of entering the wait; unset while busy
  };

  // Called with mutex_ held. Removes the longest-waiting connection (of
  // `source` when given) and returns it, or nothing when none is waiting.
  std::optional<std::weak_ptr<Evictable>> evictOldestLocked(const std::string* source);
  void stopWaitingLocked(Entry& entry);
  void removeLocked(std::unordered_map<Ticket, Entry>::iterator it);

  const Limits limits_;
  mutable std::mutex mutex_;
  std::unordered_map<Ticket, Entry> entries_;
  std::map<std::uint64_t, Ticket> waiting_;                            // oldest wait first
  std::set<std::pair<std::string, std::uint64_t>> waiting_by_source_;  // (source, wait order)
  std::unordered_map<std::string, std::size_t> per_source_;
  std::uint64_t next_ticket_ = 0;
  std::uint64_t next_wait_ = 0;
  std::uint64_t evictions_ = 0;
  std::uint64_t refusals_ = 0;
};

}  // namespace opticsd
