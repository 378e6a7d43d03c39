#include "daemon/rules/rules_sink.hpp"

namespace opticsd {

void RulesSink::onPoll(const PublishedPoll& poll) { engine_.evaluate(poll.target, *poll.samples); }

void RulesSink::onPollFailed(const FailedPoll& poll) { engine_.evaluate(poll.target, {}); }

void RulesSink::onTargets(const std::vector<std::string>& targets) { engine_.retainTargets(targets); }

}  // namespace opticsd
