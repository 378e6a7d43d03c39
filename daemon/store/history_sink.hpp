#pragma once
// History as a poll sink: each successful poll's shared Samples go to the
// store's queue, thinned as they are queued (the sample interval keeps a few
// per cent of them), so only the kept samples are copied, never the whole
// poll. A failed poll writes no rows: kept stale values are never history.
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
  // Nothing stored, but the poll takes its place in the queue's order: the
  // finding events the rules raised on it are written now, not held for the
  // next poll that stores rows (SqliteStore::takeBatch).
  void onPollFailed(const FailedPoll& poll) override {
    (void)poll;
    store_.enqueue(std::vector<Sample>{});
  }

 private:
  SqliteStore& store_;
  std::vector<std::size_t> kept_;  // reused: a steady fleet allocates no index list per poll
};

}  // namespace opticsd
