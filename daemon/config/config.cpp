#include "daemon/config/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "daemon/config/config_files.hpp"
#include "daemon/config/listen_address.hpp"
#include "daemon/rules/rule_config.hpp"
#include "daemon/topology/topology.hpp"
#include "drivers/options/duplicate_keys.hpp"
#include "drivers/options/duration.hpp"
#include "drivers/registry.hpp"

namespace opticsd {
namespace {

// The largest connection table: each connection is an open file, and the
// kernel's hard limit on those is 2^20 by default.
constexpr std::int64_t kMaxConnectionsLimit = 1'000'000;

void readConnectionLimits(OptionReader& r, ListenConfig& out) {
  if (auto v = r.optionalInt("max_connections", 1, kMaxConnectionsLimit)) out.max_connections = std::size_t(*v);
  if (auto v = r.optionalInt("max_connections_per_source", 1, kMaxConnectionsLimit)) {
    out.max_connections_per_source = std::size_t(*v);
    if (out.max_connections && *v > std::int64_t(*out.max_connections)) {
      r.error("max_connections_per_source",
              "must not exceed max_connections (" + std::to_string(*out.max_connections) + ")");
    }
  }
  for (auto [key, field] : {std::pair{"request_timeout", &ListenConfig::request_timeout},
                            std::pair{"tls_handshake_timeout", &ListenConfig::tls_handshake_timeout},
                            std::pair{"write_timeout", &ListenConfig::write_timeout}}) {
    if (auto v = r.optionalDuration(key)) {
      if (v->count() <= 0) {
        r.error(key, "must be longer than 0s");
      } else {
        out.*field = *v;
      }
    }
  }
}

// listen.external_url: an absolute http(s) URL without query or fragment;
// a trailing slash is dropped so links join as URL + "/optic?...".
void readExternalUrl(OptionReader& r, ListenConfig& out) {
  auto v = r.optionalString("external_url");
  if (!v) return;
  std::string url = *v;
  while (!url.empty() && url.back() == '/') url.pop_back();
  const bool scheme = url.starts_with("http://") || url.starts_with("https://");
  const auto host_at = url.find("://") + 3;
  if (!scheme || url.size() <= host_at || url.find_first_of("?# \t\r\n\"<>") != std::string::npos) {
    r.error("external_url",
            "expected an http:// or https:// URL without query or fragment, like https://optics.example.net");
    return;
  }
  out.external_url = std::move(url);
}

void readListen(OptionReader r, ListenConfig& out) {
  if (auto v = r.optionalString("address")) {
    auto address = normalizeListenAddress(*v);
    if (address) {
      out.address = *address;
    } else {
      r.error("address", address.error().message);
    }
  }
  if (auto v = r.optionalString("basic_auth_user")) out.basic_auth_user = *v;
  if (auto v = r.optionalString("basic_auth_password_file")) out.basic_auth_password_file = *v;
  if (out.basic_auth_user.empty() != out.basic_auth_password_file.empty()) {
    r.error("", "basic_auth_user and basic_auth_password_file go together");
  }
  if (auto v = r.optionalString("tls_cert_file")) out.tls_cert_file = *v;
  if (auto v = r.optionalString("tls_key_file")) out.tls_key_file = *v;
  if (out.tls_cert_file.empty() != out.tls_key_file.empty()) {
    r.error("", "tls_cert_file and tls_key_file go together");
  }
  readConnectionLimits(r, out);
  readExternalUrl(r, out);
  // The files run would read when it starts serving, checked now.
  if (!out.basic_auth_user.empty() && !out.basic_auth_password_file.empty()) {
    if (auto problem = unreadableFileProblem(out.basic_auth_password_file))
      r.error("basic_auth_password_file", *problem);
  }
  if (!out.tls_cert_file.empty() && !out.tls_key_file.empty()) {
    if (auto problem = tlsFilesProblem(out.tls_cert_file, out.tls_key_file)) {
      r.error(problem->find(out.tls_key_file) != std::string::npos ? "tls_key_file" : "tls_cert_file", *problem);
    }
  }
  r.rejectUnknownKeys();
}

void readPoll(OptionReader r, PollConfig& out) {
  if (auto v = r.optionalDuration("interval")) out.interval = *v;
  if (auto v = r.optionalDuration("timeout")) out.timeout = *v;
  if (auto v = r.optionalInt("concurrency", 1, 100'000)) out.concurrency = static_cast<std::uint32_t>(*v);
  if (auto v = r.optionalDouble("jitter")) {
    if (*v < 0 || *v > 0.5) r.error("jitter", "expected a fraction from 0 to 0.5");
    out.jitter_fraction = *v;
  }
  if (auto v = r.optionalDuration("max_backoff")) out.max_backoff = *v;
  if (auto v = r.optionalDuration("keep_stale_for")) {
    // A day-old value served beside current ones is history, not state.
    if (*v > std::chrono::hours(24))
      r.error("keep_stale_for", "must be at most 24h (0s drops a failing target's values at once)");
    out.keep_stale_for = *v;
  }
  if (out.interval.count() < 100) r.error("interval", "must be at least 100ms");
  if (out.timeout.count() < 10) r.error("timeout", "must be at least 10ms");
  if (out.max_backoff < out.interval) r.error("max_backoff", "must not be shorter than the interval");
  r.rejectUnknownKeys();
}

void readStorage(OptionReader r, StorageConfig& out) {
  if (auto v = r.optionalBool("enabled")) out.enabled = *v;
  if (auto v = r.optionalString("path")) out.path = *v;
  if (auto v = r.optionalDuration("retention")) out.retention = *v;
  if (auto v = r.optionalDuration("sample_interval")) out.sample_interval = *v;
  if (auto v = r.optionalInt("queue_cycles", 1, 10'000'000)) out.queue_cycles = static_cast<std::uint32_t>(*v);
  if (auto v = r.optionalByteSize("max_size")) {
    if (*v != 0 && *v < 1024 * 1024) r.error("max_size", "must be at least 1MiB (or 0 for no cap)");
    out.max_size_bytes = *v;
  }
  if (auto list = r.raw("downsample")) {
    out.downsample.clear();
    if (!list->IsSequence()) {
      r.error("downsample",
              "expected a list of {after, interval}, e.g. [{after: 2d, interval: 5m}] ([] keeps every row)");
    } else {
      for (std::size_t i = 0; i < list->size(); ++i) {
        OptionReader tier((*list)[i], r.file(), r.path() + ".downsample[" + std::to_string(i) + "]", r.issues());
        const auto after = tier.optionalDuration("after");
        const auto interval = tier.optionalDuration("interval");
        tier.rejectUnknownKeys();
        if (!after || !interval) {
          tier.error("", "needs both after and interval");
          continue;
        }
        if (*interval < std::chrono::seconds(1)) tier.error("interval", "must be at least 1s");
        if (!out.downsample.empty() &&
            (*after <= out.downsample.back().after || *interval <= out.downsample.back().interval)) {
          tier.error("", "tiers go from recent to old: each after and interval larger than the one before");
        }
        if (out.retention.count() > 0 && *after >= out.retention) {
          tier.error("after", "must be shorter than retention (" + formatDuration(out.retention) + ")");
        }
        out.downsample.push_back({*after, *interval});
      }
    }
  }
  if (auto node = r.raw("deadband")) {
    OptionReader d(*node, r.file(), r.path() + ".deadband", r.issues());
    if (auto v = d.optionalDuration("heartbeat")) out.deadband.heartbeat = *v;
    const std::pair<const char*, double*> tolerances[] = {
        {"power_db", &out.deadband.power_db},       {"temperature_c", &out.deadband.temperature_c},
        {"voltage_v", &out.deadband.voltage_v},     {"relative", &out.deadband.relative},
        {"ber_decades", &out.deadband.ber_decades}, {"percent_points", &out.deadband.percent_points}};
    for (const auto& [key, into] : tolerances) {
      if (auto v = d.optionalDouble(key)) {
        if (!(*v >= 0)) d.error(key, "must be 0 or more");
        *into = *v;
      }
    }
    if (auto v = d.optionalInt("finding_context_rows", 0, 100)) {
      out.deadband.finding_context_rows = static_cast<std::size_t>(*v);
    }
    d.rejectUnknownKeys();
  }
  if (out.path.empty()) out.path = defaultStateDirectory() / "history.db";
  if (out.enabled) {
    if (auto problem = databasePathProblem(out.path)) r.error(r.has("path") ? "path" : "", *problem);
  }
  r.rejectUnknownKeys();
}

void readShard(OptionReader r, ShardConfig& out) {
  if (auto v = r.optionalInt("total", 1, 1'000'000)) out.total = static_cast<std::uint32_t>(*v);
  if (auto v = r.optionalInt("index", 0, 999'999)) out.index = static_cast<std::uint32_t>(*v);
  if (out.index >= out.total) r.error("index", "must be smaller than total (" + std::to_string(out.total) + ")");
  r.rejectUnknownKeys();
}

void readTargets(const YAML::Node& list, const std::string& file, std::vector<ConfigIssue>& issues,
                 std::vector<TargetConfig>& out) {
  if (!list) return;
  if (!list.IsSequence()) {
    OptionReader(YAML::Node(), file, "targets", issues).error("", "expected a list of targets");
    return;
  }
  std::set<std::string> names;
  for (std::size_t index = 0; index < list.size(); ++index) {
    const YAML::Node node = list[index];
    OptionReader r(node, file, "targets[" + std::to_string(index) + "]", issues);
    TargetConfig target;
    target.name = r.requiredString("name");
    target.driver = r.requiredString("driver");
    target.interval = r.optionalDuration("interval");
    target.timeout = r.optionalDuration("timeout");
    target.options = node;
    if (r.has("export")) target.export_setting = readExportSetting(r.child("export"), true);
    if (!target.name.empty() && !names.insert(target.name).second) {
      r.error("name", "duplicate target name '" + target.name + "'");
    }
    if (!target.driver.empty()) {
      const DriverEntry* entry = findDriver(target.driver);
      if (entry == nullptr) {
        r.error("driver", "unknown driver '" + target.driver + "' (expected one of: " + driverNames() + ")");
      } else {
        // The driver's own keys, read once: run creates the driver from this.
        target.driver_config = entry->validate(target.name, r);
        if (target.driver_config == nullptr && r.valid()) {
          r.error("", "the " + target.driver + " driver refused its options");
        }
        r.rejectUnknownKeys();
      }
    }
    out.push_back(std::move(target));
  }
}

}  // namespace

std::string ConfigErrors::format() const {
  std::string out;
  for (const auto& issue : issues) out += issue.format() + "\n";
  return out;
}

std::uint64_t stableNameHash(std::string_view name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

bool inShard(std::string_view target_name, const ShardConfig& shard) {
  return shard.total <= 1 || stableNameHash(target_name) % shard.total == shard.index;
}

std::vector<const TargetConfig*> Config::targetsForThisShard() const {
  std::vector<const TargetConfig*> out;
  for (const auto& t : targets) {
    if (inShard(t.name, shard)) out.push_back(&t);
  }
  return out;
}

std::filesystem::path defaultStateDirectory() {
  if (const char* state = std::getenv("STATE_DIRECTORY"); state != nullptr && *state != '\0') {
    // systemd may pass several, colon-separated; the first is ours.
    std::string first(state);
    return first.substr(0, first.find(':'));
  }
  if (::geteuid() == 0) return "/var/lib/opticsd";
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "opticsd";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".local/state/opticsd";
  }
  return std::filesystem::current_path() / "opticsd-state";
}

ConfigResult loadConfigText(const std::string& text, const std::string& source) {
  ConfigErrors errors;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    errors.issues.push_back(ConfigIssue{source, e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg});
    return tl::unexpected(std::move(errors));
  }
  if (!root || root.IsNull()) {
    errors.issues.push_back(
        ConfigIssue{source, 0, 0, "", "the file is empty: expected a YAML mapping with at least 'targets:'"});
    return tl::unexpected(std::move(errors));
  }
  Config config;
  config.source = source;
  OptionReader top(root, source, "", errors.issues);
  if (!root.IsMap()) return tl::unexpected(std::move(errors));
  reportDuplicateKeys(root, source, errors.issues);

  readListen(top.child("listen"), config.listen);
  readPoll(top.child("poll"), config.poll);
  readStorage(top.child("storage"), config.storage);
  readShard(top.child("shard"), config.shard);
  if (auto level = top.optionalString("log_level")) {
    static const std::set<std::string> kLevels{"trace", "debug", "info", "warn", "error", "off"};
    if (!kLevels.contains(*level)) top.error("log_level", "expected one of trace, debug, info, warn, error, off");
    config.log_level = *level;
  }
  readTargets(top.raw("targets").value_or(YAML::Node()), source, errors.issues, config.targets);
  config.export_policy =
      ExportPolicy(readExportSetting(top.child("export"), false).detail.value_or(ExportDetail::kDefault));
  if (top.has("remote_write")) config.remote_write = readRemoteWriteConfig(top.child("remote_write"));
  for (const auto& t : config.targets) {
    if (t.export_setting.detail)
      config.export_policy.setTarget(t.name, *t.export_setting.detail, t.export_setting.ports);
  }
  // Problems are rejected up front, naming the rule; the service and reload use these as parsed.
  config.rules = parseRules(top.raw("rules").value_or(YAML::Node()), source, errors.issues);
  config.topology = parseTopology(top.raw("topology").value_or(YAML::Node()), source, errors.issues);
  config.instances = parseInstances(top.raw("instances").value_or(YAML::Node()), source, errors.issues);
  // `maintenance:` (issue 30): targets and ports paused on purpose.
  config.maintenance = readMaintenanceList(top.raw("maintenance").value_or(YAML::Node()), source, errors.issues);
  top.rejectUnknownKeys();
  if (config.targets.empty() && errors.issues.empty()) {
    top.error("targets", "no targets configured: add at least one under 'targets:'");
  }
  if (!errors.issues.empty()) {
    // In file order, as an editor shows them.
    std::stable_sort(errors.issues.begin(), errors.issues.end(), [](const ConfigIssue& a, const ConfigIssue& b) {
      return std::pair(a.line, a.column) < std::pair(b.line, b.column);
    });
    return tl::unexpected(std::move(errors));
  }
  return config;
}

ConfigResult loadConfigFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ConfigErrors errors;
    errors.issues.push_back(
        ConfigIssue{path.string(), 0, 0, "", "cannot read config file: " + std::string(std::strerror(errno))});
    return tl::unexpected(std::move(errors));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return loadConfigText(text.str(), path.string());
}

}  // namespace opticsd

namespace opticsd::embedded {
extern const char* const demo_config;
}  // namespace opticsd::embedded

namespace opticsd {

const std::string& embeddedDemoConfig() {
  static const std::string text(embedded::demo_config);
  return text;
}

ConfigResult loadDemoConfig() { return loadConfigText(embeddedDemoConfig(), "<embedded demo>"); }

}  // namespace opticsd
