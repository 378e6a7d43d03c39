#pragma once
// `instances:`: where the targets this instance does not poll are served, so
// the optic's page and `opticsd explain` can link to a link's far end in
// another opticsd (a GPU host's agent, another shard) and show its values.
//
//   instances:
//     - url: https://pollers-a.example.net:9464     # one instance's base URL
//       targets: ["leaf-*", "spine-*"]              # name patterns (fnmatch) it polls
//       basic_auth_user: opticsd                    # when that instance's listener asks for it;
//       basic_auth_password_file: /etc/opticsd/pollers-a-password   # the password, first line
//       tls_ca_file: /etc/opticsd/fleet-ca.pem      # https: the CA its certificate chains to
//     - url_template: "http://{target}.hosts.example.net:9464"   # one per target
//       targets: ["gpu-node-*"]
//
// The first entry whose pattern matches a target name wins. The password is
// read when the config is (check-config finds an unreadable file) and is
// never logged or shown. A SIGHUP reload replaces the list. Plain value type.

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/options/option_reader.hpp"

namespace opticsd {

struct InstanceEntry {
  std::string url;           // base URL, no trailing slash
  std::string url_template;  // "{target}" replaced by the target name (URL-escaped)
  std::vector<std::string> targets;
  std::string basic_auth_user;           // empty: no credentials sent
  std::string basic_auth_password;       // secret, from basic_auth_password_file
  std::string basic_auth_password_file;  // where it came from (the start warns when others can read it)
  std::string tls_ca_file;               // empty: the system's CAs
  bool operator==(const InstanceEntry&) const = default;
};

// The instance serving one target: its base URL and its entry (owned by the
// InstancesConfig it came from).
struct InstanceMatch {
  std::string base_url;
  const InstanceEntry* entry = nullptr;
};

struct InstancesConfig {
  std::vector<InstanceEntry> entries;
  // The base URL of the instance serving `target`, or nullopt.
  std::optional<std::string> baseUrlFor(std::string_view target) const;
  // The same, with the entry that matched (its credentials and CA file).
  std::optional<InstanceMatch> find(std::string_view target) const;
  bool operator==(const InstancesConfig&) const = default;
};

// Reads the `instances:` list (null: none). Problems go to `issues`.
InstancesConfig parseInstances(const YAML::Node& node, const std::string& file, std::vector<ConfigIssue>& issues);

}  // namespace opticsd
