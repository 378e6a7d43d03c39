// Hysteresis, restart through the store, rule config errors, per-media
// overrides and the exported metrics.
#include <gtest/gtest.h>

#include <filesystem>

#include "daemon/rules/rules_engine.hpp"
#include "daemon/store/findings_history.hpp"
#include "daemon/store/sqlite_store.hpp"
#include "tests/unit/rules/recording_sink.hpp"
#include "tests/unit/rules/test_samples.hpp"

namespace opticsd {
namespace {

Sample module(const std::string& port, std::int64_t t, double temperature, Modulation modulation = Modulation::kNrz) {
  Sample s;
  s.target = "sw";
  s.port = port;
  s.timestamp_ms = t;
  s.mutableIdentity().serial = "SN-" + port;
  s.mutableIdentity().media = modulation == Modulation::kPam4 ? "400GBASE-DR4" : "10GBASE-SR";
  s.mutableIdentity().modulation = modulation;
  s.module.set(ModuleMetric::kTemperatureCelsius, temperature);
  return s;
}

RuleSet rules(const std::string& yaml, std::vector<ConfigIssue>* out = nullptr) {
  std::vector<ConfigIssue> issues;
  auto set = parseRules(YAML::Load(yaml), "test.yaml", issues);
  if (out) *out = issues;
  EXPECT_TRUE(out || issues.empty()) << (issues.empty() ? "" : issues.front().format());
  return set;
}

double gaugeValue(const std::vector<prometheus::MetricFamily>& families, const std::string& name,
                  const std::map<std::string, std::string>& labels, bool* found = nullptr) {
  for (const auto& f : families) {
    if (f.name != name) continue;
    for (const auto& m : f.metric) {
      bool all = true;
      for (const auto& [k, v] : labels) {
        bool hit = false;
        for (const auto& l : m.label) hit = hit || (l.name == k && l.value == v);
        all = all && hit;
      }
      if (all) {
        if (found) *found = true;
        return m.gauge.value;
      }
    }
  }
  if (found) *found = false;
  return 0;
}

TEST(Rules, DefaultSetParsesCleanly) {
  std::vector<ConfigIssue> issues;
  const RuleSet set = parseRules(YAML::Node(), "x.yaml", issues);
  EXPECT_TRUE(issues.empty()) << issues.front().format();
  EXPECT_NE(set.find("pre_fec_ber"), nullptr);
  EXPECT_NE(set.find("link_flapping"), nullptr);
  EXPECT_EQ(set.rules.size(), defaultRuleSet().rules.size());
}

TEST(Rules, HysteresisRaisesAfterNAndClearsAfterM) {
  test::RecordingSink sink;
  RulesEngine engine(rules("rules: [{name: temperature_high, raise_after: 3, clear_after: 2}]"), Topology{}, &sink);
  std::int64_t t = 1'000'000;
  const auto poll = [&](double temperature) { engine.evaluate("sw", {module("p1", t += 30'000, temperature)}); };
  poll(72);
  poll(72);
  EXPECT_EQ(sink.records.size(), 0u) << "two breaching polls must not raise with raise_after 3";
  poll(40);  // a clean poll resets the count
  poll(72);
  poll(72);
  EXPECT_EQ(sink.records.size(), 0u);
  poll(72);
  ASSERT_EQ(sink.records.size(), 1u);
  EXPECT_EQ(sink.records[0].rule, "temperature_high");
  EXPECT_EQ(sink.records[0].severity, Severity::kWarning);
  EXPECT_TRUE(sink.records[0].active());
  EXPECT_EQ(sink.records[0].value, 72);
  for (int i = 0; i < 5; ++i) poll(72);
  EXPECT_EQ(sink.records.size(), 1u) << "one record per raise, not one per poll";
  poll(80);  // escalates in place
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[1].severity, Severity::kCritical);
  EXPECT_EQ(sink.records[1].start_ms, sink.records[0].start_ms);
  poll(40);
  EXPECT_EQ(engine.activeFindings().size(), 1u);
  poll(40);
  ASSERT_EQ(sink.records.size(), 3u);
  ASSERT_TRUE(sink.records[2].end_ms);
  EXPECT_EQ(*sink.records[2].end_ms, t);
  EXPECT_TRUE(engine.activeFindings().empty());
}

TEST(Rules, ConfigErrorsNameTheRule) {
  std::vector<ConfigIssue> issues;
  rules(R"(rules:
  - name: my_rx
    type: threshold
    metric: rx_power_dbmm
    warn_below: -9
  - name: too_hot
    type: threshold
    metric: temperature_celsius
    warn_above: 80
    crit_above: 70
  - name: odd
    type: thresold
  - name: pre_fec_ber
    overrides: [{match: {modulation: qam16}, warn_above: 1e-5, crit_above: 1e-4}]
)",
        &issues);
  std::string all;
  for (const auto& i : issues) all += i.format() + "\n";
  EXPECT_NE(all.find("test.yaml:4:"), std::string::npos) << all;
  EXPECT_NE(all.find("'my_rx'"), std::string::npos) << all;
  EXPECT_NE(all.find("unknown metric 'rx_power_dbmm'"), std::string::npos) << all;
  EXPECT_NE(all.find("rule 'too_hot': crit_above must not be below warn_above"), std::string::npos) << all;
  EXPECT_NE(all.find("unknown type 'thresold'"), std::string::npos) << all;
  EXPECT_NE(all.find("'pre_fec_ber'.overrides[0].match.modulation"), std::string::npos) << all;
  EXPECT_EQ(issues.size(), 4u) << all;
}

TEST(Rules, UnknownKeysAndMissingLevelsAreRejected) {
  std::vector<ConfigIssue> issues;
  rules("rules: [{name: x, type: drop, metric: rx_power_dbm}, {name: temperature_high, warn_abov: 3}]", &issues);
  std::string all;
  for (const auto& i : issues) all += i.format() + "\n";
  EXPECT_NE(all.find("rule 'x' (drop) needs at least one of"), std::string::npos) << all;
  EXPECT_NE(all.find("warn_abov: unknown key"), std::string::npos) << all;
}

// The engine keeps one copy of each media name: a module whose media changes
// (same serial) still moves to the new media's levels, and back.
TEST(Rules, AModuleWhoseMediaChangesTakesTheNewMediasLevels) {
  RulesEngine engine(rules(R"(
rules:
  - name: pre_fec_ber
    overrides: [{match: {media: ["*LR*"]}, warn_above: 1e-9, crit_above: 1e-8}]
)"),
                     Topology{}, nullptr);
  const auto warningAt = [&](int poll, const char* media) {
    auto a = module("p1", poll * 30'000, 40);
    auto b = module("p2", poll * 30'000, 40);
    a.mutableIdentity().media = media;
    engine.evaluate("sw", {a, b});
    return gaugeValue(engine.view()->Collect(), "opticsd_pre_fec_ber_threshold_ratio",
                      {{"port", "p1"}, {"severity", "warning"}});
  };
  EXPECT_DOUBLE_EQ(warningAt(1, "10GBASE-SR"), 1e-12);
  EXPECT_DOUBLE_EQ(warningAt(2, "10GBASE-LR"), 1e-9);
  EXPECT_DOUBLE_EQ(warningAt(3, "10GBASE-SR"), 1e-12);
}

TEST(Rules, PerMediaOverridesPickTheBerThresholdInForce) {
  RulesEngine engine(rules(R"(
port_groups: [{name: uplinks, ports: ["up*"]}]
rules:
  - name: pre_fec_ber
    overrides: [{match: {port_group: uplinks}, warn_above: 1e-9, crit_above: 1e-8}]
)"),
                     Topology{}, nullptr);
  engine.evaluate("sw", {module("nrz1", 1000, 40, Modulation::kNrz), module("pam1", 1000, 40, Modulation::kPam4),
                         module("up1", 1000, 40, Modulation::kPam4)});
  const auto families = engine.view()->Collect();
  bool found = false;
  EXPECT_DOUBLE_EQ(
      gaugeValue(families, "opticsd_pre_fec_ber_threshold_ratio", {{"port", "nrz1"}, {"severity", "warning"}}, &found),
      1e-12);
  EXPECT_TRUE(found);
  EXPECT_DOUBLE_EQ(
      gaugeValue(families, "opticsd_pre_fec_ber_threshold_ratio", {{"port", "pam1"}, {"severity", "warning"}}), 2.4e-6);
  EXPECT_DOUBLE_EQ(
      gaugeValue(families, "opticsd_pre_fec_ber_threshold_ratio", {{"port", "pam1"}, {"severity", "critical"}}),
      2.4e-5);
  EXPECT_DOUBLE_EQ(
      gaugeValue(families, "opticsd_pre_fec_ber_threshold_ratio", {{"port", "up1"}, {"severity", "warning"}}), 1e-9);

  // 1e-8 breaches on the NRZ port only.
  test::RecordingSink sink;
  RulesEngine e2(defaultRuleSet(), Topology{}, &sink);
  for (int i = 1; i <= 3; ++i) {
    auto a = module("nrz1", i * 30'000, 40, Modulation::kNrz);
    auto b = module("pam1", i * 30'000, 40, Modulation::kPam4);
    a.module.set(ModuleMetric::kPreFecBerRatio, 1e-8);
    b.module.set(ModuleMetric::kPreFecBerRatio, 1e-8);
    e2.evaluate("sw", {a, b});
  }
  ASSERT_EQ(sink.raises(), 1u);
  EXPECT_EQ(sink.records[0].port, "nrz1");
  EXPECT_EQ(sink.records[0].severity, Severity::kCritical);
  const auto f2 = e2.view()->Collect();
  EXPECT_EQ(gaugeValue(f2, "opticsd_finding",
                       {{"port", "nrz1"}, {"rule", "pre_fec_ber"}, {"severity", "critical"}, {"target", "sw"}}),
            1);
  EXPECT_GT(gaugeValue(f2, "opticsd_straggler_suspect_score", {{"port", "nrz1"}}), 0.5);
  EXPECT_EQ(gaugeValue(f2, "opticsd_straggler_suspect_score", {{"port", "pam1"}}), 0);
}

TEST(Rules, GlobsMatchStarsAndQuestionMarks) {
  EXPECT_TRUE(globMatch("*LR*", "10GBASE-LR"));
  EXPECT_TRUE(globMatch("*LR*", "100GBASE-LR4"));
  EXPECT_FALSE(globMatch("*LR*", "10GBASE-SR"));
  EXPECT_TRUE(globMatch("OSFP*", "OSFP"));
  EXPECT_FALSE(globMatch("OSFP*", "QSFP-DD"));
  EXPECT_TRUE(globMatch("Ethernet?", "Ethernet7"));
  EXPECT_FALSE(globMatch("Ethernet?", "Ethernet17"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_FALSE(globMatch("", "x"));
}

// One lane at `rx_dbm`, with the media and form factor the overrides match on.
Sample opticAt(const std::string& port, double rx_dbm, const std::string& media, const std::string& form_factor) {
  Sample s = module(port, 30'000, 40, Modulation::kNrz);
  s.mutableIdentity().media = media;
  s.mutableIdentity().form_factor = form_factor;
  Lane lane;
  lane.number = 1;
  lane.values.set(LaneMetric::kRxPowerDbm, rx_dbm);
  s.lanes.push_back(lane);
  return s;
}

TEST(Rules, MediaAndFormFactorOverridesPickTheRxLevels) {
  // Shipped: -10 dBm for short-reach NRZ, -14 for *LR*/*ER*/*ZR* NRZ receivers.
  test::RecordingSink shipped;
  RulesEngine engine(defaultRuleSet(), Topology{}, &shipped);
  engine.evaluate("sw", {opticAt("sr", -12, "10GBASE-SR", "SFP+"), opticAt("lr", -12, "10GBASE-LR", "SFP+"),
                         opticAt("zr", -15, "10GBASE-ZR", "SFP+")});
  ASSERT_NE(shipped.firstRaise("sr", "rx_power_low"), nullptr) << "-12 dBm on a short-reach receiver";
  EXPECT_EQ(shipped.firstRaise("lr", "rx_power_low"), nullptr) << "-12 dBm is fine for a long-reach receiver";
  ASSERT_NE(shipped.firstRaise("zr", "rx_power_low"), nullptr) << "-15 dBm is below the long-reach warning";

  test::RecordingSink custom;
  RulesEngine by_form(rules(R"(
rules:
  - name: rx_power_low
    overrides: [{match: {form_factor: ["OSFP*"]}, warn_below: -5, crit_below: -8}]
)"),
                      Topology{}, &custom);
  by_form.evaluate("sw",
                   {opticAt("osfp", -6, "800GBASE-2xFR4", "OSFP"), opticAt("qsfp", -6, "400GBASE-FR4", "QSFP-DD")});
  EXPECT_NE(custom.firstRaise("osfp", "rx_power_low"), nullptr);
  EXPECT_EQ(custom.firstRaise("qsfp", "rx_power_low"), nullptr);
}

TEST(Rules, DisabledRuleNeverFires) {
  test::RecordingSink sink;
  RulesEngine engine(rules("rules: [{name: temperature_high, enabled: false}]"), Topology{}, &sink);
  for (int i = 1; i <= 5; ++i) engine.evaluate("sw", {module("p1", i * 30'000, 90)});
  EXPECT_EQ(sink.raises(), 0u);
}

using test::TempDir;

// The history store the daemon gives the engine as its FindingSink.
Result<std::unique_ptr<SqliteStore>> openHistory(const std::filesystem::path& db) {
  StoreOptions o;
  o.path = db;
  return SqliteStore::open(o);
}

TEST(Rules, ActiveFindingsSurviveARestartThroughTheStore) {
  TempDir dir;
  const auto db = dir.file("history.db");
  std::int64_t t = 1'700'000'000'000;
  {
    auto store = openHistory(db);
    ASSERT_TRUE(store) << store.error().message;
    RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
    for (int i = 0; i < 3; ++i) engine.evaluate("sw", {module("p1", t += 30'000, 72), module("p2", t, 40)});
    ASSERT_EQ(engine.activeFindings().size(), 1u);
    ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  }
  FindingsFilter active;
  active.active_only = true;
  auto loaded = loadFindings(db, active);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->size(), 1u);
  const std::int64_t start = (*loaded)[0].start_ms;
  EXPECT_EQ((*loaded)[0].rule, "temperature_high");
  EXPECT_EQ((*loaded)[0].value, 72);
  EXPECT_NE((*loaded)[0].detail.find("temperature_celsius=72"), std::string::npos) << (*loaded)[0].detail;

  // "Restart": a new engine adopts the finding; a still-hot module raises
  // nothing new, a cooled one clears it with an end time in the store.
  auto store = openHistory(db);
  ASSERT_TRUE(store);
  test::RecordingSink probe;
  {
    RulesEngine engine(defaultRuleSet(), Topology{}, &probe);
    engine.restore(*loaded);
    engine.evaluate("sw", {module("p1", t += 30'000, 72)});
    EXPECT_EQ(probe.records.size(), 0u);
    ASSERT_EQ(engine.activeFindings().size(), 1u);
    EXPECT_EQ(engine.activeFindings()[0].start_ms, start);
  }
  RulesEngine engine(defaultRuleSet(), Topology{}, store->get());
  engine.restore(*loaded);
  for (int i = 0; i < 3; ++i) engine.evaluate("sw", {module("p1", t += 30'000, 40)});
  EXPECT_TRUE(engine.activeFindings().empty());
  ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  auto all = loadFindings(db, FindingsFilter{});
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].start_ms, start);
  ASSERT_TRUE((*all)[0].end_ms);
  EXPECT_EQ(*(*all)[0].end_ms, t);
}

TEST(Rules, SuspectsAreStoredWithTheHostBehindThePort) {
  TempDir dir;
  const auto db = dir.file("history.db");
  std::vector<ConfigIssue> issues;
  Topology topo = parseTopology(
      YAML::Load("links: [{switch: sw, ports: p1-4, host: 'gpu-node-{n}', gpu: '3', rail: '4'}]"), "t.yaml", issues);
  ASSERT_TRUE(issues.empty());
  auto store = openHistory(db);
  ASSERT_TRUE(store);
  RulesEngine engine(defaultRuleSet(), std::move(topo), store->get());
  std::int64_t t = 1'000'000;
  // Enough polls for the finding's certainty to outweigh the raw BER reading.
  for (int i = 0; i < 8; ++i) {
    auto bad = module("p2", t += 30'000, 40, Modulation::kPam4);
    bad.module.set(ModuleMetric::kPreFecBerRatio, 1e-4);
    engine.evaluate("sw", {module("p1", t, 40), bad});
  }
  ASSERT_TRUE((*store)->flush(std::chrono::seconds(10)));
  auto suspects = loadSuspects(db);
  ASSERT_TRUE(suspects) << suspects.error().message;
  ASSERT_EQ(suspects->size(), 1u);
  EXPECT_EQ((*suspects)[0].port, "p2");
  EXPECT_EQ((*suspects)[0].endpoint.host, "gpu-node-2");
  EXPECT_EQ((*suspects)[0].endpoint.rail, "4");
  EXPECT_NE((*suspects)[0].reason.find("pre_fec_ber"), std::string::npos) << (*suspects)[0].reason;
}

TEST(Rules, TopologyInfoNamesWhatSitsBehindEachPortAndFollowsLldp) {
  std::vector<ConfigIssue> issues;
  Topology topo = parseTopology(
      YAML::Load("links: [{switch: sw, ports: p1-2, host: 'gpu-node-{n}', nic: nic0, rail: '3'}]"), "t.yaml", issues);
  ASSERT_TRUE(issues.empty());
  RulesEngine engine(defaultRuleSet(), std::move(topo), nullptr);
  engine.evaluate("sw", {module("p1", 1'000, 40), module("p2", 1'000, 40), module("p3", 1'000, 40)});
  const auto info = [&](const std::map<std::string, std::string>& labels) {
    bool found = false;
    const double v = gaugeValue(engine.view()->Collect(), "opticsd_port_topology_info", labels, &found);
    return found ? v : -1.0;
  };
  EXPECT_EQ(info({{"port", "p2"}, {"host", "gpu-node-2"}, {"nic", "nic0"}, {"rail", "3"}}), 1);
  EXPECT_EQ(info({{"port", "p3"}}), -1) << "a port nothing is known about has no series";

  // LLDP fills p3 in; the next poll publishes it without any rule changing.
  engine.setNeighbors("sw", {{"p3", "gpu-node-9", "enp1s0"}});
  engine.evaluate("sw", {module("p1", 2'000, 40), module("p2", 2'000, 40), module("p3", 2'000, 40)});
  EXPECT_EQ(info({{"port", "p3"}, {"host", "gpu-node-9"}, {"nic", "enp1s0"}}), 1);
}

}  // namespace
}  // namespace opticsd
