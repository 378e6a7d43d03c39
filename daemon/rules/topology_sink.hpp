#pragma once
// The LLDP neighbours each poll reported, as a poll sink, to the topology the
// rules engine judges links with (the engine owns it: daemon/topology is a
// value it holds). Listed before RulesSink, so a poll's rules see its own
// neighbours. A failed poll leaves the neighbours known as they were.
//
// Threading: the polling thread, like the engine.

#include "daemon/pipeline/poll_sink.hpp"
#include "daemon/rules/rules_engine.hpp"

namespace opticsd {

class TopologySink : public PollSink {
 public:
  // `engine` must outlive this.
  explicit TopologySink(RulesEngine& engine) : engine_(engine) {}

  void onPoll(const PublishedPoll& poll) override { engine_.setNeighbors(poll.target, poll.neighbors); }
  void onPollFailed(const FailedPoll& poll) override { (void)poll; }

 private:
  RulesEngine& engine_;
};

}  // namespace opticsd
