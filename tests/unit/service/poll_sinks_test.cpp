// The daemon's sinks, listed in one place (PollSinks): a new consumer is one
// class and one add<>() line, and it gets the very poll every other sink
// gets, not a copy.

#include "daemon/service/poll_sinks.hpp"

#include <gtest/gtest.h>

#include "daemon/rules/rules_engine.hpp"

namespace opticsd {
namespace {

// The smallest consumer: remembers the Samples it was handed.
class LastPoll : public PollSink {
 public:
  void onPoll(const PublishedPoll& poll) override { samples = poll.samples; }
  void onPollFailed(const FailedPoll& poll) override { failed_target = poll.target; }
  std::shared_ptr<const std::vector<Sample>> samples;
  std::string failed_target;
};

PollReport report(const std::string& target, int modules, bool ok) {
  PollReport r;
  r.target = target;
  r.driver = "fake";
  r.started_ms = 1'700'000'000'000;
  r.ok = ok;
  for (int i = 0; i < modules; ++i) {
    Sample s;
    s.port = "Ethernet" + std::to_string(i + 1);
    r.result.samples.push_back(s);
  }
  return r;
}

TEST(PollSinks, ANewConsumerIsOneClassAndOneLineAndSharesThePoll) {
  ExporterOptions listen;
  listen.listen = "127.0.0.1:0";
  auto exporter = MetricsExporter::start(listen, "test");
  ASSERT_TRUE(exporter) << exporter.error().message;
  RulesEngine rules(RuleSet{}, Topology{});
  PollSinks sinks(**exporter, &rules, nullptr, nullptr);
  const std::size_t daemons = sinks.size();
  EXPECT_EQ(daemons, 4u) << "accounting, topology, rules, exporter's cache";
  auto& last = sinks.add<LastPoll>();  // the one line
  EXPECT_EQ(sinks.size(), daemons + 1);
  Pipeline pipeline;
  sinks.attach(pipeline);
  pipeline.setTargets({"leaf-1"});

  auto good = report("leaf-1", 3, true);
  pipeline.onReport(good);
  ASSERT_TRUE(last.samples);
  EXPECT_EQ(last.samples->size(), 3u);
  const auto served = (*exporter)->samples().snapshot();
  ASSERT_EQ(served.size(), 1u);
  EXPECT_EQ(served[0].samples, last.samples) << "the exporter serves the very vector the new sink got";

  auto bad = report("leaf-1", 0, false);
  pipeline.onReport(bad);
  EXPECT_EQ(last.failed_target, "leaf-1");
}

TEST(PollSinks, WithoutRulesStoreOrRemoteWriteOnlyTheExporterSinksAreListed) {
  ExporterOptions listen;
  listen.listen = "127.0.0.1:0";
  auto exporter = MetricsExporter::start(listen, "test");
  ASSERT_TRUE(exporter) << exporter.error().message;
  PollSinks sinks(**exporter, nullptr, nullptr, nullptr);
  EXPECT_EQ(sinks.size(), 2u) << "accounting and the exporter's cache";
}

}  // namespace
}  // namespace opticsd
