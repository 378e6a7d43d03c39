#include "daemon/store/sqlite_store.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>

#include "daemon/store/finding_rows.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_handle.hpp"

namespace opticsd {
namespace {

// What a module_identities row holds; a change in any field is a new row.
struct IdentityRecord {
  std::array<std::string, 13> text;
  std::array<std::optional<double>, 3> real;
  bool operator==(const IdentityRecord&) const = default;
};

constexpr std::array<std::string_view, 13> kIdentityTextColumns{
    "family", "form_factor", "media",     "vendor",           "vendor_oui",    "part_number", "revision",
    "serial", "date_code",   "connector", "firmware_version", "spec_revision", "modulation"};
constexpr std::array<std::string_view, 3> kIdentityRealColumns{"wavelength_nm", "cable_length_m", "lane_rate_gbps"};

IdentityRecord identityRecord(const ModuleIdentity& id) {
  return {{std::string(toString(id.family)), id.form_factor, id.media, id.vendor, id.vendor_oui, id.part_number,
           id.revision, id.serial, id.date_code, id.connector, id.firmware_version, id.spec_revision,
           std::string(toString(id.modulation))},
          {id.wavelength_nm, id.cable_length_m, id.lane_rate_gbps}};
}

bool hasIdentity(const ModuleIdentity& id) {
  return !id.vendor.empty() || !id.part_number.empty() || !id.serial.empty() || !id.media.empty();
}

std::optional<std::int64_t> counter(const std::optional<std::uint64_t>& v) {
  if (!v) return std::nullopt;
  return static_cast<std::int64_t>(std::min<std::uint64_t>(*v, std::numeric_limits<std::int64_t>::max()));
}

std::string joinColumns(std::string_view first, auto&&... lists) {
  std::string out(first);
  auto add = [&](const auto& list) {
    for (const auto& item : list) {
      out += ", ";
      if constexpr (requires { item.key; }) {
        out += item.key;
      } else {
        out += item;
      }
    }
  };
  (add(lists), ...);
  return out;
}

std::string placeholders(std::size_t n) {
  std::string out;
  for (std::size_t i = 1; i <= n; ++i) out += (i > 1 ? ", ?" : "?") + std::to_string(i);
  return out;
}

// A file overwritten in place keeps its inode, and in WAL mode SQLite keeps
// trusting its cached pages, so the writer would go on "committing" into
// garbage. The 16-byte header magic (SQLite file format, section 1.3) is
// checked before each batch instead; an empty file is a new database.
bool headerIsSqlite(const std::string& path) {
  static constexpr char kMagic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return true;  // gone: the inode check handles it
  char head[16];
  const std::size_t n = std::fread(head, 1, sizeof(head), f);
  std::fclose(f);
  return n == 0 || (n == sizeof(head) && std::memcmp(head, kMagic, sizeof(head)) == 0);
}

bool keepsConnection(int extended_code) {
  const int primary = extended_code & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED || primary == SQLITE_FULL;
}

}  // namespace

// Everything tied to one sqlite3 connection: statements and id caches die with it.
struct SqliteStore::Connection {
  struct ModuleState {
    std::int64_t id = 0;
    bool identity_loaded = false;
    std::int64_t identity_id = 0;  // 0: none recorded yet
    IdentityRecord identity;
  };

  SqliteDb db;
  dev_t dev = 0;
  ino_t ino = 0;
  SqliteStatement begin, commit, rollback;
  SqliteStatement insert_module, select_module;
  SqliteStatement select_identity, insert_identity, touch_identity;
  SqliteStatement insert_module_sample, insert_lane_sample;
  std::optional<FindingRows> finding_rows;
  std::unordered_map<std::string, ModuleState> modules;
  int last_error_code = SQLITE_OK;

  Result<void> sqlError(std::string_view what) {
    last_error_code = sqlite3_extended_errcode(db.get());
    return opticsd::fail(db.error(what));
  }
  Result<void> stepDone(SqliteStatement& stmt, std::string_view what) {
    const int rc = stmt.step();
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
      auto error = sqlError(what);
      stmt.reset();
      return error;
    }
    stmt.reset();
    return {};
  }

  static Result<std::unique_ptr<Connection>> open(const StoreOptions& options);
  Result<ModuleState*> module(const Sample& sample);
  Result<void> recordIdentity(ModuleState& state, const Sample& sample);
  Result<void> writeSample(const Sample& sample);
};

Result<std::unique_ptr<SqliteStore::Connection>> SqliteStore::Connection::open(const StoreOptions& options) {
  const std::string path = options.path.string();
  removeOrphanedWal(options.path);
  auto db = SqliteDb::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db) return tl::unexpected(db.error());
  auto c = std::make_unique<Connection>();
  c->db = std::move(*db);
  sqlite3_busy_timeout(c->db.get(), static_cast<int>(std::min<std::int64_t>(options.busy_timeout.count(), 1 << 30)));
  auto where = [&](const Error& e) { return fail("history database " + path + ": " + e.message); };

  // WAL lets readers (opticsd history) run beside the writer; NORMAL sync
  // loses at most the last commits on power loss, never consistency.
  auto mode = c->db.prepare("PRAGMA journal_mode = WAL");
  if (!mode) return where(mode.error());
  if (mode->step() != SQLITE_ROW || mode->columnText(0) != "wal") {
    return where(Error{"cannot switch to WAL journal mode: " + std::string(sqlite3_errmsg(c->db.get()))});
  }
  mode->reset();
  if (auto ok = c->db.exec("PRAGMA synchronous = NORMAL"); !ok) return where(ok.error());
  if (auto ok = migrate(c->db); !ok) return where(ok.error());
  if (auto ok = checkCatalogueColumns(c->db); !ok) return where(ok.error());

  struct Prepared {
    SqliteStatement* into;
    std::string sql;
  };
  const std::string module_columns = joinColumns("module_id, ts_ms, present", kModuleMetricInfo, kModuleCounterColumns);
  const std::size_t module_count = 3 + kModuleMetricInfo.size() + kModuleCounterColumns.size();
  const std::string lane_columns = joinColumns("module_id, lane, ts_ms", kLaneMetricInfo, kLaneStatusColumns);
  const std::size_t lane_count = 3 + kLaneMetricInfo.size() + kLaneStatusColumns.size();
  const std::string identity_columns =
      joinColumns("module_id", kIdentityTextColumns, kIdentityRealColumns) + ", first_seen_ms, last_seen_ms";
  const std::size_t identity_count = 1 + kIdentityTextColumns.size() + kIdentityRealColumns.size() + 2;
  const Prepared statements[] = {
      {&c->begin, "BEGIN IMMEDIATE"},
      {&c->commit, "COMMIT"},
      {&c->rollback, "ROLLBACK"},
      {&c->insert_module, "INSERT OR IGNORE INTO modules (target, port) VALUES (?1, ?2)"},
      {&c->select_module, "SELECT id FROM modules WHERE target = ?1 AND port = ?2"},
      {&c->select_identity, "SELECT id, " + joinColumns("", kIdentityTextColumns, kIdentityRealColumns).substr(2) +
                                " FROM module_identities WHERE module_id = ?1 ORDER BY id DESC LIMIT 1"},
      {&c->insert_identity,
       "INSERT INTO module_identities (" + identity_columns + ") VALUES (" + placeholders(identity_count) + ")"},
      {&c->touch_identity, "UPDATE module_identities SET last_seen_ms = max(last_seen_ms, ?2) WHERE id = ?1"},
      {&c->insert_module_sample,
       "INSERT INTO module_samples (" + module_columns + ") VALUES (" + placeholders(module_count) + ")"},
      {&c->insert_lane_sample,
       "INSERT INTO lane_samples (" + lane_columns + ") VALUES (" + placeholders(lane_count) + ")"},
  };
  for (const auto& s : statements) {
    auto stmt = c->db.prepare(s.sql);
    if (!stmt) return where(stmt.error());
    *s.into = std::move(*stmt);
  }
  auto finding_rows = FindingRows::prepare(c->db);
  if (!finding_rows) return where(finding_rows.error());
  c->finding_rows.emplace(std::move(*finding_rows));

  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    c->dev = st.st_dev;
    c->ino = st.st_ino;
  }
  return c;
}

Result<SqliteStore::Connection::ModuleState*> SqliteStore::Connection::module(const Sample& sample) {
  std::string key;
  key.reserve(sample.target.size() + sample.port.size() + 1);
  key.append(sample.target).push_back('\0');
  key.append(sample.port);
  if (auto it = modules.find(key); it != modules.end()) return &it->second;

  insert_module.bind(1, std::string_view(sample.target));
  insert_module.bind(2, std::string_view(sample.port));
  if (auto ok = stepDone(insert_module, "adding module"); !ok) return tl::unexpected(ok.error());
  select_module.bind(1, std::string_view(sample.target));
  select_module.bind(2, std::string_view(sample.port));
  if (select_module.step() != SQLITE_ROW) {
    auto error = sqlError("looking up module");
    select_module.reset();
    return tl::unexpected(error.error());
  }
  ModuleState state;
  state.id = *select_module.columnInt(0);
  select_module.reset();
  return &modules.emplace(std::move(key), std::move(state)).first->second;
}

Result<void> SqliteStore::Connection::recordIdentity(ModuleState& state, const Sample& sample) {
  if (!state.identity_loaded) {
    state.identity_id = 0;
    state.identity = {};
    select_identity.bind(1, std::optional<std::int64_t>(state.id));
    const int rc = select_identity.step();
    if (rc == SQLITE_ROW) {
      state.identity_id = *select_identity.columnInt(0);
      for (std::size_t i = 0; i < kIdentityTextColumns.size(); ++i) {
        state.identity.text[i] = select_identity.columnText(static_cast<int>(1 + i));
      }
      for (std::size_t i = 0; i < kIdentityRealColumns.size(); ++i) {
        state.identity.real[i] = select_identity.columnDouble(static_cast<int>(1 + kIdentityTextColumns.size() + i));
      }
    } else if (rc != SQLITE_DONE) {
      auto error = sqlError("reading module identity");
      select_identity.reset();
      return error;
    }
    select_identity.reset();
    state.identity_loaded = true;
  }

  IdentityRecord now = identityRecord(sample.identity);
  const std::optional<std::int64_t> ts = sample.timestamp_ms;
  if (state.identity_id != 0 && now == state.identity) {
    touch_identity.bind(1, std::optional<std::int64_t>(state.identity_id));
    touch_identity.bind(2, ts);
    return stepDone(touch_identity, "updating module identity");
  }
  // A new module in the port (or the first one seen): a new history row.
  int i = 1;
  insert_identity.bind(i++, std::optional<std::int64_t>(state.id));
  for (const auto& text : now.text) insert_identity.bind(i++, std::string_view(text));
  for (const auto& real : now.real) insert_identity.bind(i++, real);
  insert_identity.bind(i++, ts);
  insert_identity.bind(i++, ts);
  if (auto ok = stepDone(insert_identity, "recording module identity"); !ok) return ok;
  state.identity_id = sqlite3_last_insert_rowid(db.get());
  state.identity = std::move(now);
  return {};
}

Result<void> SqliteStore::Connection::writeSample(const Sample& sample) {
  auto state = module(sample);
  if (!state) return tl::unexpected(state.error());
  const std::int64_t module_id = (*state)->id;
  if (sample.module_present && hasIdentity(sample.identity)) {
    if (auto ok = recordIdentity(**state, sample); !ok) return ok;
  }

  SqliteStatement& m = insert_module_sample;
  int i = 1;
  m.bind(i++, std::optional<std::int64_t>(module_id));
  m.bind(i++, std::optional<std::int64_t>(sample.timestamp_ms));
  m.bind(i++, std::optional<bool>(sample.module_present));
  for (std::size_t k = 0; k < kModuleMetricCount; ++k) m.bind(i++, sample.module[static_cast<ModuleMetric>(k)]);
  m.bind(i++, counter(sample.fec.corrected_blocks_total));
  m.bind(i++, counter(sample.fec.uncorrectable_blocks_total));
  m.bind(i++, counter(sample.fec.corrected_bits_total));
  m.bind(i++, sample.link.up);
  m.bind(i++, counter(sample.link.down_events_total));
  m.bind(i++, sample.link.speed_gbps);
  if (auto ok = stepDone(m, "inserting module sample"); !ok) return ok;

  SqliteStatement& l = insert_lane_sample;
  for (const Lane& lane : sample.lanes) {
    i = 1;
    l.bind(i++, std::optional<std::int64_t>(module_id));
    l.bind(i++, std::optional<std::int64_t>(lane.number));
    l.bind(i++, std::optional<std::int64_t>(sample.timestamp_ms));
    for (std::size_t k = 0; k < kLaneMetricCount; ++k) l.bind(i++, lane.values[static_cast<LaneMetric>(k)]);
    const LaneStatus& s = lane.status;
    for (const auto& flag : {s.rx_los, s.tx_los, s.rx_lol, s.tx_lol, s.tx_fault, s.tx_no_light, s.rx_no_light}) {
      l.bind(i++, flag);
    }
    l.bind(i++, s.data_path_state ? std::optional<std::int64_t>(*s.data_path_state) : std::nullopt);
    if (auto ok = stepDone(l, "inserting lane sample"); !ok) return ok;
  }
  return {};
}

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
  if (cycle.empty()) return true;
  {
    std::lock_guard lock(mutex_);
    stats_.decimated_samples_total += decimator_.thin(cycle);
    if (cycle.empty()) return true;
    if (stop_ || queue_.size() + in_flight_cycles_ >= options_.queue_capacity_cycles) {
      ++stats_.dropped_cycles_total;
      stats_.dropped_samples_total += cycle.size();
      return false;
    }
    queue_.push_back({std::move(cycle), std::chrono::steady_clock::now()});
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
    events_.push_back(std::move(event));
    ++enqueued_total_;
  }
  if (log_drop && options_.log) {
    options_.log("findings queue full, dropping the oldest: " + std::to_string(dropped) + " events dropped so far");
  }
  wake_writer_.notify_one();
}

void SqliteStore::record(const Finding& finding) { enqueueEvent(finding); }

void SqliteStore::recordBaseline(const BiasBaseline& baseline) { enqueueEvent(baseline); }

void SqliteStore::replaceSuspects(const std::string& target, std::vector<Suspect> suspects) {
  {
    std::lock_guard lock(mutex_);
    // Only the latest snapshot of a target matters.
    for (auto& e : events_) {
      if (auto* u = std::get_if<SuspectsUpdate>(&e); u != nullptr && u->target == target) {
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
  if (timeout == std::chrono::milliseconds::max()) {
    written_.wait(lock, done);
    return true;
  }
  return written_.wait_for(lock, timeout, done);
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
  auto c = Connection::open(options_);
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
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || st.st_ino != connection_->ino || st.st_dev != connection_->dev) {
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
    auto page = connection_->db.prepare("PRAGMA page_size");
    std::int64_t page_size = 4096;
    if (page && page->step() == SQLITE_ROW) page_size = page->columnInt(0).value_or(4096);
    // SQLite clamps the count to what the file already holds and to its own maximum.
    const std::uint64_t pages = max_bytes == 0 ? 0xFFFFFFFEull : std::max<std::uint64_t>(1, max_bytes / page_size);
    if (auto ok = connection_->db.exec("PRAGMA max_page_count = " + std::to_string(pages)); !ok) {
      std::lock_guard lock(mutex_);
      max_size_changed_ = true;
      return fail("setting the size limit: " + ok.error().message);
    }
  }
  return {};
}

Result<void> SqliteStore::writeBatch() {
  if (auto ok = ensureConnection(); !ok) return ok;
  Connection& c = *connection_;
  auto failed = [&](Result<void> error) -> Result<void> {
    if (!sqlite3_get_autocommit(c.db.get())) (void)c.stepDone(c.rollback, "rolling back");
    // Ids cached during the rolled-back transaction may not exist.
    c.modules.clear();
    if (!keepsConnection(c.last_error_code)) connection_.reset();
    return error;
  };
  if (auto ok = c.stepDone(c.begin, "beginning transaction"); !ok) return failed(ok);
  for (const Queued& q : batch_) {
    for (const Sample& sample : q.cycle) {
      if (auto ok = c.writeSample(sample); !ok) return failed(ok);
    }
  }
  for (const FindingEvent& event : batch_events_) {
    if (auto ok = c.finding_rows->write(c.db, event); !ok) {
      c.last_error_code = sqlite3_extended_errcode(c.db.get());
      return failed(ok);
    }
  }
  if (auto ok = c.stepDone(c.commit, "committing"); !ok) return failed(ok);
  return {};
}

void SqliteStore::runRetention() {
  if (!maintenanceEnabled() || !connection_) return;
  Connection& c = *connection_;
  const std::int64_t cutoff = options_.retention.count() > 0 ? nowMs() - options_.retention.count() : 0;
  std::uint64_t deleted = 0;
  std::uint64_t downsampled = 0;
  std::string error;
  bool more = false;
  // Rows arrive in time order, so the oldest sit at the lowest rowids: each
  // chunk looks only at the head of the table and never scans all of it.
  for (std::string_view table : {"lane_samples", "module_samples"}) {
    if (cutoff <= 0) break;  // no retention: downsampling only
    const std::string t(table);
    auto stmt = c.db.prepare("DELETE FROM " + t + " WHERE rowid IN (SELECT rowid FROM " + t +
                             " ORDER BY rowid LIMIT ?1) AND ts_ms < ?2");
    if (!stmt) {
      error = stmt.error().message;
      break;
    }
    for (int chunk = 0; chunk < 50; ++chunk) {
      stmt->bind(1, std::optional<std::int64_t>(static_cast<std::int64_t>(options_.retention_chunk_rows)));
      stmt->bind(2, std::optional<std::int64_t>(cutoff));
      if (stmt->step() != SQLITE_DONE) {
        error = c.db.error("deleting old " + t);
        stmt->reset();
        break;
      }
      stmt->reset();
      const auto n = static_cast<std::uint64_t>(sqlite3_changes64(c.db.get()));
      deleted += n;
      if (n < options_.retention_chunk_rows) break;
      if (chunk == 49) more = true;
    }
    if (!error.empty()) break;
  }
  if (error.empty() && !options_.downsample.empty()) {
    if (auto step = downsampler_.step(c.db, nowMs(), options_.downsample_modules_per_step); !step) {
      error = step.error().message;
    } else {
      downsampled = step->deleted_rows;
      more = more || step->more;
    }
  }
  if (error.empty() && cutoff > 0) {
    if (auto ok = c.db.exec("DELETE FROM module_identities WHERE last_seen_ms < " + std::to_string(cutoff)); !ok) {
      error = "deleting old module identities: " + ok.error().message;
    } else {
      deleted += static_cast<std::uint64_t>(sqlite3_changes64(c.db.get()));
      for (auto& [key, state] : c.modules) state.identity_loaded = false;
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

void SqliteStore::run() {
  std::chrono::milliseconds backoff = options_.retry_initial;
  std::uint64_t dropped_logged = 0;
  std::chrono::steady_clock::time_point drop_logged_at{};
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      // Drops are logged when they start and then at most once a minute.
      if (options_.log && stats_.dropped_cycles_total > dropped_logged &&
          (dropped_logged == 0 || std::chrono::steady_clock::now() - drop_logged_at >= std::chrono::minutes(1))) {
        const std::uint64_t n = stats_.dropped_cycles_total;
        lock.unlock();
        options_.log("history queue full: " + std::to_string(n) + " poll cycles dropped so far");
        dropped_logged = n;
        drop_logged_at = std::chrono::steady_clock::now();
        lock.lock();
      }
      if (batch_.empty() && batch_events_.empty()) {
        const auto until_retention = next_retention_ - std::chrono::steady_clock::now();
        const auto wait = std::clamp<std::chrono::steady_clock::duration>(until_retention, std::chrono::milliseconds(1),
                                                                          std::chrono::seconds(1));
        wake_writer_.wait_for(lock, wait, [&] { return stop_ || !queue_.empty() || !events_.empty(); });
        if (queue_.empty() && events_.empty()) {
          if (stop_) break;
          lock.unlock();
          if (maintenanceEnabled() && std::chrono::steady_clock::now() >= next_retention_ && ensureConnection()) {
            runRetention();
          }
          continue;
        }
        const std::size_t n = std::min(queue_.size(), std::max<std::size_t>(1, options_.max_batch_cycles));
        for (std::size_t i = 0; i < n; ++i) {
          batch_.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
        while (!events_.empty() && batch_events_.size() < kMaxBatchFindingEvents) {
          batch_events_.push_back(std::move(events_.front()));
          events_.pop_front();
        }
        in_flight_cycles_ = batch_.size();
        if (!batch_.empty()) in_flight_oldest_ = batch_.front().enqueued;
      }
    }

    auto ok = writeBatch();
    if (ok) {
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
        stats_.last_write_ms = nowMs();
        recovered = stats_.failing;
        stats_.failing = false;
      }
      if (recovered && options_.log) options_.log("history writes resumed");
      backoff = options_.retry_initial;
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
      continue;
    }

    noteFailure(ok.error().message);
    std::unique_lock lock(mutex_);
    if (stop_) {
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
      break;
    }
    wake_writer_.wait_for(lock, backoff, [&] { return stop_; });
    backoff = std::min(backoff * 2, options_.retry_max);
  }
}

}  // namespace opticsd
