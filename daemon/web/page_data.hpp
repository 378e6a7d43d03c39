#pragma once
// What the operator's pages read, and nothing else: a small read-only seam,
// so the pages do not depend on how polls are fed to the exporter, rules and
// store (the daemon's implementation is daemon_page_data.hpp; the CLI's, over
// the history file alone, is store_page_data.hpp; tests use their own).
//
// Every history read may fail (no store, a locked or broken file): the
// Result says why and the pages show the live values with that reason.
//
// Thread-safety: implementations are called from HTTP threads, several at
// once; they must not block the polling thread or the store's writer.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/rules/bias_baseline.hpp"
#include "daemon/rules/finding.hpp"
#include "daemon/rules/rules_view.hpp"
#include "daemon/rules/suspect.hpp"
#include "daemon/store/findings_history.hpp"
#include "daemon/store/history_buckets.hpp"
#include "daemon/store/history_query.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"

namespace opticsd::web {

struct TargetState {
  std::string name;
  std::string driver;
  std::optional<std::int64_t> last_success_ms;  // start of the last good poll
  bool stale = false;                           // showing kept values of an earlier poll
  std::size_t modules = 0;                      // ports with a module in what is served
  bool has_samples = false;                     // something is served for it
};

class PageData {
 public:
  virtual ~PageData() = default;

  virtual std::int64_t nowMs() const = 0;
  // Every target this instance polls, by name.
  virtual std::vector<TargetState> targets() const = 0;
  // One of them (nullopt: not polled here); a data source with many targets answers it without listing all.
  virtual std::optional<TargetState> target(std::string_view name) const {
    for (auto& t : targets()) {
      if (t.name == name) return std::move(t);
    }
    return std::nullopt;
  }
  // The latest Samples of a target (null: none).
  virtual std::shared_ptr<const std::vector<Sample>> samples(std::string_view target) const = 0;
  // The rules engine's published view of a target (null: none).
  virtual std::shared_ptr<const TargetRulesView> rules(std::string_view target) const = 0;

  // History (the store's read side). "history is off" and the like are Errors.
  virtual Result<std::vector<Finding>> findings(const FindingsFilter& filter) const = 0;
  virtual Result<std::vector<Suspect>> storedSuspects() const = 0;
  // One port's stored suspect (nullopt: none); a store looks it up by its key.
  virtual Result<std::optional<Suspect>> storedSuspect(const std::string& target, const std::string& port) const {
    auto all = storedSuspects();
    if (!all) return tl::unexpected(all.error());
    for (auto& s : *all) {
      if (s.target == target && s.port == port) return std::optional<Suspect>(std::move(s));
    }
    return std::optional<Suspect>();
  }
  virtual Result<HistoryResult> history(const HistoryFilter& filter) const = 0;
  // What the plots read: the requested keys only, min/max/last per time
  // bucket. By default bucketed from history(); a store reads it directly.
  virtual Result<SeriesResult> historySeries(const SeriesRequest& request) const {
    HistoryFilter filter;
    filter.target = request.target;
    filter.port = request.port;
    filter.since_ms = request.since_ms;
    filter.until_ms = request.until_ms;
    auto rows = history(filter);
    if (!rows) return tl::unexpected(rows.error());
    return seriesFromRows(*rows, request);
  }
  virtual Result<std::vector<BiasBaseline>> baselines(const std::string& target, const std::string& port) const = 0;
  virtual Result<std::vector<SerialSighting>> sightings(const std::string& serial) const = 0;
  // Why history may be incomplete while reads work (the writer is failing), or empty.
  virtual std::string historyWarning() const { return {}; }
};

// Finds a port's Sample in a target's Samples (null when absent).
const Sample* findPort(const std::vector<Sample>& samples, std::string_view port);
// Finds a port's row in a rules view (null when absent).
const TargetRulesView::PortRow* findPortRow(const TargetRulesView& view, std::string_view port);

}  // namespace opticsd::web
