#include "daemon/scheduler/scheduler.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace opticsd {
namespace {

using std::chrono::milliseconds;

// A driver at the seam: answers after `delay` (or never), failing while
// `failures_left` > 0. Counts what the scheduler asked of it.
struct FakeDriver : Driver {
  FakeDriver(boost::asio::io_context& io, int* polls, int* cancels) : io_(io), polls_(polls), cancels_(cancels) {}
  void poll(std::int64_t, Done done) override {
    ++*polls_;
    if (never_answer) return;
    PollResult result;
    if (failures_left > 0) {
      --failures_left;
      result.errors.push_back("agent said no");
    } else {
      result.samples.emplace_back();
    }
    if (delay.count() == 0) {
      done(std::move(result));  // synchronous answer: must not recurse
      return;
    }
    auto timer = std::make_shared<boost::asio::steady_timer>(io_, delay);
    timer->async_wait([timer, done, result](const boost::system::error_code&) mutable { done(std::move(result)); });
  }
  void cancel() override { ++*cancels_; }

  boost::asio::io_context& io_;
  int* polls_;
  int* cancels_;
  milliseconds delay{0};
  int failures_left = 0;
  bool never_answer = false;
};

struct Harness {
  boost::asio::io_context io;
  std::vector<PollReport> reports;
  int polls = 0;
  int cancels = 0;

  TargetPlan plan(const std::string& name, milliseconds interval, FakeDriver** out = nullptr) {
    auto driver = std::make_unique<FakeDriver>(io, &polls, &cancels);
    if (out != nullptr) *out = driver.get();
    return TargetPlan{name, "fake", std::move(driver), interval, milliseconds(200), name};
  }
  Scheduler::Sink sink() {
    return [this](PollReport& r) { reports.push_back(r); };
  }
  // Runs the loop until `done` holds; a deadline only guards against hangs.
  template <typename Pred>
  void runUntil(Pred done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done() && std::chrono::steady_clock::now() < deadline) io.run_for(milliseconds(5));
    ASSERT_TRUE(done()) << "condition not reached";
  }
};

TEST(SchedulerTest, SingleRoundPollsEveryTargetOnceUnderTheConcurrencyLimit) {
  Harness h;
  Scheduler::Options options;
  options.concurrency = 3;
  options.single_round = true;
  Scheduler scheduler(h.io, options, h.sink());
  bool complete = false;
  scheduler.onRoundComplete([&] { complete = true; });
  std::vector<TargetPlan> plans;
  for (int i = 0; i < 20; ++i) {
    FakeDriver* driver = nullptr;
    plans.push_back(h.plan("t" + std::to_string(i), milliseconds(1000), &driver));
    driver->delay = milliseconds(2);
  }
  scheduler.setTargets(std::move(plans));
  h.runUntil([&] { return complete; });
  EXPECT_EQ(h.reports.size(), 20u);
  EXPECT_EQ(h.polls, 20);
  EXPECT_EQ(scheduler.maxInFlightSeen(), 3u);
  for (const auto& r : h.reports) EXPECT_TRUE(r.ok) << r.target;
}

TEST(SchedulerTest, SynchronousDriversDoNotRecurse) {
  Harness h;
  Scheduler::Options options;
  options.concurrency = 1;
  options.single_round = true;
  Scheduler scheduler(h.io, options, h.sink());
  bool complete = false;
  scheduler.onRoundComplete([&] { complete = true; });
  std::vector<TargetPlan> plans;
  for (int i = 0; i < 5000; ++i) plans.push_back(h.plan("t" + std::to_string(i), milliseconds(1000)));
  scheduler.setTargets(std::move(plans));
  h.runUntil([&] { return complete; });
  EXPECT_EQ(h.reports.size(), 5000u);
}

TEST(SchedulerTest, TimeoutCancelsAndReportsAndIgnoresTheLateAnswer) {
  Harness h;
  Scheduler::Options options;
  options.single_round = true;
  Scheduler scheduler(h.io, options, h.sink());
  FakeDriver* driver = nullptr;
  auto plan = h.plan("slow", milliseconds(1000), &driver);
  plan.timeout = milliseconds(20);
  driver->delay = milliseconds(80);  // answers, but too late
  std::vector<TargetPlan> plans;
  plans.push_back(std::move(plan));
  scheduler.setTargets(std::move(plans));
  h.runUntil([&] { return !h.reports.empty(); });
  h.io.run_for(milliseconds(150));  // let the late answer arrive
  ASSERT_EQ(h.reports.size(), 1u);
  EXPECT_FALSE(h.reports[0].ok);
  EXPECT_TRUE(h.reports[0].timed_out);
  ASSERT_EQ(h.reports[0].result.errors.size(), 1u);
  EXPECT_NE(h.reports[0].result.errors[0].find("timeout"), std::string::npos);
  EXPECT_EQ(h.cancels, 1);
  EXPECT_EQ(scheduler.inFlight(), 0u);
}

TEST(SchedulerTest, FailingTargetBacksOffAndRecovers) {
  Harness h;
  Scheduler::Options options;
  options.jitter_fraction = 0;
  options.max_backoff = milliseconds(40);
  Scheduler scheduler(h.io, options, h.sink());
  FakeDriver* driver = nullptr;
  std::vector<TargetPlan> plans;
  plans.push_back(h.plan("flaky", milliseconds(5), &driver));
  driver->failures_left = 4;
  scheduler.setTargets(std::move(plans));
  h.runUntil([&] { return h.reports.size() >= 6; });
  std::vector<std::uint32_t> failures;
  std::vector<long> delays;
  for (int i = 0; i < 6; ++i) {
    failures.push_back(h.reports[i].consecutive_failures);
    delays.push_back(static_cast<long>(h.reports[i].next_delay.count()));
  }
  EXPECT_EQ(failures, (std::vector<std::uint32_t>{1, 2, 3, 4, 0, 0}));
  EXPECT_EQ(delays, (std::vector<long>{10, 20, 40, 40, 5, 5}));
  EXPECT_FALSE(h.reports[0].ok);
  EXPECT_TRUE(h.reports[4].ok);
}

TEST(SchedulerTest, OneDeadTargetDoesNotDelayOthers) {
  Harness h;
  Scheduler::Options options;
  options.concurrency = 2;
  Scheduler scheduler(h.io, options, h.sink());
  FakeDriver* dead = nullptr;
  std::vector<TargetPlan> plans;
  plans.push_back(h.plan("dead", milliseconds(10), &dead));
  dead->never_answer = true;
  plans.push_back(h.plan("alive", milliseconds(10)));
  scheduler.setTargets(std::move(plans));
  // The dead target's poll hangs until its 200 ms timeout; meanwhile the
  // live one keeps its 10 ms rhythm.
  h.runUntil([&] {
    for (const auto& r : h.reports) {
      if (r.target == "dead") return true;
    }
    return false;
  });
  int alive_before_timeout = 0;
  for (const auto& r : h.reports) {
    if (r.target == "dead") {
      EXPECT_TRUE(r.timed_out);
      break;
    }
    ++alive_before_timeout;
  }
  EXPECT_GE(alive_before_timeout, 5);
}

TEST(SchedulerTest, ReloadKeepsUnchangedTargetsAndRetiresRemovedOnes) {
  Harness h;
  Scheduler::Options options;
  Scheduler scheduler(h.io, options, h.sink());
  FakeDriver* keep = nullptr;
  FakeDriver* drop = nullptr;
  std::vector<TargetPlan> first;
  first.push_back(h.plan("keep", milliseconds(5), &keep));
  first.push_back(h.plan("drop", milliseconds(5), &drop));
  drop->never_answer = true;
  scheduler.setTargets(std::move(first));
  h.runUntil([&] { return h.polls >= 2; });

  FakeDriver* replacement = nullptr;
  std::vector<TargetPlan> second;
  second.push_back(h.plan("keep", milliseconds(5), &replacement));  // same fingerprint: old driver kept
  second.push_back(h.plan("new", milliseconds(5)));
  const auto removed = scheduler.setTargets(std::move(second));
  EXPECT_EQ(removed, std::vector<std::string>{"drop"});
  EXPECT_EQ(scheduler.targetCount(), 2u);
  const std::size_t before = h.reports.size();
  h.runUntil([&] {
    int fresh = 0;
    for (std::size_t i = before; i < h.reports.size(); ++i) fresh += h.reports[i].target == "new";
    return fresh >= 3;
  });
  for (std::size_t i = before; i < h.reports.size(); ++i) EXPECT_NE(h.reports[i].target, "drop");
  EXPECT_GE(h.cancels, 1) << "the removed target's poll in flight is cancelled";
}

TEST(SchedulerTest, StopDeliversNothingMore) {
  Harness h;
  Scheduler::Options options;
  Scheduler scheduler(h.io, options, h.sink());
  std::vector<TargetPlan> plans;
  plans.push_back(h.plan("a", milliseconds(5)));
  scheduler.setTargets(std::move(plans));
  h.runUntil([&] { return h.reports.size() >= 2; });
  scheduler.stop();
  const auto count = h.reports.size();
  h.io.run_for(milliseconds(50));
  EXPECT_EQ(h.reports.size(), count);
}

}  // namespace
}  // namespace opticsd
