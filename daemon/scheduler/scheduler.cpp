#include "daemon/scheduler/scheduler.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/scheduler/poll_timing.hpp"

namespace opticsd {

struct Scheduler::TargetState {
  TargetState(boost::asio::io_context& io, TargetPlan p) : plan(std::move(p)), timer(io), timeout_timer(io) {}
  TargetPlan plan;
  boost::asio::steady_timer timer;
  boost::asio::steady_timer timeout_timer;
  std::uint32_t failures = 0;
  std::uint64_t generation = 0;  // bumped per poll and on retirement: stale completions are ignored
  bool in_flight = false;
  bool waiting = false;
  bool retired = false;
  std::chrono::steady_clock::time_point started;
  std::int64_t started_ms = 0;
};

namespace {
std::int64_t unixMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

Scheduler::Scheduler(boost::asio::io_context& io, Options options, Sink sink)
    : io_(io), options_(options), sink_(std::move(sink)), rng_(options.seed) {}

Scheduler::~Scheduler() { stop(); }

double Scheduler::unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }

void Scheduler::setOptions(const Options& options) {
  const auto seed = options_.seed;
  options_ = options;
  options_.seed = seed;
  drainWaiting();  // a raised concurrency limit takes effect at once
}

std::vector<std::string> Scheduler::setTargets(std::vector<TargetPlan> plans) {
  std::map<std::string, std::shared_ptr<TargetState>> next;
  std::vector<std::shared_ptr<TargetState>> added;
  for (auto& plan : plans) {
    auto existing = targets_.find(plan.name);
    if (existing != targets_.end() && existing->second->plan.fingerprint == plan.fingerprint) {
      next.emplace(plan.name, existing->second);
      targets_.erase(existing);
      continue;
    }
    auto state = std::make_shared<TargetState>(io_, std::move(plan));
    next.emplace(state->plan.name, state);
    added.push_back(state);
  }
  std::vector<std::string> removed;
  for (auto& [name, state] : targets_) {
    retire(state);
    if (!next.contains(name)) removed.push_back(name);
  }
  targets_ = std::move(next);
  round_remaining_ += options_.single_round ? added.size() : 0;
  for (auto& state : added) {
    // Spread first polls over the interval; poll-once wants them all now.
    const auto first = options_.single_round ? std::chrono::milliseconds(0)
                                             : std::chrono::milliseconds(static_cast<std::int64_t>(
                                                   unit() * static_cast<double>(state->plan.interval.count())));
    schedule(state, first);
  }
  return removed;
}

void Scheduler::retire(const std::shared_ptr<TargetState>& state) {
  state->retired = true;
  ++state->generation;
  state->timer.cancel();
  state->timeout_timer.cancel();
  if (state->in_flight) {
    state->in_flight = false;
    --in_flight_;
    state->plan.driver->cancel();
  }
}

void Scheduler::stop() {
  stopped_ = true;
  for (auto& [name, state] : targets_) retire(state);
  waiting_.clear();
}

void Scheduler::schedule(const std::shared_ptr<TargetState>& state, std::chrono::milliseconds delay) {
  state->timer.expires_after(delay);
  std::weak_ptr<TargetState> weak = state;
  state->timer.async_wait([this, weak](const boost::system::error_code& ec) {
    auto locked = weak.lock();
    if (ec || !locked || locked->retired || stopped_) return;
    request(locked);
  });
}

void Scheduler::request(const std::shared_ptr<TargetState>& state) {
  if (state->in_flight || state->waiting) return;
  if (in_flight_ >= options_.concurrency) {
    state->waiting = true;
    waiting_.push_back(state);
    return;
  }
  start(state);
}

void Scheduler::start(const std::shared_ptr<TargetState>& state) {
  state->in_flight = true;
  ++in_flight_;
  max_in_flight_seen_ = std::max(max_in_flight_seen_, in_flight_);
  const std::uint64_t generation = ++state->generation;
  state->started = std::chrono::steady_clock::now();
  state->started_ms = unixMillis();

  state->timeout_timer.expires_after(state->plan.timeout);
  std::weak_ptr<TargetState> weak = state;
  state->timeout_timer.async_wait([this, weak, generation](const boost::system::error_code& ec) {
    auto locked = weak.lock();
    if (ec || !locked || locked->generation != generation) return;
    locked->plan.driver->cancel();
    PollResult result;
    result.errors.push_back("timeout: no answer within " + std::to_string(locked->plan.timeout.count()) + " ms");
    finish(locked, generation, std::move(result), true);
  });

  // The completion always goes through post(): a driver that answers
  // synchronously must not recurse into the next poll. The state is held
  // until the driver answers, so the driver outlives its own callbacks.
  state->plan.driver->poll(state->started_ms, [this, state, generation](PollResult result) {
    boost::asio::post(io_, [this, state, generation, result = std::move(result)]() mutable {
      finish(state, generation, std::move(result), false);
    });
  });
}

void Scheduler::finish(const std::shared_ptr<TargetState>& state, std::uint64_t generation, PollResult result,
                       bool timed_out) {
  if (stopped_ || state->retired || state->generation != generation || !state->in_flight) return;
  state->in_flight = false;
  --in_flight_;
  state->timeout_timer.cancel();

  PollReport report;
  report.target = state->plan.name;
  report.driver = state->plan.driver_name;
  report.started_ms = state->started_ms;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - state->started).count();
  report.timed_out = timed_out;
  report.ok = !timed_out && !result.failed();
  report.result = std::move(result);
  state->failures = report.ok ? 0 : state->failures + 1;
  report.consecutive_failures = state->failures;
  report.next_delay = jitteredDelay(backoffDelay(state->plan.interval, state->failures, options_.max_backoff),
                                    options_.jitter_fraction, unit());
  if (!options_.single_round) schedule(state, report.next_delay);
  sink_(report);

  if (options_.single_round && round_remaining_ > 0 && --round_remaining_ == 0 && round_complete_) {
    round_complete_();
  }
  drainWaiting();
}

void Scheduler::drainWaiting() {
  while (!stopped_ && in_flight_ < options_.concurrency && !waiting_.empty()) {
    auto state = waiting_.front().lock();
    waiting_.pop_front();
    if (!state || state->retired) continue;
    state->waiting = false;
    start(state);
  }
}

}  // namespace opticsd
