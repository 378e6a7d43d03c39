#include "daemon/web/store_page_data.hpp"

#include <chrono>

namespace opticsd::web {

std::int64_t StorePageData::nowMs() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<std::filesystem::path> StorePageData::path() const {
  if (!path_) return fail("history is off (storage.enabled: false)");
  return *path_;
}

Result<std::vector<Finding>> StorePageData::findings(const FindingsFilter& filter) const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  return loadFindings(*p, filter);
}

Result<std::vector<Suspect>> StorePageData::storedSuspects() const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  return loadSuspects(*p);
}

Result<std::optional<Suspect>> StorePageData::storedSuspect(const std::string& target, const std::string& port) const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  return loadSuspect(*p, target, port);
}

Result<HistoryResult> StorePageData::history(const HistoryFilter& filter) const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  auto query = HistoryQuery::open(p->string());
  if (!query) return tl::unexpected(query.error());
  return query->query(filter);
}

Result<SeriesResult> StorePageData::historySeries(const SeriesRequest& request) const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  auto query = HistoryQuery::open(p->string());
  if (!query) return tl::unexpected(query.error());
  return query->series(request);
}

Result<std::vector<BiasBaseline>> StorePageData::baselines(const std::string& target, const std::string& port) const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  return loadBaselines(*p, target, port);
}

Result<std::vector<SerialSighting>> StorePageData::sightings(const std::string& serial) const {
  auto p = path();
  if (!p) return tl::unexpected(p.error());
  return loadSerialSightings(*p, serial);
}

}  // namespace opticsd::web
