#include "daemon/rules/findings_store.hpp"

#include <sys/stat.h>

#include <sqlite3.h>

#include <utility>

#include "daemon/store/schema.hpp"
#include "daemon/store/sqlite_handle.hpp"

namespace opticsd {

struct FindingsStore::Connection {
  SqliteDb db;
  dev_t dev = 0;  // the file this connection writes, to notice it deleted or replaced
  ino_t ino = 0;
  SqliteStatement upsert;
  SqliteStatement delete_suspects;
  SqliteStatement insert_suspect;
  SqliteStatement delete_baseline;
  SqliteStatement insert_baseline;
};

namespace {

Result<SqliteDb> openReadOnly(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("no history database at " + path.string());
  auto db = SqliteDb::open(path.string(), SQLITE_OPEN_READONLY);
  if (!db) return tl::unexpected(db.error());
  sqlite3_busy_timeout(db->get(), 2000);
  auto version = readSchemaVersion(*db);
  if (!version) return tl::unexpected(version.error());
  if (*version < 2) return fail(path.string() + " has no findings yet (schema version " + std::to_string(*version) + ")");
  return db;
}

Result<std::vector<BiasBaseline>> readBaselines(SqliteDb& db) {
  auto st = db.prepare(
      "SELECT target, port, lane, serial, bias_ma, learned_ms, rx_dbm, tx_dbm FROM bias_baselines "
      "ORDER BY target, port, lane");
  if (!st) return tl::unexpected(st.error());
  std::vector<BiasBaseline> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db.error("reading bias baselines"));
    const std::string target = st->columnText(0);
    const std::string port = st->columnText(1);
    const auto lane = st->columnInt(2).value_or(0);
    const std::string serial = st->columnText(3);
    if (lane < 1 || lane > 64) continue;  // not written by us
    if (out.empty() || out.back().target != target || out.back().port != port || out.back().serial != serial) {
      out.push_back(BiasBaseline{target, port, serial, st->columnInt(5).value_or(0), {}, {}, {}});
    }
    auto& lanes = out.back().lanes_ma;
    if (lanes.size() < static_cast<std::size_t>(lane)) lanes.resize(static_cast<std::size_t>(lane), 0.0);
    lanes[static_cast<std::size_t>(lane - 1)] = st->columnDouble(4).value_or(0);
    for (auto [column, power] : {std::pair{6, &BiasBaseline::lanes_rx_dbm}, std::pair{7, &BiasBaseline::lanes_tx_dbm}}) {
      auto& v = out.back().*power;
      if (v.size() < static_cast<std::size_t>(lane)) v.resize(static_cast<std::size_t>(lane));
      v[static_cast<std::size_t>(lane - 1)] = st->columnDouble(column);
    }
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<FindingsStore::Connection>> FindingsStore::openConnection(const std::filesystem::path& path,
                                                                                    std::vector<BiasBaseline>* baselines) {
  auto db = SqliteDb::open(path.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db) return tl::unexpected(db.error());
  sqlite3_busy_timeout(db->get(), 5000);
  if (auto ok = db->exec("PRAGMA journal_mode = WAL"); !ok) return tl::unexpected(ok.error());
  if (auto v = migrate(*db); !v) return fail("findings store: " + v.error().message);
  auto c = std::make_unique<Connection>();
  const std::pair<SqliteStatement*, const char*> statements[] = {
      {&c->upsert,
       "INSERT INTO findings (target, port, lane, rule, severity, start_ms, end_ms, value, detail) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
       "ON CONFLICT (target, port, lane, rule, start_ms) DO UPDATE SET severity = excluded.severity, "
       "end_ms = excluded.end_ms, value = coalesce(findings.value, excluded.value), "
       "detail = CASE WHEN excluded.end_ms IS NULL THEN excluded.detail ELSE findings.detail END"},
      {&c->delete_suspects, "DELETE FROM suspects WHERE target = ?1"},
      {&c->insert_suspect,
       "INSERT OR REPLACE INTO suspects (target, port, score, reason, host, nic, gpu, rail, updated_ms) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"},
      {&c->delete_baseline, "DELETE FROM bias_baselines WHERE target = ?1 AND port = ?2"},
      {&c->insert_baseline,
       "INSERT OR REPLACE INTO bias_baselines (target, port, lane, serial, bias_ma, learned_ms, rx_dbm, tx_dbm) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"},
  };
  for (const auto& [statement, sql] : statements) {
    auto prepared = db->prepare(sql);
    if (!prepared) return tl::unexpected(prepared.error());
    *statement = std::move(*prepared);
  }
  if (baselines) {
    auto read = readBaselines(*db);
    if (!read) return tl::unexpected(read.error());
    *baselines = std::move(*read);
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    c->dev = st.st_dev;
    c->ino = st.st_ino;
  }
  c->db = std::move(*db);  // the statements stay valid: the connection moves, it does not close
  return c;
}

Result<std::unique_ptr<FindingsStore>> FindingsStore::open(const std::filesystem::path& path,
                                                           std::function<void(std::string_view)> log) {
  std::unique_ptr<FindingsStore> store(new FindingsStore());
  auto c = openConnection(path, &store->stored_baselines_);
  if (!c) return tl::unexpected(c.error());
  store->path_ = path;
  store->log_ = std::move(log);
  store->connection_ = std::move(*c);
  store->writer_ = std::thread([s = store.get()] { s->run(); });
  return store;
}

// The history file deleted or replaced under the daemon (the operator's
// clean-up, a restore): findings written to the old inode would be lost.
Result<void> FindingsStore::ensureConnection() {
  struct stat st {};
  const bool same = connection_ && ::stat(path_.c_str(), &st) == 0 && st.st_dev == connection_->dev &&
                    st.st_ino == connection_->ino;
  if (same) return {};
  if (connection_ && log_) log_("findings database " + path_.string() + " was removed or replaced; reopening");
  connection_.reset();
  removeOrphanedWal(path_);
  auto c = openConnection(path_, nullptr);
  if (!c) return tl::unexpected(c.error());
  connection_ = std::move(*c);
  return {};
}

FindingsStore::~FindingsStore() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
}

void FindingsStore::enqueue(Event event) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= kMaxQueued) {
      // The writer has been failing for a long time: the oldest event goes,
      // counted and said once per 10,000.
      queue_.pop_front();
      ++finished_total_;
      if (dropped_total_++ % 10'000 == 0 && log_) {
        log_("findings queue full, dropping the oldest events dropped_total=" + std::to_string(dropped_total_));
      }
    }
    queue_.push_back(std::move(event));
    ++queued_total_;
  }
  wake_.notify_one();
}

void FindingsStore::record(const Finding& finding) { enqueue(finding); }

void FindingsStore::recordBaseline(const BiasBaseline& baseline) { enqueue(baseline); }

std::vector<BiasBaseline> FindingsStore::takeStoredBaselines() { return std::exchange(stored_baselines_, {}); }

void FindingsStore::replaceSuspects(const std::string& target, std::vector<Suspect> suspects) {
  {
    std::lock_guard lock(mutex_);
    // A newer snapshot of the same target replaces a queued one.
    for (auto& e : queue_) {
      if (auto* u = std::get_if<SuspectsUpdate>(&e); u != nullptr && u->target == target) {
        u->suspects = std::move(suspects);
        return;
      }
    }
    queue_.emplace_back(SuspectsUpdate{target, std::move(suspects)});
    ++queued_total_;
  }
  wake_.notify_one();
}

bool FindingsStore::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const std::uint64_t goal = queued_total_;
  return done_.wait_for(lock, timeout, [&] { return finished_total_ >= goal; });
}

FindingsStore::Stats FindingsStore::stats() {
  std::lock_guard lock(mutex_);
  return Stats{dropped_total_, write_errors_total_, failing_};
}

void FindingsStore::run() {
  bool failing = false;
  std::vector<Event> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(failing ? 1000 : 200), [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty() && batch.empty() && stop_) return;
      while (!queue_.empty() && batch.size() < 1000) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    if (batch.empty()) continue;
    auto ok = write(batch);
    std::lock_guard lock(mutex_);
    failing_ = !ok;
    if (ok) {
      finished_total_ += batch.size();
      batch.clear();
      if (failing && log_) log_("findings writes recovered");
      failing = false;
    } else {
      if (!failing && log_) log_("findings write failed error=" + ok.error().message);
      failing = true;
      ++write_errors_total_;
      if (stop_) {
        finished_total_ += batch.size();
        return;
      }
    }
    done_.notify_all();
  }
}

Result<void> FindingsStore::writeBaseline(Connection& c, const BiasBaseline& b) {
  c.delete_baseline.reset();
  c.delete_baseline.bind(1, b.target);
  c.delete_baseline.bind(2, b.port);
  bool ok = c.delete_baseline.step() == SQLITE_DONE;
  for (std::size_t i = 0; ok && i < b.lanes_ma.size(); ++i) {
    if (!(b.lanes_ma[i] > 0)) continue;
    auto& st = c.insert_baseline;
    st.reset();
    st.bind(1, b.target);
    st.bind(2, b.port);
    st.bind(3, std::optional<std::int64_t>(static_cast<std::int64_t>(i + 1)));
    // Bound as text even when empty: bind(string_view) binds NULL for "".
    sqlite3_bind_text(st.get(), 4, b.serial.data(), static_cast<int>(b.serial.size()), SQLITE_TRANSIENT);
    st.bind(5, std::optional<double>(b.lanes_ma[i]));
    st.bind(6, std::optional<std::int64_t>(b.learned_ms));
    st.bind(7, i < b.lanes_rx_dbm.size() ? b.lanes_rx_dbm[i] : std::nullopt);  // NULL: no baseline
    st.bind(8, i < b.lanes_tx_dbm.size() ? b.lanes_tx_dbm[i] : std::nullopt);
    ok = st.step() == SQLITE_DONE;
  }
  if (ok) return {};
  auto message = c.db.error("writing a bias baseline");
  (void)c.db.exec("ROLLBACK");
  return fail(message);
}

Result<void> FindingsStore::write(std::vector<Event>& batch) {
  if (auto ok = ensureConnection(); !ok) return ok;
  Connection& c = *connection_;
  if (auto ok = c.db.exec("BEGIN IMMEDIATE"); !ok) return ok;
  for (const auto& e : batch) {
    if (const auto* f = std::get_if<Finding>(&e)) {
      auto& st = c.upsert;
      st.reset();
      st.bind(1, f->target);
      st.bind(2, f->port);
      st.bind(3, std::optional<std::int64_t>(f->lane));
      st.bind(4, f->rule);
      st.bind(5, toString(f->severity));
      st.bind(6, std::optional<std::int64_t>(f->start_ms));
      st.bind(7, f->end_ms);
      st.bind(8, f->value);
      sqlite3_bind_text(st.get(), 9, f->detail.data(), static_cast<int>(f->detail.size()), SQLITE_TRANSIENT);
      if (st.step() != SQLITE_DONE) {
        auto message = c.db.error("writing a finding");
        (void)c.db.exec("ROLLBACK");
        return fail(message);
      }
    } else if (const auto* b = std::get_if<BiasBaseline>(&e)) {
      if (auto ok = writeBaseline(c, *b); !ok) return ok;
    } else {
      const auto& u = std::get<SuspectsUpdate>(e);
      c.delete_suspects.reset();
      c.delete_suspects.bind(1, u.target);
      if (c.delete_suspects.step() != SQLITE_DONE) {
        auto message = c.db.error("replacing suspects");
        (void)c.db.exec("ROLLBACK");
        return fail(message);
      }
      for (const auto& s : u.suspects) {
        auto& st = c.insert_suspect;
        st.reset();
        st.bind(1, s.target);
        st.bind(2, s.port);
        st.bind(3, std::optional<double>(s.score));
        sqlite3_bind_text(st.get(), 4, s.reason.data(), static_cast<int>(s.reason.size()), SQLITE_TRANSIENT);
        st.bind(5, s.endpoint.host);
        st.bind(6, s.endpoint.nic);
        st.bind(7, s.endpoint.gpu);
        st.bind(8, s.endpoint.rail);
        st.bind(9, std::optional<std::int64_t>(s.updated_ms));
        if (st.step() != SQLITE_DONE) {
          auto message = c.db.error("writing a suspect");
          (void)c.db.exec("ROLLBACK");
          return fail(message);
        }
      }
    }
  }
  if (auto ok = c.db.exec("COMMIT"); !ok) {
    (void)c.db.exec("ROLLBACK");
    return ok;
  }
  return {};
}

Result<std::vector<Finding>> FindingsStore::loadFindings(const std::filesystem::path& path,
                                                          const FindingsFilter& filter) {
  auto db = openReadOnly(path);
  if (!db) return tl::unexpected(db.error());
  std::string sql =
      "SELECT target, port, lane, rule, severity, start_ms, end_ms, value, detail FROM findings WHERE 1 = 1";
  if (filter.active_only) sql += " AND end_ms IS NULL";
  if (filter.since_ms) sql += " AND (end_ms IS NULL OR end_ms >= ?1)";
  if (!filter.target.empty()) sql += " AND target = ?2";
  sql += " ORDER BY start_ms, target, port, lane, rule";
  auto st = db->prepare(sql);
  if (!st) return tl::unexpected(st.error());
  if (filter.since_ms) st->bind(1, filter.since_ms);
  if (!filter.target.empty()) st->bind(2, filter.target);
  std::vector<Finding> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db->error("reading findings"));
    Finding f;
    f.target = st->columnText(0);
    f.port = st->columnText(1);
    f.lane = static_cast<int>(st->columnInt(2).value_or(0));
    f.rule = st->columnText(3);
    f.severity = parseSeverity(st->columnText(4)).value_or(Severity::kWarning);
    f.start_ms = st->columnInt(5).value_or(0);
    f.end_ms = st->columnInt(6);
    f.value = st->columnDouble(7);
    f.detail = st->columnText(8);
    out.push_back(std::move(f));
  }
  return out;
}

Result<std::vector<Suspect>> FindingsStore::loadSuspects(const std::filesystem::path& path) {
  auto db = openReadOnly(path);
  if (!db) return tl::unexpected(db.error());
  auto st = db->prepare(
      "SELECT target, port, score, reason, host, nic, gpu, rail, updated_ms FROM suspects "
      "ORDER BY score DESC, target, port");
  if (!st) return tl::unexpected(st.error());
  std::vector<Suspect> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db->error("reading suspects"));
    Suspect s;
    s.target = st->columnText(0);
    s.port = st->columnText(1);
    s.score = st->columnDouble(2).value_or(0);
    s.reason = st->columnText(3);
    s.endpoint.host = st->columnText(4);
    s.endpoint.nic = st->columnText(5);
    s.endpoint.gpu = st->columnText(6);
    s.endpoint.rail = st->columnText(7);
    s.updated_ms = st->columnInt(8).value_or(0);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace opticsd
