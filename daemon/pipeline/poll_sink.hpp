#pragma once
// A consumer of finished polls: the exporter's cache, history, the rules
// engine, topology, remote write, opticsd's own poll accounting. Each is a
// peer: the pipeline hands every poll to each sink in the order the service
// listed them, and knows none of their types. A new consumer is one class
// deriving from this and one line where the service lists its sinks
// (daemon/service/poll_sinks.cpp).
//
// Threading: every method is called on the polling thread and must not block
// it (queue, as history and remote write do). A sink that keeps a poll keeps
// its shared `samples` pointer, never a copy of the whole poll.

#include <string>
#include <vector>

#include "daemon/pipeline/published_poll.hpp"

namespace opticsd {

class PollSink {
 public:
  virtual ~PollSink() = default;
  // A successful poll of a target the daemon polls.
  virtual void onPoll(const PublishedPoll& poll) = 0;
  // A failed poll: no Samples. What a sink already holds of the target is
  // its own business (the exporter's cache keeps it stale for a while).
  virtual void onPollFailed(const FailedPoll& poll) = 0;
  // The targets polled now (start and every reload): a sink forgets the
  // others. Results of targets not in the list never reach a sink.
  virtual void onTargets(const std::vector<std::string>& targets) { (void)targets; }
};

}  // namespace opticsd
