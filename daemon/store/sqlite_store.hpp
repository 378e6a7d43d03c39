#pragma once
// SqliteStore: the history sink. The polling side hands over whole poll
// cycles with enqueue(), which never blocks on the disk; one writer thread
// owns the SQLite connection and writes each batch of cycles in a single
// transaction with prepared statements.
//
// Failures of the environment (disk full, a lock held by another process, the
// file deleted, replaced, corrupted or made read-only) never crash and never
// reach the polling thread: the batch stays queued and is retried with
// backoff, new cycles queue while there is room and are counted as dropped
// beyond it, and stats() says what is wrong. When the cause clears, writing
// resumes with the oldest cycle.
//
// Thread-safety: enqueue(), flush(), stats() and setMaxSizeBytes() may be
// called from any thread, concurrently. The destructor stops the writer after
// one last attempt and counts whatever it could not write as dropped; call
// flush() first for an orderly shutdown.
//
// Findings: the store is also the rules engine's FindingSink. Findings,
// suspects and bias baselines queue beside the cycles and go through the same
// writer, transaction, retry policy and stats (one connection to the file);
// findings_history.hpp reads them back.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "daemon/rules/finding_sink.hpp"
#include "daemon/store/finding_event.hpp"
#include "daemon/store/history_decimator.hpp"
#include "daemon/store/history_downsampler.hpp"
#include "daemon/store/history_retention.hpp"
#include "daemon/store/store_options.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd {

struct StoreConnection;

class SqliteStore : public FindingSink {
 public:
  // Opens (creating if needed) the database, sets WAL, applies migrations and
  // checks the schema against the metric catalogue, then starts the writer.
  // Errors here (bad path, newer schema) are returned, not retried.
  static Result<std::unique_ptr<SqliteStore>> open(const StoreOptions& options);

  // The daemon's open: a first open that fails (the file locked by another
  // process, a full disk, a corrupt file, a directory not yet writable) does
  // not disable history for the whole run. The store starts failing, with the
  // error in stats() and the log, queues cycles as usual (drops counted), and
  // the writer retries with backoff until the cause clears. Only bad options
  // are an Error.
  static Result<std::unique_ptr<SqliteStore>> openRetrying(const StoreOptions& options);

  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  // Queues one poll cycle, less the samples the sample interval leaves out
  // (counted in stats().decimated_samples_total). Returns false when the queue
  // is full: the cycle is dropped and counted in stats().dropped_*. Never
  // waits for the writer.
  bool enqueue(std::vector<Sample> cycle);
  // The same for a poll other sinks share (HistorySink): only the samples
  // history keeps are copied, so thinning happens while queueing and the
  // poll is never copied whole. Called from one thread at a time.
  bool enqueue(const std::vector<Sample>& poll, std::vector<std::size_t>& scratch);

  // FindingSink: queued like cycles, never waiting for the writer. Beyond
  // kMaxQueuedFindingEvents the oldest event is dropped and counted
  // (stats().dropped_finding_events_total); a newer suspects snapshot of a
  // target replaces a queued one.
  void record(const Finding& finding) override;
  void replaceSuspects(const std::string& target, std::vector<Suspect> suspects) override;
  void recordBaseline(const BiasBaseline& baseline) override;
  void keepRows(const std::string& target, const std::string& port) override;
  // The baselines the file held when the store first opened it (once; later
  // calls get none). Empty when the first open failed.
  std::vector<BiasBaseline> takeStoredBaselines() override;

  // Waits until every cycle and finding event queued before the call is written (true), or the
  // timeout passes while the writer is still failing (false).
  bool flush(std::chrono::milliseconds timeout = std::chrono::milliseconds::max());

  StoreStats stats() const;

  // Changes the size cap at run time (config reload); applied before the next batch.
  void setMaxSizeBytes(std::uint64_t bytes);

 private:
  struct Queued {
    std::vector<Sample> cycle;
    std::chrono::steady_clock::time_point enqueued;
    std::uint64_t seq = 0;  // polls queued before it
  };
  // A finding event and where it arrived among the cycles: the rules judge a
  // poll before the store queues it, so a finding's rows-to-keep are written
  // right after the cycle of its own poll, also when a batch holds several,
  // and never before it (takeBatch holds it until its poll is queued).
  struct QueuedEvent {
    FindingEvent event;
    std::uint64_t after_cycles = 0;  // polls queued before it: it goes with poll `after_cycles`
  };

  static constexpr std::size_t kMaxQueuedFindingEvents = 100'000;
  static constexpr std::size_t kMaxBatchFindingEvents = 1000;

  explicit SqliteStore(StoreOptions options);
  // The writer thread, in steps.
  void run();
  struct DropLog {
    std::uint64_t cycles = 0;  // dropped cycles said so far
    std::chrono::steady_clock::time_point at{};
  };
  enum class Work { kWrite, kIdle, kStop };
  void logDrops(std::unique_lock<std::mutex>& lock, DropLog& logged);
  Work takeBatch(DropLog& logged);
  bool eventDue(std::uint64_t next_cycle) const;
  void batchWritten();
  bool batchFailed(std::chrono::milliseconds backoff);
  Result<void> ensureConnection();
  Result<void> writeBatch();
  Result<void> makeRoom(std::uint64_t max_bytes, bool force);
  // Retention and downsampling, a bounded step at a time between batches.
  void runRetention();
  bool maintenanceEnabled() const { return options_.retention.count() > 0 || !options_.downsample.empty(); }
  std::int64_t nowMs() const;
  void noteFailure(const std::string& message);
  void enqueueEvent(FindingEvent event);
  bool queueCycle(std::vector<Sample> cycle);
  Result<void> openConnection();
  static Result<std::unique_ptr<SqliteStore>> start(const StoreOptions& options, bool first_open_must_work);

  const StoreOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable wake_writer_;
  std::condition_variable written_;
  std::deque<Queued> queue_;
  std::size_t in_flight_cycles_ = 0;  // taken by the writer, not yet committed
  std::chrono::steady_clock::time_point in_flight_oldest_{};
  std::deque<QueuedEvent> events_;
  std::uint64_t cycles_queued_ = 0;   // polls ever, for the order of cycles and events
  int flushing_ = 0;                  // flush() calls waiting
  std::uint64_t enqueued_total_ = 0;  // cycles and events accepted, for flush()
  std::uint64_t finished_total_ = 0;  // cycles and events written or dropped after acceptance
  std::vector<BiasBaseline> stored_baselines_;
  bool baselines_read_ = false;  // the first successful open read them
  bool stop_ = false;
  std::uint64_t max_size_bytes_;
  bool max_size_changed_ = true;
  StoreStats stats_;
  HistoryDecimator decimator_;

  // Writer thread only.
  std::vector<Queued> batch_;
  std::vector<QueuedEvent> batch_events_;
  std::unique_ptr<StoreConnection> connection_;
  std::uint64_t batch_stored_rows_ = 0;
  bool last_attempt_full_ = false;  // SQLITE_FULL: make room before the retry
  HistoryRetention retention_;
  HistoryDownsampler downsampler_;
  std::chrono::steady_clock::time_point next_retention_{};
  std::thread writer_;
};

}  // namespace opticsd
