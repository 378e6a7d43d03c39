#include "daemon/web/remote_far_end.hpp"

#include <nlohmann/json.hpp>

namespace opticsd::web {
namespace {

constexpr std::size_t kMaxCached = 1024;

std::optional<double> numberAt(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return std::nullopt;
  const auto v = it->find("value");
  if (v == it->end() || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

}  // namespace

bool fillFromOpticJson(FarEnd& far, const OpticStory& near, const std::string& text, std::string& error) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("lanes") || !j["lanes"].is_array()) {
    error = "its answer is not an opticsd optic document";
    return false;
  }
  if (const auto s = j.find("score"); s != j.end() && s->is_number()) far.their_score = s->get<double>();
  std::map<int, std::pair<std::optional<double>, std::optional<double>>> theirs;  // lane: tx, rx
  for (const auto& lane : j["lanes"]) {
    if (!lane.is_object() || !lane.contains("lane") || !lane["lane"].is_number_integer()) continue;
    theirs[lane["lane"].get<int>()] = {numberAt(lane, "tx_power_dbm"), numberAt(lane, "rx_power_dbm")};
  }
  far.lanes.clear();
  for (const auto& our : near.lanes) {
    FarEnd::LanePair pair;
    pair.lane = our.lane;
    pair.our_rx_dbm = our.rx_power_dbm.value;
    pair.our_tx_dbm = our.tx_power_dbm.value;
    if (auto it = theirs.find(our.lane); it != theirs.end()) {
      pair.their_tx_dbm = it->second.first;
      pair.their_rx_dbm = it->second.second;
    }
    far.lanes.push_back(pair);
  }
  return true;
}

Result<std::string> RemoteFarEnd::fetchCached(const std::string& url, const FetchOptions& options) const {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(url); it != cache_.end() && now - it->second.at < keep_) return it->second.body;
  }
  auto body = httpGet(url, options);
  std::lock_guard lock(mutex_);
  if (cache_.size() >= kMaxCached) cache_.clear();
  cache_[url] = Cached{now, body};
  return body;
}

void RemoteFarEnd::setInstances(InstancesConfig instances) {
  auto next = std::make_shared<const InstancesConfig>(std::move(instances));
  std::lock_guard lock(mutex_);
  instances_ = std::move(next);
  cache_.clear();
}

void RemoteFarEnd::resolve(FarEnd& far, const OpticStory& near) const {
  std::shared_ptr<const InstancesConfig> instances;
  {
    std::lock_guard lock(mutex_);
    instances = instances_;
  }
  far.where = "not polled by this instance";
  if (instances->entries.empty()) {
    far.error = "no instance is configured for it (instances: in the config)";
    return;
  }
  const auto match = instances->find(far.target);
  if (!match) {
    far.error = "no entry of instances: in the config names " + far.target;
    return;
  }
  far.where = "instance " + match->base_url;
  far.page_url = match->base_url + opticPath(far.target, far.port);
  FetchOptions options = fetch_;
  options.basic_auth_user = match->entry->basic_auth_user;
  options.basic_auth_password = match->entry->basic_auth_password;
  options.tls_ca_file = match->entry->tls_ca_file;
  auto body = fetchCached(far.page_url + "&format=json", options);
  if (!body) {
    far.error = "its last values could not be fetched: " + body.error().message;
    return;
  }
  std::string error;
  far.reachable = fillFromOpticJson(far, near, *body, error);
  if (!far.reachable) far.error = error;
}

}  // namespace opticsd::web
