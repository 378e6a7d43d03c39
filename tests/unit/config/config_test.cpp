#include "daemon/config/config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "drivers/registry.hpp"

namespace opticsd {
namespace {

const char* kValid = R"(listen:
  address: 0.0.0.0:9500
poll:
  interval: 15s
  timeout: 4s
  concurrency: 8
  jitter: 0.2
  max_backoff: 10m
  keep_stale_for: 7m
storage:
  path: /tmp/opticsd-test/history.db
  retention: 3d
  sample_interval: 1m
  queue_cycles: 100
  max_size: 20GiB
  downsample: [{after: 1d, interval: 5m}, {after: 2d, interval: 1h}]
shard: {index: 1, total: 3}
log_level: debug
targets:
  - name: leaf-1
    driver: sim
    ports: 4
    lanes: 8
  - name: leaf-2
    driver: sim
    interval: 1m
    ports: 2
)";

// The one issue a config produced, or a failure if it produced none or several.
ConfigIssue onlyIssue(const std::string& text) {
  auto result = loadConfigText(text, "test.yaml");
  EXPECT_FALSE(result) << "config unexpectedly valid:\n" << text;
  if (result) return {};
  EXPECT_EQ(result.error().issues.size(), 1u) << result.error().format();
  return result.error().issues.front();
}

TEST(ConfigTest, LoadsEverySection) {
  auto config = loadConfigText(kValid, "test.yaml");
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->listen.address, "0.0.0.0:9500");
  EXPECT_EQ(config->poll.interval, std::chrono::seconds(15));
  EXPECT_EQ(config->poll.timeout, std::chrono::seconds(4));
  EXPECT_EQ(config->poll.concurrency, 8u);
  EXPECT_DOUBLE_EQ(config->poll.jitter_fraction, 0.2);
  EXPECT_EQ(config->poll.max_backoff, std::chrono::minutes(10));
  EXPECT_EQ(config->poll.keep_stale_for, std::chrono::minutes(7));
  EXPECT_EQ(config->storage.path, "/tmp/opticsd-test/history.db");
  EXPECT_EQ(config->storage.retention, std::chrono::hours(72));
  EXPECT_EQ(config->storage.sample_interval, std::chrono::minutes(1));
  EXPECT_EQ(config->storage.queue_cycles, 100u);
  EXPECT_EQ(config->storage.max_size_bytes, 20ULL << 30);
  const std::vector<DownsampleTier> tiers{{std::chrono::hours(24), std::chrono::minutes(5)},
                                          {std::chrono::hours(48), std::chrono::hours(1)}};
  EXPECT_EQ(config->storage.downsample, tiers);
  EXPECT_EQ(config->shard.index, 1u);
  EXPECT_EQ(config->shard.total, 3u);
  EXPECT_EQ(config->log_level, "debug");
  ASSERT_EQ(config->targets.size(), 2u);
  EXPECT_EQ(config->targets[0].name, "leaf-1");
  EXPECT_EQ(config->targets[0].driver, "sim");
  EXPECT_FALSE(config->targets[0].interval);
  EXPECT_EQ(config->targets[1].interval, std::chrono::minutes(1));
}

// storage.deadband: the history store's tolerances and heartbeat (issue 14).
TEST(ConfigTest, StorageDeadbandIsReadAndChecked) {
  const std::string base = "targets: [{name: a, driver: sim}]\nstorage:\n  deadband: ";
  auto config =
      loadConfigText(base + "{heartbeat: 5m, power_db: 0.1, ber_decades: 0.5, finding_context_rows: 3}\n", "test.yaml");
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->storage.deadband.heartbeat, std::chrono::minutes(5));
  EXPECT_EQ(config->storage.deadband.power_db, 0.1);
  EXPECT_EQ(config->storage.deadband.ber_decades, 0.5);
  EXPECT_EQ(config->storage.deadband.finding_context_rows, 3u);
  EXPECT_EQ(config->storage.deadband.temperature_c, DeadbandOptions{}.temperature_c) << "unset keeps the default";
  EXPECT_NE(onlyIssue(base + "{power_db: -1}\n").message.find("0 or more"), std::string::npos);
  const ConfigIssue unknown = onlyIssue(base + "{power_dbm: 0.1}\n");
  EXPECT_EQ(unknown.key, "storage.deadband.power_dbm");
  EXPECT_NE(unknown.message.find("power_db"), std::string::npos) << "lists the known keys: " << unknown.message;
}

TEST(ConfigTest, EmbeddedDemoIsValid) {
  auto config = loadDemoConfig();
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->source, "<embedded demo>");
  EXPECT_GE(config->targets.size(), 4u);
  EXPECT_EQ(config->listen.address.rfind("127.0.0.1:", 0), 0u) << "the demo must bind to loopback";
}

TEST(ConfigTest, SyntaxErrorNamesLineAndColumn) {
  auto issue = onlyIssue("poll:\n  interval: [30s\n");
  EXPECT_EQ(issue.file, "test.yaml");
  EXPECT_GT(issue.line, 0);
  EXPECT_NE(issue.message.find("YAML syntax error"), std::string::npos);
}

TEST(ConfigTest, BadDurationNamesKeyAndLine) {
  auto issue = onlyIssue("poll:\n  interval: 30 seconds\ntargets:\n  - {name: a, driver: sim}\n");
  EXPECT_EQ(issue.key, "poll.interval");
  EXPECT_EQ(issue.line, 2);
  EXPECT_EQ(issue.column, 13);
  EXPECT_NE(issue.message.find("duration"), std::string::npos);
  EXPECT_NE(issue.format().find("test.yaml:2:13: poll.interval:"), std::string::npos) << issue.format();
}

TEST(ConfigTest, UnknownKeyIsRejectedWithTheKnownOnes) {
  auto issue = onlyIssue("pol:\n  interval: 30s\ntargets:\n  - {name: a, driver: sim}\n");
  EXPECT_EQ(issue.key, "pol");
  EXPECT_EQ(issue.line, 1);
  EXPECT_NE(issue.message.find("unknown key"), std::string::npos);
  EXPECT_NE(issue.message.find("poll"), std::string::npos) << "should list the known keys: " << issue.message;
}

TEST(ConfigTest, UnknownDriverListsTheDrivers) {
  auto issue = onlyIssue("targets:\n  - name: a\n    driver: telnet\n");
  EXPECT_EQ(issue.key, "targets[0].driver");
  EXPECT_EQ(issue.line, 3);
  EXPECT_NE(issue.message.find("unknown driver 'telnet'"), std::string::npos);
  EXPECT_NE(issue.message.find("sim"), std::string::npos);
}

TEST(ConfigTest, DriverOptionsAreValidatedUpFront) {
  auto result = loadConfigText("targets:\n  - name: a\n    driver: sim\n    colour: blue\n", "t.yaml");
  ASSERT_FALSE(result);
  bool found = false;
  for (const auto& issue : result.error().issues) found |= issue.key == "targets[0].colour" && issue.line == 4;
  EXPECT_TRUE(found) << result.error().format();
}

TEST(ConfigTest, MissingRequiredKeys) {
  auto result = loadConfigText("targets:\n  - driver: sim\n  - name: b\n", "t.yaml");
  ASSERT_FALSE(result);
  const std::string text = result.error().format();
  EXPECT_NE(text.find("targets[0]: missing required key 'name'"), std::string::npos) << text;
  EXPECT_NE(text.find("targets[1]: missing required key 'driver'"), std::string::npos) << text;
}

TEST(ConfigTest, DuplicateTargetNames) {
  auto issue = onlyIssue("targets:\n  - {name: a, driver: sim}\n  - {name: a, driver: sim}\n");
  EXPECT_EQ(issue.key, "targets[1].name");
  EXPECT_NE(issue.message.find("duplicate"), std::string::npos);
}

TEST(ConfigTest, NoTargetsIsAnError) {
  auto issue = onlyIssue("poll: {interval: 30s}\n");
  EXPECT_EQ(issue.key, "targets");
  auto empty = loadConfigText("", "t.yaml");
  EXPECT_FALSE(empty);
}

TEST(ConfigTest, RangeChecks) {
  EXPECT_EQ(onlyIssue("poll: {concurrency: 0}\ntargets: [{name: a, driver: sim}]\n").key, "poll.concurrency");
  EXPECT_EQ(onlyIssue("poll: {jitter: 0.9}\ntargets: [{name: a, driver: sim}]\n").key, "poll.jitter");
  EXPECT_EQ(onlyIssue("poll: {interval: 10ms}\ntargets: [{name: a, driver: sim}]\n").key, "poll.interval");
  EXPECT_EQ(onlyIssue("shard: {index: 3, total: 3}\ntargets: [{name: a, driver: sim}]\n").key, "shard.index");
  EXPECT_EQ(onlyIssue("listen: {address: nowhere}\ntargets: [{name: a, driver: sim}]\n").key, "listen.address");
  EXPECT_EQ(onlyIssue("log_level: loud\ntargets: [{name: a, driver: sim}]\n").key, "log_level");
  EXPECT_EQ(onlyIssue("targets: {name: a}\n").key, "targets");
  EXPECT_EQ(onlyIssue("poll: 5\ntargets: [{name: a, driver: sim}]\n").key, "poll");
}

// How long a failing target's last values stay on /metrics: 0s (drop at
// once, as before) up to a day; a duration, never a bare number.
TEST(ConfigTest, KeepStaleForIsADurationOfAtMostADay) {
  const std::string t = "targets: [{name: a, driver: sim}]\n";
  auto defaults = loadConfigText(t, "t.yaml");
  ASSERT_TRUE(defaults) << defaults.error().format();
  EXPECT_EQ(defaults->poll.keep_stale_for, std::chrono::minutes(5));
  auto zero = loadConfigText("poll: {keep_stale_for: 0s}\n" + t, "t.yaml");
  ASSERT_TRUE(zero) << zero.error().format();
  EXPECT_EQ(zero->poll.keep_stale_for, std::chrono::milliseconds(0));
  EXPECT_EQ(onlyIssue("poll: {keep_stale_for: 25h}\n" + t).key, "poll.keep_stale_for");
  EXPECT_EQ(onlyIssue("poll: {keep_stale_for: 300}\n" + t).key, "poll.keep_stale_for");
  EXPECT_EQ(onlyIssue("poll: {keep_stale_for: -1m}\n" + t).key, "poll.keep_stale_for");
}

TEST(ConfigTest, StorageListenAndPollErrorPaths) {
  const std::string t = "targets: [{name: a, driver: sim}]\n";
  EXPECT_EQ(onlyIssue("storage: {queue_cycles: 0}\n" + t).key, "storage.queue_cycles");
  EXPECT_EQ(onlyIssue("storage: {enabled: maybe}\n" + t).key, "storage.enabled");
  EXPECT_EQ(onlyIssue("storage: {retention: forever}\n" + t).key, "storage.retention");
  EXPECT_EQ(onlyIssue("storage: {max_size: 10 gigs}\n" + t).key, "storage.max_size");
  EXPECT_EQ(onlyIssue("storage: {max_size: 4KiB}\n" + t).key, "storage.max_size");
  EXPECT_EQ(onlyIssue("poll: {timeout: 5ms}\n" + t).key, "poll.timeout");
  EXPECT_EQ(onlyIssue("shard: {total: 0}\n" + t).key, "shard.total");
  EXPECT_EQ(onlyIssue("storage: {downsample: 5m}\n" + t).key, "storage.downsample");
  EXPECT_EQ(onlyIssue("storage: {downsample: [{after: 1d}]}\n" + t).key, "storage.downsample[0]");
  EXPECT_EQ(onlyIssue("storage: {downsample: [{after: 2d, interval: 1h}, {after: 1d, interval: 2h}]}\n" + t).key,
            "storage.downsample[1]");
  EXPECT_EQ(onlyIssue("storage: {retention: 1d, downsample: [{after: 2d, interval: 1h}]}\n" + t).key,
            "storage.downsample[0].after");
  auto none = loadConfigText("storage: {downsample: []}\n" + t, "t.yaml");
  ASSERT_TRUE(none) << none.error().format();
  EXPECT_TRUE(none->storage.downsample.empty());
  auto defaults = loadConfigText(t, "t.yaml");
  ASSERT_TRUE(defaults);
  ASSERT_EQ(defaults->storage.downsample.size(), 1u);
  EXPECT_EQ(defaults->storage.downsample[0].after, std::chrono::hours(48));
  const ConfigIssue auth = onlyIssue("listen: {basic_auth_user: prometheus}\n" + t);
  EXPECT_NE(auth.format().find("basic_auth_password_file"), std::string::npos) << auth.format();
  const ConfigIssue tls = onlyIssue("listen: {tls_cert_file: /etc/opticsd/metrics.crt}\n" + t);
  EXPECT_NE(tls.format().find("tls_key_file"), std::string::npos) << tls.format();
}

TEST(ConfigTest, ExternalUrlAndInstances) {
  const std::string t = "targets: [{name: a, driver: sim}]\n";
  auto c = loadConfigText(
      "listen: {external_url: \"https://optics.example.net/a/\"}\n"
      "instances: [{url: \"http://pollers-b:9464\", targets: [\"spine-*\"]}]\n" +
          t,
      "t.yaml");
  ASSERT_TRUE(c) << c.error().format();
  EXPECT_EQ(c->listen.external_url, "https://optics.example.net/a");
  EXPECT_EQ(*c->instances.baseUrlFor("spine-3"), "http://pollers-b:9464");
  EXPECT_EQ(onlyIssue("listen: {external_url: optics.example.net}\n" + t).key, "listen.external_url");
  EXPECT_EQ(onlyIssue("listen: {external_url: \"https://x/?a=1\"}\n" + t).key, "listen.external_url");
  EXPECT_EQ(onlyIssue("instances: [{url: \"http://x\"}]\n" + t).key, "instances[0].targets");
}

TEST(ConfigTest, ReportsEveryProblemAtOnce) {
  auto result = loadConfigText("poll: {interval: x, timeout: y}\ntargets: [{name: a, driver: nope}]\n", "t.yaml");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().issues.size(), 3u) << result.error().format();
}

TEST(ConfigTest, MissingFileSaysSo) {
  auto result = loadConfigFile("/nonexistent/opticsd.yaml");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().format().find("cannot read config file"), std::string::npos);
}

TEST(ConfigTest, LoadsFromFile) {
  const auto path = std::filesystem::temp_directory_path() / "opticsd-config-test.yaml";
  std::ofstream(path) << kValid;
  auto config = loadConfigFile(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->source, path.string());
}

TEST(ShardTest, EveryTargetLandsInExactlyOneShard) {
  for (std::uint32_t total : {1u, 2u, 3u, 7u}) {
    std::vector<int> per_shard(total, 0);
    for (int i = 0; i < 1000; ++i) {
      const std::string name = "switch-" + std::to_string(i);
      int owners = 0;
      for (std::uint32_t index = 0; index < total; ++index) {
        if (inShard(name, ShardConfig{index, total})) {
          ++owners;
          ++per_shard[index];
        }
      }
      EXPECT_EQ(owners, 1) << name << " total=" << total;
    }
    for (std::uint32_t index = 0; index < total; ++index) {
      EXPECT_GT(per_shard[index], 1000 / static_cast<int>(total) / 2)
          << "shard " << index << " of " << total << " is starved";
    }
  }
}

TEST(ShardTest, HashIsStableAcrossVersions) {
  // FNV-1a 64 reference values: a change here would reshuffle every fleet.
  EXPECT_EQ(stableNameHash(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(stableNameHash("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(stableNameHash("foobar"), 0x85944171f73967e8ULL);
}

TEST(ShardTest, ConfigFiltersTargets) {
  auto config = loadConfigText(kValid, "t.yaml");
  ASSERT_TRUE(config);
  std::size_t total = 0;
  for (std::uint32_t index = 0; index < 3; ++index) {
    config->shard = {index, 3};
    total += config->targetsForThisShard().size();
  }
  EXPECT_EQ(total, config->targets.size());
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

TEST(ConfigTest, DuplicateKeysAreRefusedNamingBothLines) {
  const ConfigIssue issue = onlyIssue(
      "listen: {address: 127.0.0.1:9000}\ntargets: [{name: a, driver: sim}]\n"
      "listen: {address: 127.0.0.1:9001}\n");
  EXPECT_EQ(issue.key, "listen");
  EXPECT_EQ(issue.line, 3);
  EXPECT_NE(issue.message.find("line 1 and again on line 3"), std::string::npos) << issue.message;
  EXPECT_EQ(onlyIssue("targets:\n  - name: a\n    driver: sim\n    name: b\n").key, "targets[0].name");
}

TEST(ConfigTest, AnEmptyFileIsSaidToBeEmpty) {
  for (const char* text : {"", "\n\n", "# only a comment\n"}) {
    EXPECT_NE(onlyIssue(text).message.find("the file is empty"), std::string::npos) << text;
  }
}

TEST(ConfigTest, AMisspelledKeyIsNamedWithTheKeyItMeant) {
  const ConfigIssue issue = onlyIssue("poll: {intervall: 5s}\ntargets: [{name: a, driver: sim}]\n");
  EXPECT_EQ(issue.key, "poll.intervall");
  EXPECT_NE(issue.message.find("did you mean 'interval'?"), std::string::npos) << issue.message;
  EXPECT_NE(issue.message.find("'interval' is not set"), std::string::npos) << issue.message;
}

TEST(ConfigTest, ProblemsAreListedInFileOrder) {
  auto result = loadConfigText(
      "targets: [{name: a, driver: sim}]\nlog_level: loud\npoll: {jitter: 0.9}\n"
      "listen: {address: nowhere}\n",
      "t.yaml");
  ASSERT_FALSE(result);
  ASSERT_EQ(result.error().issues.size(), 3u) << result.error().format();
  EXPECT_EQ(result.error().issues[0].line, 2);
  EXPECT_EQ(result.error().issues[1].line, 3);
  EXPECT_EQ(result.error().issues[2].line, 4);
}

TEST(ConfigTest, ListenFormsOfOtherExportersAreAccepted) {
  auto config = loadConfigText("listen: {address: ':9464'}\ntargets: [{name: a, driver: sim}]\n", "t.yaml");
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->listen.address, "0.0.0.0:9464");
  config = loadConfigText("listen: {address: 'localhost:9464'}\ntargets: [{name: a, driver: sim}]\n", "t.yaml");
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->listen.address, "127.0.0.1:9464");
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

TEST(ConfigTest, AMisspelledSecretKeyIsUnknownAndTheSecretMissingNotShort) {
  if (findDriver("snmp") == nullptr) GTEST_SKIP() << "built without the snmp driver";
  auto result = loadConfigText(
      "targets:\n  - {name: s, driver: snmp, address: 127.0.0.1, version: 3, user: u, security_level: authPriv,\n"
      "     auth_password: authpass123, priv_pasword: privpass456}\n",
      "t.yaml");
  ASSERT_FALSE(result);
  const std::string text = result.error().format();
  EXPECT_NE(text.find("unknown key 'priv_pasword': did you mean 'priv_password'? ('priv_password' is not set)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("needs priv_password"), std::string::npos) << text;
  EXPECT_EQ(text.find("at least 8 characters"), std::string::npos) << text;
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

TEST(ConfigTest, ConnectionLimitsAreListenKeysCheckedAtLoad) {
  auto config = loadConfigText(
      "listen: {address: '127.0.0.1:9464', max_connections: 300, max_connections_per_source: 100,\n"
      "         request_timeout: 4s, tls_handshake_timeout: 3s, write_timeout: 90s}\n"
      "targets: [{name: a, driver: sim}]\n",
      "t.yaml");
  ASSERT_TRUE(config) << config.error().format();
  EXPECT_EQ(config->listen.max_connections, 300u);
  EXPECT_EQ(config->listen.max_connections_per_source, 100u);
  EXPECT_EQ(config->listen.request_timeout, std::chrono::seconds(4));
  EXPECT_EQ(config->listen.tls_handshake_timeout, std::chrono::seconds(3));
  EXPECT_EQ(config->listen.write_timeout, std::chrono::seconds(90));

  const auto unset = loadConfigText("targets: [{name: a, driver: sim}]\n", "t.yaml");
  ASSERT_TRUE(unset) << unset.error().format();
  EXPECT_FALSE(unset->listen.max_connections);  // run sizes it to the open-file limit
  EXPECT_FALSE(unset->listen.request_timeout);

  const std::pair<const char*, const char*> bad[] = {
      {"max_connections: 0", "t.yaml:1:54: listen.max_connections: expected an integer from 1 to 1000000"},
      {"max_connections: 10, max_connections_per_source: 11",
       "listen.max_connections_per_source: must not exceed max_connections (10)"},
      {"request_timeout: 0s", "listen.request_timeout: must be longer than 0s"},
      {"write_timeout: soon", "listen.write_timeout"},
      {"max_conections: 10", "unknown key 'max_conections'"},
  };
  for (const auto& [keys, message] : bad) {
    const auto result = loadConfigText(
        std::string("listen: {address: '127.0.0.1:9464', ") + keys + "}\ntargets: [{name: a, driver: sim}]\n",
        "t.yaml");
    ASSERT_FALSE(result) << keys;
    EXPECT_NE(result.error().format().find(message), std::string::npos) << keys << ": " << result.error().format();
  }
}

}  // namespace
}  // namespace opticsd
