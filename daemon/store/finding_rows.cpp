#include "daemon/store/finding_rows.hpp"

#include <sqlite3.h>

#include <utility>

#include "drivers/lane_limit.hpp"

namespace opticsd {
namespace {

// Steps a statement to completion; the error names what was being written.
Result<void> run(SqliteDb& db, SqliteStatement& st, std::string_view what) {
  const int rc = st.step();
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
    auto message = db.error(what);
    st.reset();
    return fail(message);
  }
  st.reset();
  return {};
}

// Bound as text even when empty: bind(string_view) binds NULL for "", and
// these columns are NOT NULL.
void bindText(SqliteStatement& st, int index, const std::string& text) {
  sqlite3_bind_text(st.get(), index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

}  // namespace

Result<FindingRows> FindingRows::prepare(SqliteDb& db) {
  FindingRows rows;
  const std::pair<SqliteStatement*, const char*> statements[] = {
      {&rows.upsert_finding_,
       "INSERT INTO findings (target, port, lane, rule, severity, start_ms, end_ms, value, detail) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
       "ON CONFLICT (target, port, lane, rule, start_ms) DO UPDATE SET severity = excluded.severity, "
       "end_ms = excluded.end_ms, value = coalesce(findings.value, excluded.value), "
       "detail = CASE WHEN excluded.end_ms IS NULL THEN excluded.detail ELSE findings.detail END"},
      {&rows.delete_suspects_, "DELETE FROM suspects WHERE target = ?1"},
      {&rows.insert_suspect_,
       "INSERT OR REPLACE INTO suspects (target, port, score, reason, host, nic, gpu, rail, updated_ms) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"},
      {&rows.delete_baseline_, "DELETE FROM bias_baselines WHERE target = ?1 AND port = ?2"},
      {&rows.insert_baseline_,
       "INSERT OR REPLACE INTO bias_baselines (target, port, lane, serial, bias_ma, learned_ms, rx_dbm, tx_dbm) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"},
  };
  for (const auto& [statement, sql] : statements) {
    auto prepared = db.prepare(sql);
    if (!prepared) return tl::unexpected(prepared.error());
    *statement = std::move(*prepared);
  }
  return rows;
}

Result<void> FindingRows::write(SqliteDb& db, const FindingEvent& event) {
  return std::visit(
      [&](const auto& e) -> Result<void> {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Finding>) {
          return writeFinding(db, e);
        } else if constexpr (std::is_same_v<T, SuspectsUpdate>) {
          return writeSuspects(db, e);
        } else if constexpr (std::is_same_v<T, RowsToKeep>) {
          return Result<void>{};  // module_history rows only (SampleRows::keepAroundFinding)
        } else {
          return writeBaseline(db, e);
        }
      },
      event);
}

Result<void> FindingRows::writeFinding(SqliteDb& db, const Finding& f) {
  auto& st = upsert_finding_;
  st.bind(1, f.target);
  st.bind(2, f.port);
  st.bind(3, std::optional<std::int64_t>(f.lane));
  st.bind(4, f.rule);
  st.bind(5, toString(f.severity));
  st.bind(6, std::optional<std::int64_t>(f.start_ms));
  st.bind(7, f.end_ms);
  st.bind(8, f.value);
  bindText(st, 9, f.detail);
  return run(db, st, "writing a finding");
}

Result<void> FindingRows::writeSuspects(SqliteDb& db, const SuspectsUpdate& u) {
  delete_suspects_.bind(1, u.target);
  if (auto ok = run(db, delete_suspects_, "replacing suspects"); !ok) return ok;
  for (const auto& s : u.suspects) {
    auto& st = insert_suspect_;
    st.bind(1, s.target);
    st.bind(2, s.port);
    st.bind(3, std::optional<double>(s.score));
    bindText(st, 4, s.reason);
    st.bind(5, s.endpoint.host);
    st.bind(6, s.endpoint.nic);
    st.bind(7, s.endpoint.gpu);
    st.bind(8, s.endpoint.rail);
    st.bind(9, std::optional<std::int64_t>(s.updated_ms));
    if (auto ok = run(db, st, "writing a suspect"); !ok) return ok;
  }
  return {};
}

Result<void> FindingRows::writeBaseline(SqliteDb& db, const BiasBaseline& b) {
  delete_baseline_.bind(1, b.target);
  delete_baseline_.bind(2, b.port);
  if (auto ok = run(db, delete_baseline_, "replacing a bias baseline"); !ok) return ok;
  for (std::size_t i = 0; i < b.lanes_ma.size(); ++i) {
    if (!(b.lanes_ma[i] > 0)) continue;
    auto& st = insert_baseline_;
    st.bind(1, b.target);
    st.bind(2, b.port);
    st.bind(3, std::optional<std::int64_t>(static_cast<std::int64_t>(i + 1)));
    bindText(st, 4, b.serial);
    st.bind(5, std::optional<double>(b.lanes_ma[i]));
    st.bind(6, std::optional<std::int64_t>(b.learned_ms));
    st.bind(7, i < b.lanes_rx_dbm.size() ? b.lanes_rx_dbm[i] : std::nullopt);  // NULL: no baseline
    st.bind(8, i < b.lanes_tx_dbm.size() ? b.lanes_tx_dbm[i] : std::nullopt);
    if (auto ok = run(db, st, "writing a bias baseline"); !ok) return ok;
  }
  return {};
}

Result<std::vector<BiasBaseline>> readBiasBaselines(SqliteDb& db, const std::string& only_target,
                                                    const std::string& only_port) {
  // One port's rows come through the primary key (target, port, lane); all of them in its order.
  auto st =
      db.prepare(std::string("SELECT target, port, lane, serial, bias_ma, learned_ms, rx_dbm, tx_dbm FROM "
                             "bias_baselines") +
                 (only_target.empty() ? "" : " WHERE target = ?1 AND port = ?2") + " ORDER BY target, port, lane");
  if (!st) return tl::unexpected(st.error());
  if (!only_target.empty()) {
    st->bind(1, std::string_view(only_target));
    st->bind(2, std::string_view(only_port));
  }
  std::vector<BiasBaseline> out;
  for (int rc = st->step(); rc != SQLITE_DONE; rc = st->step()) {
    if (rc != SQLITE_ROW) return fail(db.error("reading bias baselines"));
    const std::string target = st->columnText(0);
    const std::string port = st->columnText(1);
    const auto lane = st->columnInt(2).value_or(0);
    const std::string serial = st->columnText(3);
    if (lane < 1 || lane > kMaxSampleLanes) continue;  // not written by us
    if (out.empty() || out.back().target != target || out.back().port != port || out.back().serial != serial) {
      out.push_back(BiasBaseline{target, port, serial, st->columnInt(5).value_or(0), {}, {}, {}});
    }
    auto& lanes = out.back().lanes_ma;
    if (lanes.size() < static_cast<std::size_t>(lane)) lanes.resize(static_cast<std::size_t>(lane), 0.0);
    lanes[static_cast<std::size_t>(lane - 1)] = st->columnDouble(4).value_or(0);
    for (auto [column, power] :
         {std::pair{6, &BiasBaseline::lanes_rx_dbm}, std::pair{7, &BiasBaseline::lanes_tx_dbm}}) {
      auto& v = out.back().*power;
      if (v.size() < static_cast<std::size_t>(lane)) v.resize(static_cast<std::size_t>(lane));
      v[static_cast<std::size_t>(lane - 1)] = st->columnDouble(column);
    }
  }
  return out;
}

}  // namespace opticsd
