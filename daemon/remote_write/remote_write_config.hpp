#pragma once
// `remote_write:` in the config: where opticsd pushes its series with the
// Prometheus remote-write 1.0 protocol, for fleets that push instead of
// being scraped.
//
//   remote_write:
//     url: http://vm-1:8428/api/v1/write     # plain HTTP
//     external_labels: {cluster: fab-a}       # added to every series
//     queue_samples: 2000000                  # held while the receiver is slow or down
//     timeout: 10s                            # per request
//     max_backoff: 30s                        # retries back off exponentially up to this
//
// Value type.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "drivers/options/option_reader.hpp"

namespace opticsd {

struct RemoteWriteConfig {
  std::string host;
  std::string port = "80";
  std::string path = "/";
  std::string url;  // as written, for logs
  std::map<std::string, std::string> external_labels;
  std::uint64_t queue_samples = 2'000'000;
  std::chrono::milliseconds timeout{10'000};
  std::chrono::milliseconds min_backoff{100};
  std::chrono::milliseconds max_backoff{30'000};

  bool operator==(const RemoteWriteConfig&) const = default;
};

// Reads a `remote_write:` mapping; problems go to the reader's issues.
RemoteWriteConfig readRemoteWriteConfig(OptionReader r);

}  // namespace opticsd
