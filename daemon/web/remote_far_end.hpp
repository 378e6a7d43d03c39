#pragma once
// The far end of a link served by another opticsd instance (`instances:`):
// links to its page there and shows its last values, fetched from that
// instance's JSON for the optic (bounded by a short timeout, and kept for a
// few seconds so a page refreshed every second does not hammer the other
// instance). An unreachable instance is said on the page, never an error.
// Used by the optic's page and by `opticsd explain`.
//
// Thread-safety: resolve() may run on several HTTP threads at once, and
// setInstances() (a reload) beside them.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "daemon/web/http_fetch.hpp"
#include "daemon/web/instances_config.hpp"
#include "daemon/web/optic_story.hpp"

namespace opticsd::web {

class RemoteFarEnd : public FarEndResolver {
 public:
  explicit RemoteFarEnd(InstancesConfig instances, FetchOptions fetch = {},
                        std::chrono::milliseconds keep = std::chrono::seconds(10))
      : instances_(std::make_shared<const InstancesConfig>(std::move(instances))),
        fetch_(std::move(fetch)),
        keep_(keep) {}

  void resolve(FarEnd& far_end, const OpticStory& near) const override;
  // A reload's `instances:`; what was fetched with the old list is dropped.
  void setInstances(InstancesConfig instances);

 private:
  Result<std::string> fetchCached(const std::string& url, const FetchOptions& options) const;

  std::shared_ptr<const InstancesConfig> instances_;  // replaced whole under mutex_
  FetchOptions fetch_;
  std::chrono::milliseconds keep_;
  struct Cached {
    std::chrono::steady_clock::time_point at;
    Result<std::string> body;
  };
  mutable std::mutex mutex_;
  mutable std::map<std::string, Cached> cache_;
};

// Fills the far end's values from the JSON of its optic page (page_json.hpp);
// false with `error` set when the document is not one.
bool fillFromOpticJson(FarEnd& far_end, const OpticStory& near, const std::string& json, std::string& error);

}  // namespace opticsd::web
