#include "daemon/store/sqlite_store.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <variant>

#include "daemon/store/store_connection.hpp"

namespace opticsd {

Result<std::unique_ptr<SqliteStore>> SqliteStore::open(const StoreOptions& options) { return start(options, true); }

Result<std::unique_ptr<SqliteStore>> SqliteStore::openRetrying(const StoreOptions& options) {
  return start(options, false);
}

Result<std::unique_ptr<SqliteStore>> SqliteStore::start(const StoreOptions& options, bool first_open_must_work) {
  if (options.path.empty()) return fail("history database path is empty");
  if (options.queue_capacity_cycles == 0) return fail("history queue capacity must be at least one cycle");
  std::unique_ptr<SqliteStore> store(new SqliteStore(options));
  if (auto opened = store->openConnection(); !opened) {
    if (first_open_must_work) return tl::unexpected(opened.error());
    store->noteFailure(opened.error().message);  // the writer opens it once it can
  }
  store->next_retention_ = std::chrono::steady_clock::now();
  store->writer_ = std::thread([s = store.get()] { s->run(); });
  return store;
}

SqliteStore::SqliteStore(StoreOptions options)
    : options_(std::move(options)),
      max_size_bytes_(options_.max_size_bytes),
      decimator_(options_.sample_interval),
      downsampler_(options_.downsample) {}

SqliteStore::~SqliteStore() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_writer_.notify_all();
  if (writer_.joinable()) writer_.join();
}

std::int64_t SqliteStore::nowMs() const {
  if (options_.now_ms) return options_.now_ms();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool SqliteStore::enqueue(std::vector<Sample> cycle) {
  if (cycle.empty()) return queueCycle({});
  {
    std::lock_guard lock(mutex_);
    stats_.decimated_samples_total += decimator_.thin(cycle);
  }
  return queueCycle(std::move(cycle));
}

bool SqliteStore::enqueue(const std::vector<Sample>& poll, std::vector<std::size_t>& scratch) {
  if (poll.empty()) return queueCycle({});
  {
    std::lock_guard lock(mutex_);
    stats_.decimated_samples_total += decimator_.select(poll, scratch);
  }
  // Copied outside the lock: the writer never waits for it.
  std::vector<Sample> kept;
  kept.reserve(scratch.size());
  for (const std::size_t i : scratch) kept.push_back(poll[i]);
  return queueCycle(std::move(kept));
}

// Every poll takes a sequence number, also one with nothing to store or one
// dropped: the finding events queued before it are then due (takeBatch).
bool SqliteStore::queueCycle(std::vector<Sample> cycle) {
  {
    std::lock_guard lock(mutex_);
    const std::uint64_t seq = cycles_queued_++;
    if (cycle.empty()) {
      if (!events_.empty()) wake_writer_.notify_one();
      return true;
    }
    if (stop_ || queue_.size() + in_flight_cycles_ >= options_.queue_capacity_cycles) {
      ++stats_.dropped_cycles_total;
      stats_.dropped_samples_total += cycle.size();
      return false;
    }
    queue_.push_back({std::move(cycle), std::chrono::steady_clock::now(), seq});
    ++enqueued_total_;
  }
  wake_writer_.notify_one();
  return true;
}

void SqliteStore::enqueueEvent(FindingEvent event) {
  bool log_drop = false;
  std::uint64_t dropped = 0;
  {
    std::lock_guard lock(mutex_);
    if (stop_) {
      ++stats_.dropped_finding_events_total;
      return;
    }
    if (events_.size() >= kMaxQueuedFindingEvents) {
      // The writer has been failing for a long time: the oldest event goes.
      events_.pop_front();
      ++finished_total_;
      dropped = ++stats_.dropped_finding_events_total;
      log_drop = dropped % 10'000 == 1;
    }
    events_.push_back({std::move(event), cycles_queued_});
    ++enqueued_total_;
  }
  if (log_drop && options_.log) {
    options_.log("findings queue full, dropping the oldest: " + std::to_string(dropped) + " events dropped so far");
  }
  wake_writer_.notify_one();
}

void SqliteStore::record(const Finding& finding) { enqueueEvent(finding); }

void SqliteStore::recordBaseline(const BiasBaseline& baseline) { enqueueEvent(baseline); }

void SqliteStore::keepRows(const std::string& target, const std::string& port) {
  enqueueEvent(RowsToKeep{target, port});
}

void SqliteStore::replaceSuspects(const std::string& target, std::vector<Suspect> suspects) {
  {
    std::lock_guard lock(mutex_);
    // Only the latest snapshot of a target matters.
    for (auto& e : events_) {
      if (auto* u = std::get_if<SuspectsUpdate>(&e.event); u != nullptr && u->target == target) {
        u->suspects = std::move(suspects);
        return;
      }
    }
  }
  enqueueEvent(SuspectsUpdate{target, std::move(suspects)});
}

std::vector<BiasBaseline> SqliteStore::takeStoredBaselines() {
  std::lock_guard lock(mutex_);
  return std::exchange(stored_baselines_, {});
}

bool SqliteStore::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const std::uint64_t target = enqueued_total_;
  auto done = [&] { return finished_total_ >= target; };
  // Events still waiting for their poll's cycle are written now (takeBatch).
  ++flushing_;
  wake_writer_.notify_one();
  bool ok = true;
  if (timeout == std::chrono::milliseconds::max()) {
    written_.wait(lock, done);
  } else {
    ok = written_.wait_for(lock, timeout, done);
  }
  --flushing_;
  return ok;
}

StoreStats SqliteStore::stats() const {
  std::lock_guard lock(mutex_);
  StoreStats out = stats_;
  out.queued_cycles = queue_.size() + in_flight_cycles_;
  std::optional<std::chrono::steady_clock::time_point> oldest;
  if (in_flight_cycles_ > 0) {
    oldest = in_flight_oldest_;
  } else if (!queue_.empty()) {
    oldest = queue_.front().enqueued;
  }
  if (oldest) out.lag_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - *oldest).count();
  return out;
}

void SqliteStore::setMaxSizeBytes(std::uint64_t bytes) {
  std::lock_guard lock(mutex_);
  max_size_bytes_ = bytes;
  max_size_changed_ = true;
}

void SqliteStore::noteFailure(const std::string& message) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    ++stats_.write_errors_total;
    stats_.last_error = message;
    stats_.last_error_ms = nowMs();
    first = !stats_.failing;
    stats_.failing = true;
  }
  if (first && options_.log) options_.log("history writes failing, retrying with backoff: " + message);
}

Result<void> SqliteStore::openConnection() {
  auto c = StoreConnection::open(options_);
  if (!c) return tl::unexpected(c.error());
  bool read_baselines = false;
  {
    std::lock_guard lock(mutex_);
    read_baselines = !baselines_read_;
  }
  if (read_baselines) {
    // Once, for the rules engine built at start (takeStoredBaselines).
    auto baselines = readBiasBaselines((*c)->db);
    if (!baselines) return fail("history database " + options_.path.string() + ": " + baselines.error().message);
    std::lock_guard lock(mutex_);
    stored_baselines_ = std::move(*baselines);
    baselines_read_ = true;
  }
  connection_ = std::move(*c);
  return {};
}

Result<void> SqliteStore::ensureConnection() {
  const std::string path = options_.path.string();
  if (connection_) {
    // A deleted or replaced file would swallow writes into an orphaned inode.
    if (!connection_->stillAt(path)) {
      connection_.reset();
      // The -wal and -shm beside the path belong to the old file (SQLite does
      // not always remove them when the file was unlinked under it); replayed
      // onto the new file they would corrupt it.
      std::error_code ec;
      std::filesystem::remove(path + "-wal", ec);
      std::filesystem::remove(path + "-shm", ec);
      if (options_.log) options_.log("history database " + path + " was removed or replaced; reopening");
    } else if (!headerIsSqlite(path)) {
      // Kept open: once the operator moves the broken file away, the inode check reopens.
      return fail("history database " + path + " is not a SQLite file any more (overwritten or corrupted)");
    }
  }
  if (!connection_) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.reopens_total;
      max_size_changed_ = true;
    }
    if (auto opened = openConnection(); !opened) return opened;
  }
  std::uint64_t max_bytes = 0;
  bool changed = false;
  {
    std::lock_guard lock(mutex_);
    changed = max_size_changed_;
    max_bytes = max_size_bytes_;
    max_size_changed_ = false;
  }
  if (changed) {
    if (auto ok = connection_->limitSize(max_bytes); !ok) {
      std::lock_guard lock(mutex_);
      max_size_changed_ = true;
      return ok;
    }
  }
  if (max_bytes > 0) {
    // After a batch that did not fit, room is made even below the mark.
    const bool was_full = std::exchange(last_attempt_full_, false);
    return makeRoom(max_bytes, was_full);
  }
  return {};
}

// Near the size cap the oldest hour of every module goes, until a tenth of the
// cap is free again: writes keep succeeding and the newest history stays.
Result<void> SqliteStore::makeRoom(std::uint64_t max_bytes, bool force) {
  for (int slice = 0; slice < 48; ++slice) {
    auto used = connection_->usedAndLimitBytes();
    if (!used) return tl::unexpected(used.error());
    const std::uint64_t limit = std::min(max_bytes, used->second == 0 ? max_bytes : used->second);
    if (slice == 0 && !force && used->first < limit / 100 * 95) return {};
    if (slice > 0 && used->first < limit / 100 * 90) return {};
    auto step = HistoryRetention::expireOldest(connection_->db, options_.size_expiry_slice);
    if (!step) {
      connection_->noteError();
      return fail("making room under storage.max_size: " + step.error().message);
    }
    {
      std::lock_guard lock(mutex_);
      stats_.expired_rows_size_total += step->deleted_rows;
    }
    if (!step->more) return {};  // nothing old left to give
  }
  return {};
}

Result<void> SqliteStore::writeBatch() {
  if (auto ok = ensureConnection(); !ok) return ok;
  StoreConnection& c = *connection_;
  auto failed = [&](Result<void> error) -> Result<void> {
    if (!sqlite3_get_autocommit(c.db.get())) (void)c.stepDone(c.rollback, "rolling back");
    // Ids and rows cached during the rolled-back transaction may not exist.
    c.samples->forget();
    last_attempt_full_ = (c.last_error_code & 0xff) == SQLITE_FULL;
    if (!keepsConnection(c.last_error_code)) connection_.reset();
    return error;
  };
  if (auto ok = c.stepDone(c.begin, "beginning transaction"); !ok) return failed(ok);
  batch_stored_rows_ = 0;
  // Events in the order they came, each after the cycle of its own poll and
  // before the next poll's (sequence numbers of polls that stored nothing
  // leave gaps between the cycles).
  std::size_t next_event = 0;
  const auto writeEvents = [&](std::optional<std::uint64_t> before_cycle) -> Result<void> {
    for (; next_event < batch_events_.size(); ++next_event) {
      const QueuedEvent& queued = batch_events_[next_event];
      if (before_cycle && queued.after_cycles >= *before_cycle) break;
      const FindingEvent& event = queued.event;
      const auto* f = std::get_if<Finding>(&event);
      const auto* k = std::get_if<RowsToKeep>(&event);
      if (f != nullptr || k != nullptr) {
        const std::string& target = f ? f->target : k->target;
        const std::string& port = f ? f->port : k->port;
        if (auto ok = c.samples->keepAroundFinding(c.db, target, port); !ok) return ok;
      }
      if (auto ok = c.findings->write(c.db, event); !ok) return ok;
    }
    return {};
  };
  for (const Queued& q : batch_) {
    if (auto ok = writeEvents(q.seq); !ok) {
      c.noteError();
      return failed(ok);
    }
    for (const Sample& sample : q.cycle) {
      auto written = c.samples->write(c.db, sample);
      if (!written) {
        c.noteError();
        return failed(tl::unexpected(written.error()));
      }
      if (written->stored) ++batch_stored_rows_;
    }
  }
  if (auto ok = writeEvents(std::nullopt); !ok) {
    c.noteError();
    return failed(ok);
  }
  if (auto ok = c.stepDone(c.commit, "committing"); !ok) return failed(ok);
  return {};
}

void SqliteStore::runRetention() {
  if (!maintenanceEnabled() || !connection_) return;
  StoreConnection& c = *connection_;
  std::uint64_t deleted = 0;
  std::uint64_t downsampled = 0;
  std::string error;
  bool more = false;
  // Up to 50 steps a call (50,000 modules at the default), each its own
  // transaction so that write batches interleave with a long pass.
  for (int i = 0; i < 50 && options_.retention.count() > 0; ++i) {
    auto step =
        retention_.expireOlderThan(c.db, nowMs() - options_.retention.count(), options_.retention_modules_per_step);
    if (!step) {
      error = step.error().message;
      break;
    }
    deleted += step->deleted_rows;
    more = step->more;
    if (!more) {
      c.samples->forgetIdentities();  // identities may have gone with the pass
      break;
    }
  }
  if (error.empty() && !options_.downsample.empty()) {
    if (auto step = downsampler_.step(c.db, nowMs(), options_.downsample_modules_per_step); !step) {
      error = step.error().message;
    } else {
      downsampled = step->deleted_rows;
      more = more || step->more;
    }
  }
  std::lock_guard lock(mutex_);
  stats_.retention_deleted_rows_total += deleted;
  stats_.downsampled_rows_total += downsampled;
  if (!error.empty()) {
    ++stats_.write_errors_total;
    stats_.last_error = "retention: " + error;
    stats_.last_error_ms = nowMs();
  }
  // A large backlog is worked off in steps between batches.
  next_retention_ =
      std::chrono::steady_clock::now() + (more ? std::chrono::milliseconds(0) : options_.retention_interval);
}

// Drops are logged when they start and then at most once a minute.
void SqliteStore::logDrops(std::unique_lock<std::mutex>& lock, DropLog& logged) {
  if (!options_.log || stats_.dropped_cycles_total <= logged.cycles ||
      (logged.cycles != 0 && std::chrono::steady_clock::now() - logged.at < std::chrono::minutes(1))) {
    return;
  }
  const std::uint64_t n = stats_.dropped_cycles_total;
  lock.unlock();
  options_.log("history queue full: " + std::to_string(n) + " poll cycles dropped so far");
  logged.cycles = n;
  logged.at = std::chrono::steady_clock::now();
  lock.lock();
}

// True when the oldest queued event may go into a batch whose cycles end
// before `next_cycle`: its poll's cycle is in that batch or written already.
// An event whose poll has not reached the store yet (the rules judge a poll
// before the store queues it) waits for it, or it would be written before
// its own poll's rows and keep the wrong ones. A flush takes it once every
// queued cycle is written; the last batch before shutdown takes them all
// (a backlog's cycles are dropped then, its findings are not).
bool SqliteStore::eventDue(std::uint64_t next_cycle) const {
  if (events_.empty()) return false;
  return events_.front().after_cycles < next_cycle || stop_ || (queue_.empty() && flushing_ > 0);
}

// Moves queued cycles and the finding events that go with them into the
// batch (at most max_batch_cycles and kMaxBatchFindingEvents). A batch left
// by a failed write is retried as it is.
SqliteStore::Work SqliteStore::takeBatch(DropLog& logged) {
  std::unique_lock lock(mutex_);
  logDrops(lock, logged);
  if (!batch_.empty() || !batch_events_.empty()) return Work::kWrite;
  const auto until_retention = next_retention_ - std::chrono::steady_clock::now();
  const auto wait = std::clamp<std::chrono::steady_clock::duration>(until_retention, std::chrono::milliseconds(1),
                                                                    std::chrono::seconds(1));
  wake_writer_.wait_for(lock, wait, [&] { return stop_ || !queue_.empty() || eventDue(cycles_queued_); });
  const std::size_t n = std::min(queue_.size(), std::max<std::size_t>(1, options_.max_batch_cycles));
  for (std::size_t i = 0; i < n; ++i) {
    batch_.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  const std::uint64_t next_cycle = queue_.empty() ? cycles_queued_ : queue_.front().seq;
  while (batch_events_.size() < kMaxBatchFindingEvents && eventDue(next_cycle)) {
    batch_events_.push_back(std::move(events_.front()));
    events_.pop_front();
  }
  if (batch_.empty() && batch_events_.empty()) return stop_ && events_.empty() ? Work::kStop : Work::kIdle;
  in_flight_cycles_ = batch_.size();
  if (!batch_.empty()) in_flight_oldest_ = batch_.front().enqueued;
  return Work::kWrite;
}

// The batch is committed: counted, retention run when due, and waiters told.
void SqliteStore::batchWritten() {
  std::uint64_t samples = 0;
  std::uint64_t lanes = 0;
  for (const Queued& q : batch_) {
    samples += q.cycle.size();
    for (const Sample& s : q.cycle) lanes += s.lanes.size();
  }
  bool recovered = false;
  {
    std::lock_guard lock(mutex_);
    stats_.written_cycles_total += batch_.size();
    stats_.written_samples_total += samples;
    stats_.written_lanes_total += lanes;
    stats_.stored_rows_total += batch_stored_rows_;
    stats_.last_write_ms = nowMs();
    recovered = stats_.failing;
    stats_.failing = false;
  }
  if (recovered && options_.log) options_.log("history writes resumed");
  // Before flush() returns, so a flushed store has also applied retention.
  if (maintenanceEnabled() && std::chrono::steady_clock::now() >= next_retention_) runRetention();
  std::uint64_t abandoned_cycles = 0;
  std::uint64_t abandoned_samples = 0;
  {
    std::lock_guard lock(mutex_);
    finished_total_ += batch_.size() + batch_events_.size();
    in_flight_cycles_ = 0;
    if (stop_ && !events_.empty()) {
      stats_.dropped_finding_events_total += events_.size();
      finished_total_ += events_.size();
      events_.clear();
    }
    if (stop_ && !queue_.empty()) {
      // The destructor's one last attempt was this batch: a backlog left
      // after flush() timed out would hold shutdown past systemd's
      // TimeoutStopSec (and be SIGKILLed, uncounted). Count it as dropped.
      abandoned_cycles = queue_.size();
      for (const Queued& q : queue_) abandoned_samples += q.cycle.size();
      stats_.dropped_cycles_total += abandoned_cycles;
      stats_.dropped_samples_total += abandoned_samples;
      finished_total_ += abandoned_cycles;
      queue_.clear();
    }
  }
  batch_.clear();
  batch_events_.clear();
  written_.notify_all();
  if (abandoned_cycles > 0 && options_.log) {
    options_.log("history writer stopped with a backlog: " + std::to_string(abandoned_cycles) + " cycles (" +
                 std::to_string(abandoned_samples) + " samples) counted as dropped");
  }
}

// The batch failed: waits `backoff` before the retry, or, when shutting
// down, drops (and counts) what is left and returns true.
bool SqliteStore::batchFailed(std::chrono::milliseconds backoff) {
  std::unique_lock lock(mutex_);
  if (!stop_) {
    wake_writer_.wait_for(lock, backoff, [&] { return stop_; });
    return false;
  }
  // Shutting down and still failing: what is left is lost, and counted.
  std::uint64_t samples = 0;
  for (const Queued& q : batch_) samples += q.cycle.size();
  for (const Queued& q : queue_) samples += q.cycle.size();
  const std::uint64_t cycles = batch_.size() + queue_.size();
  stats_.dropped_cycles_total += cycles;
  stats_.dropped_samples_total += samples;
  const std::size_t events = batch_events_.size() + events_.size();
  stats_.dropped_finding_events_total += events;
  finished_total_ += batch_.size() + queue_.size() + batch_events_.size() + events_.size();
  batch_.clear();
  queue_.clear();
  batch_events_.clear();
  events_.clear();
  in_flight_cycles_ = 0;
  lock.unlock();
  written_.notify_all();
  if (options_.log) {
    options_.log("history writer stopped while failing: " + std::to_string(cycles) + " cycles (" +
                 std::to_string(samples) + " samples) counted as dropped" +
                 (events > 0 ? ", and " + std::to_string(events) + " finding events" : ""));
  }
  return true;
}

// The writer thread: batches from the queue, written with backoff on failure;
// retention and downsampling between batches.
void SqliteStore::run() {
  std::chrono::milliseconds backoff = options_.retry_initial;
  DropLog drops;
  for (;;) {
    const Work work = takeBatch(drops);
    if (work == Work::kStop) break;
    if (work == Work::kIdle) {
      if (maintenanceEnabled() && std::chrono::steady_clock::now() >= next_retention_ && ensureConnection()) {
        runRetention();
      }
      continue;
    }
    auto ok = writeBatch();
    if (ok) {
      batchWritten();
      backoff = options_.retry_initial;
      continue;
    }
    noteFailure(ok.error().message);
    if (batchFailed(backoff)) break;
    backoff = std::min(backoff * 2, options_.retry_max);
  }
}

}  // namespace opticsd
