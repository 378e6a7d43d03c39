#pragma once
// `remote_write:` in the config: where opticsd pushes its series with the
// Prometheus remote-write 1.0 protocol, for fleets that push instead of
// being scraped.
//
//   remote_write:
//     url: https://vm-1:8428/api/v1/write    # http:// or https://
//     tls_ca_file: /etc/opticsd/ca.pem        # https: the CA the receiver's certificate
//                                             # must chain to (else the system's CAs)
//     tls_cert_file: /etc/opticsd/client.pem  # https: optional client certificate
//     tls_key_file: /etc/opticsd/client.key   #   and its key (together)
//     basic_auth_user: opticsd                # basic auth, the password from
//     basic_auth_password_file: /etc/opticsd/rw-password  # a file or
//     # basic_auth_password_credential: rw-password         # a systemd credential;
//     # bearer_token_file / bearer_token_credential: a bearer token instead
//     external_labels: {cluster: fab-a}       # added to every series
//     queue_samples: 2000000                  # held while the receiver is slow or down
//     timeout: 10s                            # per request
//     connections: 4                          # requests in flight at once (one per target)
//     max_backoff: 30s                        # retries back off exponentially up to this
//
// Secrets are read when the config is read (so check-config finds an
// unreadable or empty file) and are never logged: only `url` is, and a url
// carrying user:password@ is refused. Value type.

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
  std::string url;   // as written, for logs
  bool tls = false;  // https://
  std::string tls_ca_file, tls_cert_file, tls_key_file;
  std::string basic_auth_user;
  std::string basic_auth_password;  // secret
  std::string bearer_token;         // secret
  std::map<std::string, std::string> external_labels;
  std::uint64_t queue_samples = 2'000'000;
  unsigned connections = 4;
  std::chrono::milliseconds timeout{10'000};
  std::chrono::milliseconds min_backoff{100};
  std::chrono::milliseconds max_backoff{30'000};

  bool operator==(const RemoteWriteConfig&) const = default;
};

// Reads a `remote_write:` mapping; problems go to the reader's issues.
RemoteWriteConfig readRemoteWriteConfig(OptionReader r);

}  // namespace opticsd
