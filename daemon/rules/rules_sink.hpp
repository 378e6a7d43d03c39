#pragma once
// The rules engine as a poll sink: every successful poll's Samples are
// evaluated (read only: the engine never changes a published poll); a failed
// poll brings no module news, but what a reload or an LLDP change altered is
// still published.
//
// Threading: the polling thread, like the engine.

#include "daemon/pipeline/poll_sink.hpp"
#include "daemon/rules/rules_engine.hpp"

namespace opticsd {

class RulesSink : public PollSink {
 public:
  // `engine` must outlive this.
  explicit RulesSink(RulesEngine& engine) : engine_(engine) {}

  void onPoll(const PublishedPoll& poll) override;
  void onPollFailed(const FailedPoll& poll) override;
  void onTargets(const std::vector<std::string>& targets) override;

 private:
  RulesEngine& engine_;
};

}  // namespace opticsd
