// `opticsd poll-once` prints what /metrics serves: its JSON is made from the
// same published poll (one Pipeline, one PollPreparation) the exporter's
// cache takes, so the two agree value for value. The demo fleet is polled
// twice through the daemon's sinks (PollSinks), with poll-once's JSON
// (pollToJson) collected by one more sink, and every module and lane value of
// the second poll's JSON is compared with the /metrics series of the same
// target, port and lane, and every such series with its JSON value. The
// second poll carries what only the preparation adds (pre-FEC BER from the
// counters of two polls).

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/config/config.hpp"
#include "daemon/exporter/metrics_exporter.hpp"
#include "daemon/exporter/sample_series.hpp"
#include "daemon/output/poll_json.hpp"
#include "daemon/output/sample_json.hpp"
#include "daemon/pipeline/pipeline.hpp"
#include "daemon/rules/rules_engine.hpp"
#include "daemon/service/poll_sinks.hpp"
#include "daemon/service/target_plans.hpp"

namespace opticsd {
namespace {

constexpr std::int64_t kFirstPollMs = 1'800'000'000'000;
constexpr std::int64_t kIntervalMs = 30'000;

// What poll-once would print for each target: the same function on the same poll.
class PollOnceJson : public PollSink {
 public:
  void onPoll(const PublishedPoll& poll) override {
    json[poll.target] = pollToJson(poll);
    samples[poll.target] = poll.samples;
  }
  void onPollFailed(const FailedPoll& poll) override { json[poll.target] = pollToJson(poll); }
  std::map<std::string, nlohmann::json> json;
  std::map<std::string, std::shared_ptr<const std::vector<Sample>>> samples;  // the poll the JSON was made of
};

// "name{target=...,port=...,lane=...}" as a key independent of label order.
std::string seriesKey(const std::string& name, const std::string& target, const std::string& port, int lane = 0) {
  return name + "|" + target + "|" + port + "|" + (lane > 0 ? std::to_string(lane) : "");
}

// The module and lane value series of a /metrics text, by seriesKey.
std::map<std::string, double> valueSeries(const std::string& text, const std::vector<std::string>& families) {
  std::map<std::string, double> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto brace = line.find('{');
    const auto close = line.rfind('}');
    if (brace == std::string::npos || close == std::string::npos) continue;
    const std::string name = line.substr(0, brace);
    if (std::find(families.begin(), families.end(), name) == families.end()) continue;
    std::map<std::string, std::string> labels;
    std::istringstream parts(line.substr(brace + 1, close - brace - 1));
    for (std::string part; std::getline(parts, part, ',');) {
      const auto eq = part.find('=');
      labels[part.substr(0, eq)] = part.substr(eq + 2, part.size() - eq - 3);  // strip the quotes
    }
    const int lane = labels.contains("lane") ? std::stoi(labels["lane"]) : 0;
    out[seriesKey(name, labels["target"], labels["port"], lane)] = std::stod(line.substr(close + 2));
  }
  return out;
}

bool same(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

TEST(PollOnceMatchesMetrics, DemoFleetValueForValue) {
  auto config = loadDemoConfig();
  ASSERT_TRUE(config) << config.error().format();
  ExporterOptions listen;
  listen.listen = "127.0.0.1:0";
  auto exporter = MetricsExporter::start(listen, "test");
  ASSERT_TRUE(exporter) << exporter.error().message;
  (*exporter)->setExportPolicy(config->export_policy);
  RulesEngine rules(config->rules, config->topology);
  PollSinks sinks(**exporter, &rules, nullptr, nullptr);
  auto& poll_once = sinks.add<PollOnceJson>();  // one more consumer: one line
  Pipeline pipeline;
  sinks.attach(pipeline);

  boost::asio::io_context io;
  std::vector<std::string> errors;
  auto plans = buildTargetPlans(*config, io, errors);
  ASSERT_TRUE(errors.empty());
  std::vector<std::string> names;
  for (const auto& plan : plans) names.push_back(plan.name);
  pipeline.setTargets(names);
  for (const std::int64_t at : {kFirstPollMs, kFirstPollMs + kIntervalMs}) {
    std::vector<PollReport> reports(plans.size());
    for (std::size_t i = 0; i < plans.size(); ++i) {
      reports[i].target = plans[i].name;
      reports[i].driver = plans[i].driver_name;
      reports[i].started_ms = at;
      plans[i].driver->poll(at, [&report = reports[i]](PollResult result) {
        report.ok = !result.failed();
        report.result = std::move(result);
      });
    }
    io.restart();
    io.run();
    for (auto& report : reports) pipeline.onReport(report);
  }

  using namespace exporter_detail;
  std::vector<std::string> families;
  for (std::size_t i = 0; i < kModuleMetricCount; ++i) families.push_back(familySpecs()[kModuleValueBase + i].name);
  for (std::size_t i = 0; i < kLaneMetricCount; ++i) families.push_back(familySpecs()[kLaneValueBase + i].name);
  std::map<std::string, double> metrics = valueSeries((*exporter)->render(), families);
  ASSERT_GT(metrics.size(), 1000u) << "the demo's value series were not found";

  // Every JSON value the export level carries is on /metrics with the same value.
  const auto exported = [&](const std::string& family) {
    return std::any_of(metrics.begin(), metrics.end(),
                       [&](const auto& entry) { return entry.first.rfind(family + "|", 0) == 0; });
  };
  std::size_t compared = 0;
  std::size_t derived_ber = 0;
  ASSERT_EQ(poll_once.json.size(), names.size());
  for (const auto& entry : poll_once.json) {
    // Named, not bound: the lambda below captures it (clang 14 cannot capture a structured binding).
    const std::string& target = entry.first;
    const nlohmann::json& json = entry.second;
    ASSERT_TRUE(json["ok"].get<bool>()) << target;
    for (const auto& sample : json["samples"]) {
      const std::string port = sample["port"];
      const auto check = [&](const std::string& family, double value, double scale, int lane) {
        if (!exported(family)) return;
        const auto it = metrics.find(seriesKey(family, target, port, lane));
        ASSERT_NE(it, metrics.end()) << family << " " << target << " " << port << " lane " << lane
                                     << ": in poll-once's JSON, not on /metrics";
        EXPECT_TRUE(same(it->second, value * scale)) << family << " " << target << " " << port << " lane " << lane
                                                     << ": /metrics " << it->second << ", poll-once " << value * scale;
        metrics.erase(it);
        ++compared;
      };
      if (sample.contains("module")) {
        for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
          const std::string key(info(static_cast<ModuleMetric>(i)).key);
          if (!sample["module"].contains(key)) continue;
          if (key == "pre_fec_ber_ratio") ++derived_ber;
          check(familySpecs()[kModuleValueBase + i].name, sample["module"][key].get<double>(), moduleKeys()[i].scale,
                0);
        }
      }
      for (const auto& lane : sample.value("lanes", nlohmann::json::array())) {
        for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
          const std::string key(info(static_cast<LaneMetric>(i)).key);
          if (!lane.contains(key)) continue;
          check(familySpecs()[kLaneValueBase + i].name, lane[key].get<double>(), laneKeys()[i].scale,
                lane["lane"].get<int>());
        }
      }
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(derived_ber, 0u) << "no pre-FEC BER in poll-once's JSON: the preparation was skipped";

  // The FEC codeword histogram: every bin of every port, bounds and count as
  // the Sample has them; the second poll's tail and margin as /metrics has them.
  const std::map<std::string, double> tails =
      valueSeries((*exporter)->render(), {"opticsd_port_fec_tail_symbols", "opticsd_port_fec_margin_symbols"});
  std::size_t bins = 0;
  std::size_t tails_seen = 0;
  for (const auto& [target, json] : poll_once.json) {
    const auto& samples = *poll_once.samples.at(target);
    ASSERT_EQ(json["samples"].size(), samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const Sample& s = samples[i];
      const auto& j = json["samples"][i];
      if (s.fec.histogram.empty()) {
        EXPECT_FALSE(j.contains("fec") && j["fec"].contains("histogram")) << target << " " << s.port;
        continue;
      }
      ASSERT_TRUE(j["fec"].contains("histogram")) << target << " " << s.port << ": bins missing from poll-once";
      const auto& h = j["fec"]["histogram"];
      ASSERT_EQ(h.size(), s.fec.histogram.size());
      for (std::size_t b = 0; b < h.size(); ++b) {
        EXPECT_EQ(h[b]["low"].get<int>(), s.fec.histogram[b].low);
        EXPECT_EQ(h[b]["high"].get<int>(), s.fec.histogram[b].high);
        EXPECT_EQ(h[b]["codewords_total"].get<std::uint64_t>(), *s.fec.histogram[b].codewords_total);
        ++bins;
      }
      EXPECT_EQ(j["fec"]["correctable_symbols"].get<int>(), *s.fec.correctable_symbols);
      const auto tail = tails.find(seriesKey("opticsd_port_fec_tail_symbols", target, s.port));
      if (tail == tails.end()) {
        EXPECT_FALSE(j["fec"].contains("tail_symbols")) << target << " " << s.port;
        continue;
      }
      ++tails_seen;
      ASSERT_TRUE(j["fec"].contains("tail_symbols")) << target << " " << s.port;
      EXPECT_EQ(j["fec"]["tail_symbols"].get<double>(), tail->second);
      EXPECT_EQ(j["fec"]["margin_symbols"].get<double>(),
                tails.at(seriesKey("opticsd_port_fec_margin_symbols", target, s.port)));
    }
  }
  EXPECT_GT(bins, 1000u);
  EXPECT_GT(tails_seen, 0u) << "no port had a tail on the second poll";
  // Nothing on /metrics that poll-once did not print.
  for (const auto& [series, value] : metrics) ADD_FAILURE() << series << " " << value << ": on /metrics only";
}

}  // namespace
}  // namespace opticsd

namespace opticsd {
namespace {

// A NIC that counts the histogram per lane (kernel 6.18+): per-lane counts
// in poll-once's JSON, and the lane tails and margins of a window; a lane
// that did not grow is null, not 0.
TEST(PollOnceJson, HistogramBinsPerLaneAndTheLaneTails) {
  Sample s;
  s.target = "host-1";
  s.port = "eth2";
  s.fec.correctable_symbols = 15;
  s.fec.histogram = {{0, 0, 1000, {600, 400}}, {1, 3, std::nullopt, {7, 0}}, {4, 15, 2, {}}};
  s.fec.tail.symbols = 15;
  s.fec.tail.lane_symbols = {3, std::nullopt};
  const auto j = sampleToJson(s);
  const auto& h = j["fec"]["histogram"];
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0]["low"], 0);
  EXPECT_EQ(h[0]["high"], 0);
  EXPECT_EQ(h[0]["codewords_total"], 1000);
  EXPECT_EQ(h[0]["lane_codewords_total"], nlohmann::json({600, 400}));
  EXPECT_EQ(h[1]["low"], 1);
  EXPECT_EQ(h[1]["high"], 3);
  EXPECT_FALSE(h[1].contains("codewords_total")) << "a total the NIC does not give is absent";
  EXPECT_EQ(h[1]["lane_codewords_total"], nlohmann::json({7, 0}));
  EXPECT_FALSE(h[2].contains("lane_codewords_total"));
  EXPECT_EQ(j["fec"]["correctable_symbols"], 15);
  EXPECT_EQ(j["fec"]["tail_symbols"], 15);
  EXPECT_EQ(j["fec"]["margin_symbols"], 0);
  EXPECT_EQ(j["fec"]["lane_tail_symbols"], nlohmann::json({3, nullptr}));
  EXPECT_EQ(j["fec"]["lane_margin_symbols"], nlohmann::json({12, nullptr}));

  Sample none;
  none.port = "eth3";
  none.fec.corrected_blocks_total = 5;
  const auto k = sampleToJson(none);
  for (const char* key : {"histogram", "tail_symbols", "margin_symbols", "correctable_symbols", "lane_tail_symbols"}) {
    EXPECT_FALSE(k["fec"].contains(key)) << key;
  }
}

}  // namespace
}  // namespace opticsd
