#pragma once
// The running daemon's PageData: live values from the exporter's
// LatestSamples and TargetFreshness, the rules engine's RulesView, and the
// history file through the store's read API (its own read-only connection
// per call: WAL readers never block the writer or a scrape).
//
// Ownership: the samples and freshness belong to the MetricsExporter whose
// server calls the pages (it stops serving before they go); the rules view is
// shared. Thread-safety: every method may run on any thread.

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>

#include "daemon/exporter/latest_samples.hpp"
#include "daemon/exporter/target_freshness.hpp"
#include "daemon/web/store_page_data.hpp"

namespace opticsd::web {

class DaemonPageData : public StorePageData {
 public:
  struct Sources {
    const LatestSamples* samples = nullptr;
    const TargetFreshness* freshness = nullptr;
    std::shared_ptr<const RulesView> rules;  // null: no rules engine
    // The history file; unset: storage is off.
    std::optional<std::filesystem::path> history_path;
  };
  explicit DaemonPageData(Sources sources) : StorePageData(sources.history_path), sources_(std::move(sources)) {}

  // The targets the daemon polls, name and driver (set at start and on a reload).
  void setTargets(std::vector<std::pair<std::string, std::string>> targets);
  // What is wrong with the history writer now (empty: nothing), from the daemon's housekeeping.
  void setStoreProblem(std::string problem);

  std::vector<TargetState> targets() const override;
  std::optional<TargetState> target(std::string_view name) const override;
  std::shared_ptr<const std::vector<Sample>> samples(std::string_view target) const override;
  std::shared_ptr<const TargetRulesView> rules(std::string_view target) const override;
  std::string historyWarning() const override;

 private:
  TargetState state(const std::string& name, const std::string& driver, const LatestSamples::Snapshot& snapshot) const;
  Sources sources_;
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, std::string>> targets_;
  std::string store_problem_;
};

}  // namespace opticsd::web
