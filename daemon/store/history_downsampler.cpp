#include "daemon/store/history_downsampler.hpp"

#include <string>

namespace opticsd {
namespace {

// Of each module's rows in [from, to), keeps the first of every interval.
constexpr std::string_view kThinModuleRows =
    "DELETE FROM module_samples WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3 AND rowid NOT IN "
    "(SELECT MIN(rowid) FROM module_samples WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3 "
    "GROUP BY ts_ms / ?4)";
// A lane row goes with its module row (same module, same timestamp).
constexpr std::string_view kThinLaneRows =
    "DELETE FROM lane_samples WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3 AND ts_ms NOT IN "
    "(SELECT ts_ms FROM module_samples WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3)";

std::int64_t floorTo(std::int64_t t, std::int64_t step) { return t >= 0 ? t / step * step : 0; }

}  // namespace

HistoryDownsampler::HistoryDownsampler(std::vector<DownsampleTier> tiers)
    : tiers_(std::move(tiers)), progress_(tiers_.size()) {}

Result<HistoryDownsampler::Step> HistoryDownsampler::step(SqliteDb& db, std::int64_t now_ms, std::size_t modules) {
  Step out;
  for (std::size_t t = 0; t < tiers_.size(); ++t) {
    const std::int64_t interval = tiers_[t].interval.count();
    if (interval <= 0) continue;
    Progress& p = progress_[t];
    if (p.to_ms == 0) {
      // Whole intervals only, so a bucket is never thinned while it still fills.
      const std::int64_t to = floorTo(now_ms - tiers_[t].after.count(), interval);
      if (to <= p.done_until_ms) continue;
      p.from_ms = p.done_until_ms;
      p.to_ms = to;
      p.next_module = 0;
    }
    auto ids = db.prepare("SELECT id FROM modules WHERE id > ?1 ORDER BY id LIMIT ?2");
    auto thin_modules = db.prepare(kThinModuleRows);
    auto thin_lanes = db.prepare(kThinLaneRows);
    if (!ids) return tl::unexpected(ids.error());
    if (!thin_modules) return tl::unexpected(thin_modules.error());
    if (!thin_lanes) return tl::unexpected(thin_lanes.error());
    if (auto ok = db.exec("BEGIN IMMEDIATE"); !ok) return tl::unexpected(ok.error());
    ids->bind(1, std::optional<std::int64_t>(p.next_module));
    ids->bind(2, std::optional<std::int64_t>(static_cast<std::int64_t>(modules)));
    std::vector<std::int64_t> batch;
    while (ids->step() == SQLITE_ROW) batch.push_back(ids->columnInt(0).value_or(0));
    for (const std::int64_t id : batch) {
      for (SqliteStatement* stmt : {&*thin_modules, &*thin_lanes}) {
        stmt->bind(1, std::optional<std::int64_t>(id));
        stmt->bind(2, std::optional<std::int64_t>(p.from_ms));
        stmt->bind(3, std::optional<std::int64_t>(p.to_ms));
        if (stmt == &*thin_modules) stmt->bind(4, std::optional<std::int64_t>(interval));
        const int rc = stmt->step();
        stmt->reset();
        if (rc != SQLITE_DONE) {
          const std::string error = db.error("thinning old history");
          (void)db.exec("ROLLBACK");
          return fail(error);
        }
        out.deleted_rows += static_cast<std::uint64_t>(sqlite3_changes64(db.get()));
      }
    }
    if (auto ok = db.exec("COMMIT"); !ok) {
      (void)db.exec("ROLLBACK");
      return tl::unexpected(ok.error());
    }
    if (batch.size() < modules) {
      p.done_until_ms = p.to_ms;  // every module done for this pass
      p.to_ms = 0;
    } else {
      p.next_module = batch.back();
    }
    out.more = true;  // a step was spent here; look again for what is left
    return out;
  }
  return out;
}

}  // namespace opticsd
