#pragma once
// History as a poll sink: each successful poll's shared Samples go to the
// store's queue, thinned as they are queued (the sample interval keeps a few
// per cent of them), so only the kept samples are copied, never the whole
// poll. A failed poll writes nothing: kept stale values are never history.
//
// Threading: the polling thread; the store writes on its own thread.

#include <cstddef>
#include <vector>

#include "daemon/pipeline/poll_sink.hpp"
#include "daemon/store/sqlite_store.hpp"

namespace opticsd {

class HistorySink : public PollSink {
 public:
  // `store` must outlive this.
  explicit HistorySink(SqliteStore& store) : store_(store) {}

  void onPoll(const PublishedPoll& poll) override { store_.enqueue(*poll.samples, kept_); }
  void onPollFailed(const FailedPoll& poll) override { (void)poll; }

 private:
  SqliteStore& store_;
  std::vector<std::size_t> kept_;  // reused: a steady fleet allocates no index list per poll
};

}  // namespace opticsd
