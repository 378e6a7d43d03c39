#include "daemon/store/history_downsampler.hpp"

#include <string>

namespace opticsd {
namespace {

// Of each module's rows in [from, to), keeps the first of every interval and
// every row kept around a finding (kind 2), which is never thinned.
constexpr std::string_view kThinRows =
    "DELETE FROM module_history WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3 AND kind <> 2 AND ts_ms NOT IN "
    "(SELECT MIN(ts_ms) FROM module_history WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3 "
    "GROUP BY ts_ms / ?4)";

std::int64_t floorTo(std::int64_t t, std::int64_t step) { return t >= 0 ? t / step * step : 0; }

constexpr std::array<std::string_view, 4> kFields{"done_until_ms", "from_ms", "to_ms", "next_module"};

}  // namespace

Result<HistoryDownsampler::Progress> HistoryDownsampler::loadProgress(SqliteDb& db, const std::string& name) {
  Progress p;
  auto st = db.prepare("SELECT value FROM store_progress WHERE name = ?1");
  if (!st) return tl::unexpected(st.error());
  std::int64_t* fields[] = {&p.done_until_ms, &p.from_ms, &p.to_ms, &p.next_module};
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    st->bind(1, std::string_view(name + "/" + std::string(kFields[i])));
    const int rc = st->step();
    if (rc == SQLITE_ROW) *fields[i] = st->columnInt(0).value_or(0);
    st->reset();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return fail(db.error("reading downsampling progress"));
  }
  p.loaded = true;
  return p;
}

Result<void> HistoryDownsampler::saveProgress(SqliteDb& db, const std::string& name, const Progress& p) {
  auto st = db.prepare("INSERT OR REPLACE INTO store_progress (name, value) VALUES (?1, ?2)");
  if (!st) return tl::unexpected(st.error());
  const std::int64_t fields[] = {p.done_until_ms, p.from_ms, p.to_ms, p.next_module};
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    const std::string key = name + "/" + std::string(kFields[i]);
    st->bind(1, std::string_view(key));
    st->bind(2, std::optional<std::int64_t>(fields[i]));
    const int rc = st->step();
    st->reset();
    if (rc != SQLITE_DONE) return fail(db.error("saving downsampling progress"));
  }
  return {};
}

namespace {}  // namespace

HistoryDownsampler::HistoryDownsampler(std::vector<DownsampleTier> tiers)
    : tiers_(std::move(tiers)), progress_(tiers_.size()) {}

Result<HistoryDownsampler::Step> HistoryDownsampler::step(SqliteDb& db, std::int64_t now_ms, std::size_t modules) {
  Step out;
  for (std::size_t t = 0; t < tiers_.size(); ++t) {
    const std::int64_t interval = tiers_[t].interval.count();
    if (interval <= 0) continue;
    Progress& p = progress_[t];
    const std::string name = "downsample/" + std::to_string(tiers_[t].after.count()) + "/" + std::to_string(interval);
    if (!p.loaded) {
      auto loaded = loadProgress(db, name);
      if (!loaded) return tl::unexpected(loaded.error());
      p = *loaded;
    }
    if (p.to_ms == 0) {
      // Whole intervals only, so a bucket is never thinned while it still fills.
      const std::int64_t to = floorTo(now_ms - tiers_[t].after.count(), interval);
      if (to <= p.done_until_ms) continue;
      p.from_ms = p.done_until_ms;
      p.to_ms = to;
      p.next_module = 0;
    }
    auto ids = db.prepare("SELECT id FROM modules WHERE id > ?1 ORDER BY id LIMIT ?2");
    auto thin = db.prepare(kThinRows);
    if (!ids) return tl::unexpected(ids.error());
    if (!thin) return tl::unexpected(thin.error());
    if (auto ok = db.exec("BEGIN IMMEDIATE"); !ok) return tl::unexpected(ok.error());
    ids->bind(1, std::optional<std::int64_t>(p.next_module));
    ids->bind(2, std::optional<std::int64_t>(static_cast<std::int64_t>(modules)));
    std::vector<std::int64_t> batch;
    while (ids->step() == SQLITE_ROW) batch.push_back(ids->columnInt(0).value_or(0));
    std::uint64_t deleted = 0;
    for (const std::int64_t id : batch) {
      thin->bind(1, std::optional<std::int64_t>(id));
      thin->bind(2, std::optional<std::int64_t>(p.from_ms));
      thin->bind(3, std::optional<std::int64_t>(p.to_ms));
      thin->bind(4, std::optional<std::int64_t>(interval));
      const int rc = thin->step();
      thin->reset();
      if (rc != SQLITE_DONE) {
        const std::string error = db.error("thinning old history");
        (void)db.exec("ROLLBACK");
        return fail(error);
      }
      deleted += static_cast<std::uint64_t>(sqlite3_changes64(db.get()));
    }
    Progress next = p;
    if (batch.size() < modules) {
      next.done_until_ms = p.to_ms;  // every module done for this pass
      next.to_ms = 0;
    } else {
      next.next_module = batch.back();
    }
    // Progress commits with the rows it describes: a restart resumes here.
    if (auto ok = saveProgress(db, name, next); !ok) {
      (void)db.exec("ROLLBACK");
      return tl::unexpected(ok.error());
    }
    if (auto ok = db.exec("COMMIT"); !ok) {
      (void)db.exec("ROLLBACK");
      return tl::unexpected(ok.error());
    }
    p = next;
    out.deleted_rows += deleted;
    out.more = true;  // a step was spent here; look again for what is left
    return out;
  }
  return out;
}

}  // namespace opticsd
