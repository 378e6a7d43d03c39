#include "daemon/store/sample_rows.hpp"

#include <string_view>
#include <utility>

namespace opticsd {
namespace {

bool hasIdentity(const ModuleIdentity& id) {
  return !id.vendor.empty() || !id.part_number.empty() || !id.serial.empty() || !id.media.empty();
}

Result<void> run(SqliteDb& db, SqliteStatement& st, std::string_view what) {
  const int rc = st.step();
  st.reset();
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return fail(db.error(what));
  return {};
}

}  // namespace

std::string identityColumns() {
  std::string out;
  for (const auto& field : kIdentityTextInfo) out += (out.empty() ? "" : ", ") + std::string(field.key);
  for (const auto& field : kIdentityNumberInfo) out += ", " + std::string(field.key);
  return out;
}

Result<SampleRows> SampleRows::prepare(SqliteDb& db, MetricCodes codes, DeadbandOptions deadband) {
  SampleRows rows;
  rows.codes_ = std::move(codes);
  rows.deadband_ = deadband;
  const std::string identity_columns = identityColumns();
  std::string placeholders;
  for (std::size_t i = 1; i <= kIdentityTextInfo.size() + kIdentityNumberInfo.size() + 3; ++i) {
    placeholders += (i > 1 ? ", ?" : "?") + std::to_string(i);
  }
  const std::pair<SqliteStatement*, std::string> statements[] = {
      {&rows.insert_module_, "INSERT OR IGNORE INTO modules (target, port) VALUES (?1, ?2)"},
      {&rows.select_module_, "SELECT id FROM modules WHERE target = ?1 AND port = ?2"},
      {&rows.select_identity_,
       "SELECT id, " + identity_columns + " FROM module_identities WHERE module_id = ?1 ORDER BY id DESC LIMIT 1"},
      {&rows.insert_identity_, "INSERT INTO module_identities (module_id, " + identity_columns +
                                   ", first_seen_ms, last_seen_ms) VALUES (" + placeholders + ")"},
      {&rows.touch_identity_, "UPDATE module_identities SET last_seen_ms = max(last_seen_ms, ?2) WHERE id = ?1"},
      {&rows.insert_row_,
       "INSERT OR REPLACE INTO module_history (module_id, ts_ms, kind, data) VALUES (?1, ?2, ?3, ?4)"},
      {&rows.mark_kept_, "UPDATE module_history SET kind = ?3 WHERE module_id = ?1 AND ts_ms = ?2"},
  };
  for (const auto& [into, sql] : statements) {
    auto st = db.prepare(sql);
    if (!st) return tl::unexpected(st.error());
    *into = std::move(*st);
  }
  auto thresholds = ThresholdRows::prepare(db);
  if (!thresholds) return tl::unexpected(thresholds.error());
  rows.thresholds_ = std::move(*thresholds);
  return rows;
}

Result<SampleRows::ModuleState*> SampleRows::module(SqliteDb& db, const std::string& target, const std::string& port,
                                                    bool create) {
  key_.assign(target).push_back('\0');
  key_.append(port);
  if (auto it = modules_.find(key_); it != modules_.end()) return &it->second;
  if (!create) return nullptr;
  insert_module_.bind(1, std::string_view(target));
  insert_module_.bind(2, std::string_view(port));
  if (auto ok = run(db, insert_module_, "adding module"); !ok) return tl::unexpected(ok.error());
  select_module_.bind(1, std::string_view(target));
  select_module_.bind(2, std::string_view(port));
  if (select_module_.step() != SQLITE_ROW) {
    auto error = db.error("looking up module");
    select_module_.reset();
    return fail(error);
  }
  ModuleState state;
  state.id = *select_module_.columnInt(0);
  select_module_.reset();
  return &modules_.emplace(key_, std::move(state)).first->second;
}

Result<void> SampleRows::recordIdentity(SqliteDb& db, ModuleState& state, const Sample& sample) {
  if (!state.identity_loaded) {
    state.identity_id = 0;
    state.identity = {};
    select_identity_.bind(1, std::optional<std::int64_t>(state.id));
    const int rc = select_identity_.step();
    if (rc == SQLITE_ROW) {
      state.identity_id = *select_identity_.columnInt(0);
      for (std::size_t i = 0; i < kIdentityTextInfo.size(); ++i) {
        state.identity.text[i] = select_identity_.columnText(static_cast<int>(1 + i));
      }
      for (std::size_t i = 0; i < kIdentityNumberInfo.size(); ++i) {
        state.identity.real[i] = select_identity_.columnDouble(static_cast<int>(1 + kIdentityTextInfo.size() + i));
      }
    }
    select_identity_.reset();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return fail(db.error("reading module identity"));
    state.identity_loaded = true;
  }
  const ModuleIdentity& id = sample.identity();
  Identity now;
  for (std::size_t i = 0; i < kIdentityTextInfo.size(); ++i) now.text[i] = kIdentityTextInfo[i].text(id);
  for (std::size_t i = 0; i < kIdentityNumberInfo.size(); ++i) now.real[i] = id.*kIdentityNumberInfo[i].member;
  const std::optional<std::int64_t> ts = sample.timestamp_ms;
  if (state.identity_id != 0 && now == state.identity) {
    touch_identity_.bind(1, std::optional<std::int64_t>(state.identity_id));
    touch_identity_.bind(2, ts);
    return run(db, touch_identity_, "updating module identity");
  }
  // A new module in the port (or the first one seen): a new history row.
  int i = 1;
  insert_identity_.bind(i++, std::optional<std::int64_t>(state.id));
  for (const auto& text : now.text) insert_identity_.bind(i++, std::string_view(text));
  for (const auto& real : now.real) insert_identity_.bind(i++, real);
  insert_identity_.bind(i++, ts);
  insert_identity_.bind(i++, ts);
  if (auto ok = run(db, insert_identity_, "recording module identity"); !ok) return ok;
  state.identity_id = sqlite3_last_insert_rowid(db.get());
  state.identity = std::move(now);
  return {};
}

Result<void> SampleRows::insert(SqliteDb& db, std::int64_t module_id, std::int64_t ts_ms, RowKind kind,
                                const std::string& data) {
  insert_row_.bind(1, std::optional<std::int64_t>(module_id));
  insert_row_.bind(2, std::optional<std::int64_t>(ts_ms));
  insert_row_.bind(3, std::optional<std::int64_t>(static_cast<std::int64_t>(kind)));
  sqlite3_bind_blob(insert_row_.get(), 4, data.data(), static_cast<int>(data.size()), SQLITE_TRANSIENT);
  return run(db, insert_row_, "inserting module history");
}

Result<SampleRows::Written> SampleRows::write(SqliteDb& db, const Sample& sample) {
  auto found = module(db, sample.target, sample.port, true);
  if (!found) return tl::unexpected(found.error());
  ModuleState& state = **found;
  if (sample.module_present && hasIdentity(sample.identity())) {
    if (auto ok = recordIdentity(db, state, sample); !ok) return tl::unexpected(ok.error());
    if (auto ok = thresholds_.record(db, state.id, sample, codes_); !ok) return tl::unexpected(ok.error());
  }
  const PackedValues values = packedValues(sample, codes_);
  std::string data = pack(values);
  const std::int64_t ts = sample.timestamp_ms;

  std::optional<RowKind> kind;
  if (deadband_.heartbeat.count() <= 0 || !state.kept_ms) {
    kind = RowKind::kChange;
  } else if (state.keep_next > 0) {
    kind = RowKind::kFindingContext;
    --state.keep_next;
  } else {
    auto kept = unpack(state.kept_data);
    if (!kept || exceedsDeadband(*kept, values, codes_, deadband_)) {
      kind = RowKind::kChange;
    } else if (ts - *state.kept_ms >= deadband_.heartbeat.count() || ts < *state.kept_ms) {
      kind = RowKind::kHeartbeat;
    }
  }
  if (!kind) {
    if (deadband_.finding_context_rows > 0) {
      state.pending.push_back({ts, std::move(data)});
      while (state.pending.size() > deadband_.finding_context_rows) state.pending.pop_front();
    }
    return Written{false};
  }
  if (auto ok = insert(db, state.id, ts, *kind, data); !ok) return tl::unexpected(ok.error());
  state.kept_ms = ts;
  state.kept_data = std::move(data);
  state.pending.clear();
  return Written{true};
}

Result<void> SampleRows::keepAroundFinding(SqliteDb& db, const std::string& target, const std::string& port) {
  auto found = module(db, target, port, false);
  if (!found) return tl::unexpected(found.error());
  if (*found == nullptr) return {};  // no sample of it written on this connection yet
  ModuleState& state = **found;
  for (const Pending& p : state.pending) {
    if (auto ok = insert(db, state.id, p.ts_ms, RowKind::kFindingContext, p.data); !ok) return ok;
  }
  if (!state.pending.empty()) {
    state.kept_ms = state.pending.back().ts_ms;
    state.kept_data = std::move(state.pending.back().data);
    state.pending.clear();
  } else if (state.kept_ms) {
    mark_kept_.bind(1, std::optional<std::int64_t>(state.id));
    mark_kept_.bind(2, state.kept_ms);
    mark_kept_.bind(3, std::optional<std::int64_t>(static_cast<std::int64_t>(RowKind::kFindingContext)));
    if (auto ok = run(db, mark_kept_, "marking a finding's row"); !ok) return ok;
  }
  state.keep_next = deadband_.finding_context_rows;
  return {};
}

}  // namespace opticsd
