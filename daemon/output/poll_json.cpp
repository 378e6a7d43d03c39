#include "daemon/output/poll_json.hpp"

#include "daemon/output/sample_json.hpp"

namespace opticsd {

nlohmann::json pollToJson(const PublishedPoll& poll) {
  nlohmann::json out{{"target", poll.target},
                     {"driver", poll.driver},
                     {"ok", true},
                     {"seconds", poll.seconds},
                     {"errors", poll.errors}};
  auto& samples = out["samples"] = nlohmann::json::array();
  for (const auto& sample : *poll.samples) samples.push_back(sampleToJson(sample));
  if (!poll.neighbors.empty()) {
    auto& neighbors = out["neighbors"] = nlohmann::json::array();
    for (const auto& n : poll.neighbors) {
      neighbors.push_back({{"port", n.port}, {"remote_system", n.remote_system}, {"remote_port", n.remote_port}});
    }
  }
  return out;
}

nlohmann::json pollToJson(const FailedPoll& poll) {
  return {{"target", poll.target},   {"driver", poll.driver}, {"ok", false},
          {"seconds", poll.seconds}, {"errors", poll.errors}, {"samples", nlohmann::json::array()}};
}

}  // namespace opticsd
