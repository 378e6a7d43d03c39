#include "daemon/backtest/stored_history.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <unordered_map>

#include "daemon/store/finding_rows.hpp"
#include "daemon/store/findings_history.hpp"
#include "daemon/store/legacy_history.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/store/threshold_rows.hpp"
#include "drivers/measurement.hpp"
#include "drivers/plausibility.hpp"
#include "drivers/prefetch.hpp"

namespace opticsd {
namespace {

// Rows are gathered a slice of time at a time over every module, through the
// primary key, and sorted: a fleet's month never sits in memory at once.
constexpr std::int64_t kSliceMs = 6 * 3600 * 1000;

template <typename Enum>
Enum enumFromText(std::string_view text, std::initializer_list<Enum> values) {
  for (Enum v : values) {
    if (toString(v) == text) return v;
  }
  return Enum{};
}

std::string_view blobOf(const SqliteStatement& st, int column) {
  const void* data = sqlite3_column_blob(st.get(), column);
  const int size = sqlite3_column_bytes(st.get(), column);
  return data == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(data), size);
}

// A copy of an older file, migrated and converted to the current layout.
Result<std::filesystem::path> migrateIntoCopy(SqliteDb& source, const std::filesystem::path& path) {
  std::error_code ec;
  const auto copy = std::filesystem::temp_directory_path(ec) /
                    ("opticsd-backtest-" + std::to_string(::getpid()) + "-" + path.filename().string());
  std::filesystem::remove(copy, ec);
  auto st = source.prepare("VACUUM INTO ?1");
  if (!st) return tl::unexpected(st.error());
  st->bind(1, std::string_view(copy.string()));
  if (st->step() != SQLITE_DONE) return fail(source.error("copying " + path.string() + " to migrate it"));
  auto db = SqliteDb::open(copy.string(), SQLITE_OPEN_READWRITE);
  if (!db) return tl::unexpected(db.error());
  if (auto v = migrate(*db); !v) return tl::unexpected(v.error());
  auto codes = MetricCodes::load(*db, true);
  if (!codes) return tl::unexpected(codes.error());
  if (auto n = convertLegacyHistory(*db, *codes, [](std::string_view) {}); !n) return tl::unexpected(n.error());
  return copy;
}

}  // namespace

Result<std::unique_ptr<StoredHistory>> StoredHistory::open(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return fail("history database " + path.string() + " does not exist");
  auto db = SqliteDb::open(path.string(), SQLITE_OPEN_READONLY);
  if (!db) return tl::unexpected(db.error());
  sqlite3_busy_timeout(db->get(), 5000);
  auto version = readSchemaVersion(*db);
  if (!version) return fail(path.string() + " is not a readable opticsd history database: " + version.error().message);
  if (*version == 0) return fail(path.string() + " is not an opticsd history database (no schema_version table)");
  if (*version > latestSchemaVersion()) {
    return fail(path.string() + " has schema version " + std::to_string(*version) +
                ", newer than this opticsd knows (" + std::to_string(latestSchemaVersion()) + ")");
  }
  std::unique_ptr<StoredHistory> h(new StoredHistory());
  h->schema_version_ = *version;
  h->path_ = path;
  if (*version < latestSchemaVersion()) {
    auto copy = migrateIntoCopy(*db, path);
    if (!copy) return fail("migrating a copy of " + path.string() + ": " + copy.error().message);
    h->copy_ = *copy;
    h->path_ = *copy;
    db = SqliteDb::open(copy->string(), SQLITE_OPEN_READONLY);
    if (!db) return tl::unexpected(db.error());
  }
  h->db_ = std::move(*db);
  // Read through a memory map where SQLite allows one: every page is read
  // once, and a copy per page read (pread) is a tenth of a replay's time.
  (void)h->db_.exec("PRAGMA mmap_size = 8589934592");
  if (auto ok = h->load(); !ok) return tl::unexpected(ok.error());
  return h;
}

StoredHistory::~StoredHistory() {
  db_ = SqliteDb();
  if (!copy_.empty()) {
    std::error_code ec;
    std::filesystem::remove(copy_, ec);
  }
}

Result<void> StoredHistory::load() {
  auto codes = MetricCodes::load(db_, false);
  if (!codes) return tl::unexpected(codes.error());
  {
    auto st = db_.prepare("SELECT max(code) FROM metric_codes");
    if (!st) return tl::unexpected(st.error());
    const std::int64_t max_code = st->step() == SQLITE_ROW ? st->columnInt(0).value_or(0) : 0;
    slots_.assign(static_cast<std::size_t>(max_code) + 1, Slot{});
  }
  for (std::uint32_t code = 1; code < slots_.size(); ++code) {
    const std::string_view key = codes->key(code);
    Slot& s = slots_[code];
    s.codec = codes->codec(code);
    for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
      if (kModuleMetricInfo[i].key == key) s.module_metric = static_cast<ModuleMetric>(i);
    }
    for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
      if (kLaneMetricInfo[i].key == key) s.lane_metric = static_cast<LaneMetric>(i);
    }
    if (s.module_metric || s.lane_metric) s.kind = Slot::kMetric;
    if (s.kind == Slot::kMetric && s.codec.kind == ValueKind::kLog10) {
      // Down to 1e-20, below any BER a module reports.
      const auto steps = static_cast<std::size_t>(20 * s.codec.steps_per_unit) + 1;
      s.log10_decoded.resize(steps);
      for (std::size_t i = 0; i < steps; ++i) s.log10_decoded[i] = s.codec.decode(-static_cast<std::int64_t>(i));
    }
    for (std::size_t i = 0; i < kLaneFlagInfo.size(); ++i) {
      if (kLaneFlagInfo[i].key == key) {
        s.kind = Slot::kLaneFlag;
        s.flag = i;
      }
    }
    static constexpr std::array<std::pair<std::string_view, Slot::Kind>, 8> kColumns{{
        {"present", Slot::kPresent},
        {"data_path_state", Slot::kDataPathState},
        {"fec_corrected_blocks_total", Slot::kCorrectedBlocks},
        {"fec_uncorrectable_blocks_total", Slot::kUncorrectable},
        {"fec_corrected_bits_total", Slot::kCorrectedBits},
        {"link_up", Slot::kLinkUp},
        {"link_down_events_total", Slot::kLinkDownEvents},
        {"link_speed_gbps", Slot::kLinkSpeed},
    }};
    for (const auto& [name, kind] : kColumns) {
      if (name == key) s.kind = kind;
    }
  }
  auto mods = db_.prepare("SELECT id, target, port FROM modules ORDER BY id");
  if (!mods) return tl::unexpected(mods.error());
  while (mods->step() == SQLITE_ROW) {
    modules_.push_back({mods->columnInt(0).value_or(0), mods->columnText(1), mods->columnText(2)});
  }
  {
    std::vector<std::string_view> names;
    for (const auto& m : modules_) names.push_back(m.target);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto& m : modules_) {
      target_index_.push_back(
          static_cast<std::uint32_t>(std::lower_bound(names.begin(), names.end(), m.target) - names.begin()));
    }
  }
  identities_.resize(modules_.size());
  auto ids = db_.prepare("SELECT module_id, first_seen_ms, " + identityColumns() +
                         " FROM module_identities ORDER BY module_id, first_seen_ms");
  if (!ids) return tl::unexpected(ids.error());
  while (ids->step() == SQLITE_ROW) {
    const auto index = moduleIndex(ids->columnInt(0).value_or(0));
    if (!index) continue;
    Identity identity;
    identity.first_seen_ms = ids->columnInt(1).value_or(0);
    ModuleIdentity& m = identity.identity.mutate();
    int col = 2;
    for (const auto& field : kIdentityTextInfo) {
      const std::string text = ids->columnText(col++);
      if (field.key == "family") {
        m.family = enumFromText(text, {ModuleFamily::kSff8472, ModuleFamily::kSff8636, ModuleFamily::kCmis});
      } else if (field.key == "modulation") {
        m.modulation = enumFromText(text, {Modulation::kNrz, Modulation::kPam4});
      } else if (field.key == "form_factor") {
        m.form_factor = text;
      } else if (field.key == "media") {
        m.media = text;
      } else if (field.key == "vendor") {
        m.vendor = text;
      } else if (field.key == "part_number") {
        m.part_number = text;
      } else if (field.key == "serial") {
        m.serial = text;
      }
    }
    for (const auto& field : kIdentityNumberInfo) m.*field.member = ids->columnDouble(col++);
    identities_[*index].push_back(std::move(identity));
  }
  thresholds_.resize(modules_.size());
  auto limits =
      db_.prepare("SELECT module_id, first_seen_ms, data FROM module_thresholds ORDER BY module_id, first_seen_ms");
  if (!limits) return tl::unexpected(limits.error());
  // Modules of one part number mostly advertise one table: equal rows share
  // one table, held once, so a replay reading every module's limits on every
  // row finds a fleet's few tables in cache rather than one per module.
  std::unordered_map<std::string, ThresholdTable> interned;
  while (limits->step() == SQLITE_ROW) {
    const auto index = moduleIndex(limits->columnInt(0).value_or(0));
    if (!index) continue;
    const std::string_view data = blobOf(*limits, 2);
    auto [it, fresh] = interned.try_emplace(std::string(data));
    if (fresh) {
      auto table = unpackThresholds(data, *codes);
      if (!table) {
        return fail("module_thresholds row of " + modules_[*index].target + " " + modules_[*index].port + ": " +
                    table.error().message);
      }
      it->second.table.mutate() = std::move(*table);
      // Tested once here, not on every row that carries it: a table is the same on each.
      Sample probe;
      probe.shared_thresholds = it->second.table;
      it->second.plausible = dropImplausibleThresholds(probe) == 0;
    }
    ThresholdTable t = it->second;
    t.first_seen_ms = limits->columnInt(1).value_or(0);
    thresholds_[*index].push_back(std::move(t));
  }
  auto span = db_.prepare("SELECT min(ts_ms), max(ts_ms) FROM module_history");
  if (!span) return tl::unexpected(span.error());
  if (span->step() == SQLITE_ROW && span->columnInt(0)) {
    span_ = std::pair{*span->columnInt(0), span->columnInt(1).value_or(0)};
  }
  return {};
}

std::optional<std::size_t> StoredHistory::moduleIndex(std::int64_t id) const {
  const auto it = std::lower_bound(modules_.begin(), modules_.end(), id,
                                   [](const StoredModule& m, std::int64_t v) { return m.id < v; });
  if (it == modules_.end() || it->id != id) return std::nullopt;
  return static_cast<std::size_t>(it - modules_.begin());
}

const StoredHistory::Identity* StoredHistory::identityAt(std::uint32_t module, std::int64_t ts) const {
  const auto& list = identities_[module];
  if (list.empty()) return nullptr;
  auto it = std::upper_bound(list.begin(), list.end(), ts,
                             [](std::int64_t t, const Identity& i) { return t < i.first_seen_ms; });
  return it == list.begin() ? &list.front() : &*std::prev(it);
}

void StoredHistory::prefetchLists(std::uint32_t module) const {
  prefetchBytes(identities_[module].data(), identities_[module].size() * sizeof(Identity));
  prefetchBytes(thresholds_[module].data(), thresholds_[module].size() * sizeof(ThresholdTable));
}

void StoredHistory::prefetchIdentity(std::uint32_t module) const {
  // Most modules have one identity: the last is the one asked for.
  if (!identities_[module].empty()) prefetchBytes(&*identities_[module].back().identity, sizeof(ModuleIdentity));
}

const StoredHistory::ThresholdTable* StoredHistory::thresholdsAt(std::uint32_t module, std::int64_t ts,
                                                                 std::int64_t since_ms) const {
  const auto& list = thresholds_[module];
  auto it = std::upper_bound(list.begin(), list.end(), ts,
                             [](std::int64_t t, const ThresholdTable& x) { return t < x.first_seen_ms; });
  if (it == list.begin()) return nullptr;
  --it;
  // A table recorded for the module that was in the port before this one is not its.
  return it->first_seen_ms >= since_ms ? &*it : nullptr;
}

Result<PollPreparation::Checked> StoredHistory::rebuild(std::uint32_t module, std::int64_t ts, std::string_view data,
                                                        Sample& s) const {
  // Reset what the previous row left, keeping the buffers.
  s.target = modules_[module].target;
  s.port = modules_[module].port;
  s.timestamp_ms = ts;
  s.module_present = true;
  s.module = ModuleValues{};
  s.fec = FecCounters{};
  s.link = LinkState{};
  s.issues.clear();
  s.module_flags = {};
  const Identity* id = identityAt(module, ts);
  s.shared_identity = id != nullptr ? id->identity : CopyOnWrite<ModuleIdentity>{};
  const auto* limits = thresholdsAt(module, ts, id != nullptr ? id->first_seen_ms : 0);
  s.shared_thresholds = limits != nullptr ? limits->table : CopyOnWrite<ModuleThresholds>{};
  PollPreparation::Checked checked;
  checked.thresholds_plausible = limits == nullptr || limits->plausible;  // no table: no limit to drop
  bool readings_plausible = true;
  // The previous row's Lanes are reused in place (their metric arrays keep
  // their blocks: a lane of more metrics than fit inline allocates once, not
  // every row), reset as new; the ones this row does not fill go at the end.
  std::size_t lanes_used = 0;
  std::array<int, 65> lane_at{};
  lane_at.fill(-1);
  const auto lane = [&](int n) __attribute__((always_inline))->Lane& {
    if (lane_at[static_cast<std::size_t>(n)] < 0) {
      lane_at[static_cast<std::size_t>(n)] = static_cast<int>(lanes_used);
      if (lanes_used == s.lanes.size()) s.lanes.emplace_back();
      Lane& l = s.lanes[lanes_used++];
      l.number = static_cast<std::uint16_t>(n);
      l.values.clear();
      l.flags.clear();
      l.status = LaneStatus{};
    }
    return s.lanes[static_cast<std::size_t>(lane_at[static_cast<std::size_t>(n)])];
  };
  // Each value straight into the Sample, no list of them in between.
  auto read = visitPacked(
      data, [&](const PackedValue& v) __attribute__((always_inline)) {
        if (v.code >= slots_.size()) return;  // a key of a newer opticsd
        const Slot& slot = slots_[v.code];
        if (slot.kind == Slot::kUnknown) return;  // a key no Sample field holds
        // Decoded only where a value is kept as one (a BER's decode is a pow()).
        const auto value = [&] { return slot.decode(v.stored); };
        const auto count = [&] { return static_cast<std::uint64_t>(std::max<std::int64_t>(0, v.stored)); };
        switch (slot.kind) {
          case Slot::kUnknown:
            break;
          case Slot::kPresent:
            s.module_present = v.stored != 0;
            break;
          case Slot::kMetric:
            if (v.lane == 0 && slot.module_metric) {
              const double x = value();
              readings_plausible =
                  readings_plausible && plausible(x, kModuleMetricInfo[static_cast<std::size_t>(*slot.module_metric)]);
              s.module.set(*slot.module_metric, x);
            } else if (v.lane > 0 && slot.lane_metric) {
              const double x = value();
              readings_plausible =
                  readings_plausible && plausible(x, kLaneMetricInfo[static_cast<std::size_t>(*slot.lane_metric)]);
              lane(v.lane).values.set(*slot.lane_metric, x);
            }
            break;
          case Slot::kLaneFlag:
            if (v.lane > 0) lane(v.lane).status.*kLaneFlagInfo[slot.flag].member = v.stored != 0;
            break;
          case Slot::kDataPathState:
            if (v.lane > 0) lane(v.lane).status.data_path_state = static_cast<std::uint8_t>(v.stored);
            break;
          case Slot::kCorrectedBlocks:
            s.fec.corrected_blocks_total = count();
            break;
          case Slot::kUncorrectable:
            s.fec.uncorrectable_blocks_total = count();
            break;
          case Slot::kCorrectedBits:
            s.fec.corrected_bits_total = count();
            break;
          case Slot::kLinkUp:
            s.link.up = v.stored != 0;
            break;
          case Slot::kLinkDownEvents:
            s.link.down_events_total = count();
            break;
          case Slot::kLinkSpeed:
            s.link.speed_gbps = value();
            break;
        }
      });
  if (!read) return tl::unexpected(read.error());
  s.lanes.resize(lanes_used);
  // Lanes arrive in order (the first lane key lists them all): sort only what did not.
  const auto by_number = [](const Lane& a, const Lane& b) { return a.number < b.number; };
  if (!std::is_sorted(s.lanes.begin(), s.lanes.end(), by_number)) std::sort(s.lanes.begin(), s.lanes.end(), by_number);
  // Every reading was set above and tested as it was (none is left from the previous row).
  checked.readings_plausible = readings_plausible;
  return checked;
}

void StoredHistory::resizePoll(StoredPoll& poll, std::size_t n) {
  while (poll.samples.size() > n) {
    spare_.push_back(std::move(poll.samples.back()));
    poll.samples.pop_back();
  }
  while (poll.samples.size() < n) {
    if (spare_.empty()) {
      poll.samples.emplace_back();
    } else {
      poll.samples.push_back(std::move(spare_.back()));
      spare_.pop_back();
    }
  }
}

Result<void> StoredHistory::forEachPoll(std::int64_t since_ms, std::int64_t until_ms,
                                        const std::function<void(StoredPoll&)>& visit) {
  if (!span_) return {};
  auto st = db_.prepare(
      "SELECT ts_ms, kind, data FROM module_history WHERE module_id = ?1 AND ts_ms >= ?2 AND ts_ms < ?3 "
      "ORDER BY ts_ms");
  if (!st) return tl::unexpected(st.error());
  struct Raw {
    std::int64_t ts;
    std::uint32_t target;  // target_index_
    std::uint32_t module;
    std::uint8_t kind;
    std::size_t offset, size;  // in `blobs`
  };
  std::vector<Raw> slice;
  std::string blobs;  // every row's data of the slice, end to end
  StoredPoll poll;
  // One read transaction for the whole walk: a lock taken once, not per query.
  if (auto ok = db_.exec("BEGIN"); !ok) return ok;
  struct EndRead {
    SqliteDb& db;
    ~EndRead() { (void)db.exec("COMMIT"); }
  } end_read{db_};
  const std::int64_t from = std::max(since_ms, span_->first);
  const std::int64_t to = std::min(until_ms, span_->second + 1);
  for (std::int64_t start = from; start < to; start += kSliceMs) {
    const std::int64_t end = std::min(to, start + kSliceMs);
    slice.clear();
    blobs.clear();
    for (std::uint32_t m = 0; m < modules_.size(); ++m) {
      st->bind(1, std::optional<std::int64_t>(modules_[m].id));
      st->bind(2, std::optional<std::int64_t>(start));
      st->bind(3, std::optional<std::int64_t>(end));
      int rc = SQLITE_ROW;
      while ((rc = st->step()) == SQLITE_ROW) {
        const std::string_view blob = blobOf(*st, 2);
        slice.push_back({st->columnInt(0).value_or(0), target_index_[m], m,
                         static_cast<std::uint8_t>(st->columnInt(1).value_or(0)), blobs.size(), blob.size()});
        blobs.append(blob);
      }
      st->reset();
      if (rc != SQLITE_DONE) return fail(db_.error("reading module_history"));
    }
    std::sort(slice.begin(), slice.end(), [](const Raw& a, const Raw& b) {
      return std::tie(a.ts, a.target, a.module) < std::tie(b.ts, b.target, b.module);
    });
    for (std::size_t i = 0; i < slice.size();) {
      std::size_t j = i + 1;
      while (j < slice.size() && slice[j].ts == slice[i].ts && slice[j].target == slice[i].target) ++j;
      resizePoll(poll, j - i);
      poll.target = &modules_[slice[i].module].target;
      poll.ts = slice[i].ts;
      poll.modules.clear();
      poll.kinds.clear();
      poll.checked.clear();
      for (std::size_t k = i; k < j; ++k) {
        const Raw& raw = slice[k];
        // The slice's rows sit module by module, read time by time: the row
        // after next asked for now (drivers/prefetch.hpp).
        if (k + 2 < slice.size()) {
          prefetchBytes(blobs.data() + slice[k + 2].offset, slice[k + 2].size);
          prefetchLists(slice[k + 2].module);
        }
        if (k + 1 < slice.size()) prefetchIdentity(slice[k + 1].module);
        auto checked =
            rebuild(raw.module, raw.ts, std::string_view(blobs).substr(raw.offset, raw.size), poll.samples[k - i]);
        if (!checked) {
          return fail("module_history row of " + modules_[raw.module].target + " " + modules_[raw.module].port +
                      " at " + std::to_string(raw.ts) + ": " + checked.error().message);
        }
        poll.modules.push_back(raw.module);
        poll.kinds.push_back(static_cast<RowKind>(raw.kind));
        poll.checked.push_back(*checked);
      }
      visit(poll);
      i = j;
    }
  }
  return {};
}

Result<std::vector<Finding>> StoredHistory::recordedFindings(std::int64_t since_ms, std::int64_t until_ms) {
  FindingsFilter filter;
  filter.since_ms = since_ms;
  auto all = loadFindings(path_, filter);
  if (!all) return tl::unexpected(all.error());
  std::erase_if(*all, [&](const Finding& f) { return f.start_ms < since_ms || f.start_ms >= until_ms; });
  return all;
}

Result<std::vector<BiasBaseline>> StoredHistory::baselines() { return readBiasBaselines(db_); }

}  // namespace opticsd
