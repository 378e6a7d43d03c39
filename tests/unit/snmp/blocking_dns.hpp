#pragma once
// A DNS seam for tests: a HostResolver::Lookup that blocks, like a resolver
// whose DNS server never answers, until the test says what the answer is.
// The lookup runs on a resolver thread that may outlive the test body, so
// everything it touches lives in a shared state; the destructor releases it.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "drivers/snmp/host_resolver.hpp"

namespace opticsd::snmp::testing {

class BlockingDns {
 public:
  BlockingDns() : state_(std::make_shared<State>()) {}
  ~BlockingDns() { answer(fail("test over")); }
  BlockingDns(const BlockingDns&) = delete;
  BlockingDns& operator=(const BlockingDns&) = delete;

  HostResolver::Lookup lookup() const {
    return [state = state_](const std::string& host) -> Result<std::string> {
      std::unique_lock lock(state->mutex);
      state->asked.push_back(host);
      ++state->running;
      state->changed.notify_all();
      state->changed.wait(lock, [&] { return state->answer.has_value(); });
      --state->running;
      state->changed.notify_all();
      return *state->answer;
    };
  }

  // From now on every lookup (waiting or future) returns `result` at once.
  void answer(Result<std::string> result) {
    std::lock_guard lock(state_->mutex);
    state_->answer = std::move(result);
    state_->changed.notify_all();
  }
  // Back to blocking for lookups that start from now on.
  void block() {
    std::lock_guard lock(state_->mutex);
    state_->answer.reset();
  }
  // Lookups blocked right now.
  int running() const {
    std::lock_guard lock(state_->mutex);
    return state_->running;
  }
  // Waits until a lookup is blocked (the resolver thread got there).
  bool waitRunning() const {
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_for(lock, std::chrono::seconds(30), [&] { return state_->running > 0; });
  }
  // Waits until no lookup is running any more.
  bool waitIdle() const {
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_for(lock, std::chrono::seconds(30), [&] { return state_->running == 0; });
  }
  std::vector<std::string> asked() const {
    std::lock_guard lock(state_->mutex);
    return state_->asked;
  }

 private:
  struct State {
    mutable std::mutex mutex;
    std::condition_variable changed;
    std::optional<Result<std::string>> answer;
    std::vector<std::string> asked;
    int running = 0;
  };
  std::shared_ptr<State> state_;
};

// Runs `io` until `done()` or 60 s: answers arrive from resolver threads, so
// the loop must wait for work that is not queued yet.
template <typename Pred>
bool runUntil(boost::asio::io_context& io, Pred done) {
  auto guard = boost::asio::make_work_guard(io);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    io.restart();
    io.run_for(std::chrono::milliseconds(2));
  }
  return done();
}

}  // namespace opticsd::snmp::testing
