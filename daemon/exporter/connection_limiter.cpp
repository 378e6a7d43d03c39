#include "daemon/exporter/connection_limiter.hpp"

#include <vector>

namespace opticsd {

std::optional<ConnectionLimiter::Ticket> ConnectionLimiter::admit(const std::string& source,
                                                                  std::weak_ptr<Evictable> connection) {
  std::vector<std::weak_ptr<Evictable>> victims;
  std::optional<Ticket> ticket;
  {
    std::lock_guard lock(mutex_);
    bool room = true;
    if (const auto it = per_source_.find(source); it != per_source_.end() && it->second >= limits_.max_per_source) {
      auto victim = evictOldestLocked(&source);
      room = victim.has_value();
      if (victim) victims.push_back(std::move(*victim));
    }
    if (room && entries_.size() >= limits_.max_connections) {
      auto victim = evictOldestLocked(nullptr);
      room = victim.has_value();
      if (victim) victims.push_back(std::move(*victim));
    }
    if (room) {
      ticket = next_ticket_++;
      const std::uint64_t wait = next_wait_++;
      entries_.emplace(*ticket, Entry{source, std::move(connection), wait});
      waiting_.emplace(wait, *ticket);
      waiting_by_source_.emplace(source, wait);
      ++per_source_[source];
    } else {
      ++refusals_;
    }
  }
  for (auto& victim : victims) {
    if (auto alive = victim.lock()) alive->evict();
  }
  return ticket;
}

void ConnectionLimiter::busy(Ticket ticket) {
  std::lock_guard lock(mutex_);
  if (const auto it = entries_.find(ticket); it != entries_.end()) stopWaitingLocked(it->second);
}

void ConnectionLimiter::waiting(Ticket ticket) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(ticket);
  if (it == entries_.end()) return;
  stopWaitingLocked(it->second);
  const std::uint64_t wait = next_wait_++;
  it->second.waiting_since = wait;
  waiting_.emplace(wait, ticket);
  waiting_by_source_.emplace(it->second.source, wait);
}

void ConnectionLimiter::leave(Ticket ticket) {
  std::lock_guard lock(mutex_);
  if (const auto it = entries_.find(ticket); it != entries_.end()) removeLocked(it);
}

std::size_t ConnectionLimiter::connections() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::uint64_t ConnectionLimiter::evictions() const {
  std::lock_guard lock(mutex_);
  return evictions_;
}

std::uint64_t ConnectionLimiter::refusals() const {
  std::lock_guard lock(mutex_);
  return refusals_;
}

std::optional<std::weak_ptr<ConnectionLimiter::Evictable>> ConnectionLimiter::evictOldestLocked(
    const std::string* source) {
  std::optional<Ticket> oldest;
  if (source) {
    const auto it = waiting_by_source_.lower_bound({*source, 0});
    if (it != waiting_by_source_.end() && it->first == *source) oldest = waiting_.at(it->second);
  } else if (!waiting_.empty()) {
    oldest = waiting_.begin()->second;
  }
  if (!oldest) return std::nullopt;
  const auto it = entries_.find(*oldest);
  auto connection = it->second.connection;
  removeLocked(it);
  ++evictions_;
  return connection;
}

void ConnectionLimiter::stopWaitingLocked(Entry& entry) {
  if (!entry.waiting_since) return;
  waiting_.erase(*entry.waiting_since);
  waiting_by_source_.erase({entry.source, *entry.waiting_since});
  entry.waiting_since.reset();
}

void ConnectionLimiter::removeLocked(std::unordered_map<Ticket, Entry>::iterator it) {
  stopWaitingLocked(it->second);
  if (const auto count = per_source_.find(it->second.source); count != per_source_.end() && --count->second == 0) {
    per_source_.erase(count);
  }
  entries_.erase(it);
}

}  // namespace opticsd
