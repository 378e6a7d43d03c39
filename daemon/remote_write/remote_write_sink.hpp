#pragma once
// Remote write as a poll sink: each successful poll is pushed (with the
// target's rules series, read from the target source the service set); a
// failed poll pushes nothing of the target, only opticsd's own metrics when
// they are due. Kept stale values are never pushed again.
//
// Threading: the polling thread; the writer encodes here and sends on its own threads.

#include "daemon/pipeline/poll_sink.hpp"
#include "daemon/remote_write/remote_writer.hpp"

namespace opticsd {

class RemoteWriteSink : public PollSink {
 public:
  // `writer` must outlive this.
  explicit RemoteWriteSink(RemoteWriter& writer) : writer_(writer) {}

  void onPoll(const PublishedPoll& poll) override { writer_.push(poll.target, *poll.samples); }
  void onPollFailed(const FailedPoll& poll) override {
    (void)poll;
    writer_.pushSelfWhenDue();
  }

 private:
  RemoteWriter& writer_;
};

}  // namespace opticsd
