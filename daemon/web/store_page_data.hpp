#pragma once
// PageData over the history file alone: what `opticsd explain` reads on a
// host where the daemon's HTTP port is not at hand, and the history half of
// the daemon's own PageData (daemon_page_data.hpp). No live values, no rules
// view: "now" is the last stored row. Each read opens its own read-only
// connection (the daemon's writer is never blocked).

#include <filesystem>
#include <optional>

#include "daemon/web/page_data.hpp"

namespace opticsd::web {

class StorePageData : public PageData {
 public:
  // Unset: storage is off, every history read says so.
  explicit StorePageData(std::optional<std::filesystem::path> history_path) : path_(std::move(history_path)) {}

  std::int64_t nowMs() const override;
  std::vector<TargetState> targets() const override { return {}; }
  std::shared_ptr<const std::vector<Sample>> samples(std::string_view) const override { return nullptr; }
  std::shared_ptr<const TargetRulesView> rules(std::string_view) const override { return nullptr; }
  Result<std::vector<Finding>> findings(const FindingsFilter& filter) const override;
  Result<std::vector<Suspect>> storedSuspects() const override;
  Result<std::optional<Suspect>> storedSuspect(const std::string& target, const std::string& port) const override;
  Result<HistoryResult> history(const HistoryFilter& filter) const override;
  Result<SeriesResult> historySeries(const SeriesRequest& request) const override;
  Result<std::vector<BiasBaseline>> baselines(const std::string& target, const std::string& port) const override;
  Result<std::vector<SerialSighting>> sightings(const std::string& serial) const override;

 private:
  Result<std::filesystem::path> path() const;
  std::optional<std::filesystem::path> path_;
};

}  // namespace opticsd::web
