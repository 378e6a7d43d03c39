#pragma once
// The daemon's configuration: one YAML file, validated as a whole before
// anything starts (and before a SIGHUP reload replaces the running config).
//
// Value type; built on one thread, then read-only.

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/config/maintenance_list.hpp"
#include "daemon/exporter/export_detail.hpp"
#include "daemon/remote_write/remote_write_config.hpp"
#include "daemon/rules/rule_config.hpp"
#include "daemon/store/store_options.hpp"
#include "daemon/topology/topology.hpp"
#include "daemon/web/instances_config.hpp"
#include "drivers/driver.hpp"
#include "drivers/options/option_reader.hpp"
#include "drivers/result.hpp"

namespace opticsd {

struct ListenConfig {
  std::string address = "127.0.0.1:9464";  // loopback unless the operator says otherwise
  std::string basic_auth_user;
  std::string basic_auth_password_file;
  std::string tls_cert_file;  // PEM chain; with tls_key_file, /metrics is served over HTTPS only
  std::string tls_key_file;
  // Where people reach this instance's pages ("https://optics.example.net/a",
  // no trailing slash), as Prometheus's --web.external-url: alert links use it.
  std::string external_url;
  // Connection limits of the HTTP server (unset: its defaults; run sizes the
  // connection table to the open-file limit). See HttpServerOptions.
  std::optional<std::size_t> max_connections;
  std::optional<std::size_t> max_connections_per_source;
  std::optional<std::chrono::milliseconds> request_timeout;        // to send a whole request
  std::optional<std::chrono::milliseconds> tls_handshake_timeout;  // to finish the TLS handshake
  std::optional<std::chrono::milliseconds> write_timeout;          // to take a whole answer

  bool operator==(const ListenConfig&) const = default;
};

struct PollConfig {
  std::chrono::milliseconds interval{30'000};
  std::chrono::milliseconds timeout{10'000};
  std::uint32_t concurrency = 64;
  double jitter_fraction = 0.1;  // each delay varies by up to ±10 % so a fleet never polls in lock-step
  std::chrono::milliseconds max_backoff{300'000};
  // A failing target's last good values stay on /metrics, marked stale, this
  // long after its first failed poll; zero drops them at once.
  std::chrono::milliseconds keep_stale_for{300'000};
};

struct StorageConfig {
  bool enabled = true;
  std::filesystem::path path;  // resolved at load: explicit, or the state directory
  std::chrono::milliseconds retention{std::chrono::hours(24 * 14)};
  // History keeps one sample per module per interval (plus every state change);
  // metrics keep the poll resolution. Zero stores every poll.
  std::chrono::milliseconds sample_interval{std::chrono::seconds(10)};
  std::uint32_t queue_cycles = 4096;  // poll results waiting for the writer before drops are counted
  std::uint64_t max_size_bytes = 0;   // caps the database file; 0: until the disk is full
  // Older rows keep one sample per module per tier interval.
  std::vector<DownsampleTier> downsample{{std::chrono::hours(48), std::chrono::minutes(5)}};
  // Exception recording: tolerances per unit and the heartbeat (store_options.hpp).
  DeadbandOptions deadband;

  bool operator==(const StorageConfig&) const = default;
};

// This instance polls only the targets whose stable name hash falls in its shard.
struct ShardConfig {
  std::uint32_t index = 0;
  std::uint32_t total = 1;
};

struct TargetConfig {
  std::string name;
  std::string driver;
  std::optional<std::chrono::milliseconds> interval;  // overrides poll.interval
  std::optional<std::chrono::milliseconds> timeout;   // overrides poll.timeout
  YAML::Node options;  // the target's mapping as written (reload fingerprints, secret-file checks)
  std::shared_ptr<const DriverConfig> driver_config;  // the driver's validate() of `options`: never null
  ExportSetting export_setting;                       // `export:` on the target: its detail level, or its listed ports'
};

struct Config {
  std::string source;  // the file path, or "<embedded demo>"
  ListenConfig listen;
  PollConfig poll;
  StorageConfig storage;
  ShardConfig shard;
  std::string log_level = "info";
  std::vector<TargetConfig> targets;              // all configured targets, before sharding
  ExportPolicy export_policy;                     // `export:` at the top and on targets: the series budget
  std::optional<RemoteWriteConfig> remote_write;  // push every poll to a remote-write receiver
  RuleSet rules;                                  // `rules:` over the defaults, parsed once at load
  Topology topology;                              // `topology:`, parsed once at load
  InstancesConfig instances;                      // `instances:`: far ends other opticsd instances serve
  MaintenanceList maintenance;                    // `maintenance:` (issue 30): ports paused on purpose

  std::vector<const TargetConfig*> targetsForThisShard() const;
};

// Every problem found, each with file, line, column and key.
struct ConfigErrors {
  std::vector<ConfigIssue> issues;
  std::string format() const;  // one line per issue
};

using ConfigResult = tl::expected<Config, ConfigErrors>;

ConfigResult loadConfigFile(const std::filesystem::path& path);
ConfigResult loadConfigText(const std::string& text, const std::string& source);

// The built-in demo fleet, used when `opticsd run` is given no config.
const std::string& embeddedDemoConfig();
ConfigResult loadDemoConfig();

// Stable across processes and versions (FNV-1a 64), so shards never reshuffle on restart.
std::uint64_t stableNameHash(std::string_view name);
bool inShard(std::string_view target_name, const ShardConfig& shard);

// Where history goes when the config does not say: $STATE_DIRECTORY (systemd),
// /var/lib/opticsd for root, else $XDG_STATE_HOME/opticsd or ~/.local/state/opticsd.
std::filesystem::path defaultStateDirectory();

}  // namespace opticsd
