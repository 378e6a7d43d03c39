#include "daemon/exporter/exposition_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "daemon/exporter/sample_collector.hpp"
#include "exposition.hpp"

namespace opticsd {
namespace {

// A fleet exercising every series kind and awkward values: escapes, invalid
// bytes, big counters, tiny BERs, negative powers, duplicates, gaps.
LatestSamples::Snapshot awkwardFleet(LatestSamples& cache) {
  for (int t = 0; t < 3; ++t) {
    std::vector<Sample> samples;
    for (int p = 0; p < 5; ++p) {
      Sample s;
      s.port = p == 4 ? "Ethernet1" : "Ethernet" + std::to_string(p) + (p == 2 ? "\"\\\xFF" : "");
      s.module_present = p != 3;
      s.mutableIdentity().family = static_cast<ModuleFamily>(p % 4);
      s.mutableIdentity().vendor = "V\"e\\n\xC3\xA9\xFF";
      s.mutableIdentity().serial = std::string(p * 100, 'S');
      s.mutableIdentity().modulation = static_cast<Modulation>(p % 3);
      for (std::size_t i = 0; i < kModuleMetricCount; ++i) {
        if ((i + p) % 2) s.module.set(static_cast<ModuleMetric>(i), -1.5e-13 * (i + 1) * (p + 1));
        if ((i + p) % 3 == 0) s.shared_thresholds.mutate().module[i] = Thresholds{1e20, 0.1, std::nullopt, -273.15};
        if ((i + p) % 4 == 0) s.module_flags[i] = AlarmFlags{true, false, true, false};
      }
      for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
        if ((i + p) % 2) s.shared_thresholds.mutate().lane[i] = Thresholds{3.3, std::nullopt, 2.97, 123456789.123};
      }
      for (std::uint16_t n = 1; n <= 8; ++n) {
        Lane lane;
        lane.number = n == 8 ? 7 : n;  // duplicate lane 7
        for (std::size_t i = 0; i < kLaneMetricCount; ++i) {
          if ((i + n) % 3) lane.values.set(static_cast<LaneMetric>(i), (n * 1.1 - 5.0) * (i + 1) / 7.0);
          if ((i + n) % 5 == 0) lane.flags[i] = AlarmFlags{false, true, false, true};
        }
        if (n % 2) lane.status.rx_los = n % 3 == 0;
        lane.status.tx_no_light = n == 4;
        lane.status.data_path_state = static_cast<std::uint8_t>(n % 5);
        s.lanes.push_back(lane);
        s.fec.lane_corrected_bits_total.push_back(n % 3 ? std::optional<std::uint64_t>(987654321000ULL * n)
                                                        : std::nullopt);
      }
      s.fec.corrected_blocks_total = 18446744073709551615ULL;
      s.fec.corrected_bits_total = p;
      s.link.up = p % 2 == 0;
      s.link.down_events_total = p;
      s.link.speed_gbps = p * 100.0;
      samples.push_back(s);
    }
    cache.replaceTarget(t == 1 ? "spine\xFF\"1" : "leaf-" + std::to_string(t), std::move(samples));
  }
  return cache.snapshot();
}

std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end == std::string_view::npos ? text.size() : end + 1;
  }
  return out;
}

// The fast text is prometheus-cpp's, byte for byte, except that values are
// given to 15 significant digits, not 16 (exposition_text.cpp appendValue):
// integers exactly, the rest to within half a unit of their 15th digit.
TEST(ExpositionText, IsPrometheusCppsTextWithValuesTo15Digits) {
  LatestSamples cache;
  const auto snapshot = awkwardFleet(cache);
  const std::string reference = test::serialize(SampleCollector::render(snapshot));
  std::string fast;
  appendSampleExposition(snapshot, fast);
  ASSERT_GT(reference.size(), 10000u);
  const auto want = lines(reference);
  const auto got = lines(fast);
  ASSERT_EQ(got.size(), want.size());
  std::size_t rounded = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i].starts_with('#')) {
      EXPECT_EQ(got[i], want[i]);
      continue;
    }
    const std::size_t cut = want[i].rfind(' ');
    ASSERT_EQ(got[i].substr(0, cut + 1), want[i].substr(0, cut + 1));
    const std::string value(want[i].substr(cut + 1));
    const std::string printed(got[i].substr(cut + 1));
    const double v = std::strtod(value.c_str(), nullptr);
    if (v == std::trunc(v) && std::fabs(v) < 9e18) {
      EXPECT_EQ(printed, value);  // integers exactly
      continue;
    }
    // At most 15 significant digits, and within half a unit of the 15th of
    // prometheus-cpp's value (plus the half unit of the 16th that its text is off).
    std::size_t digits = 0;
    bool leading = true;
    for (const char c : printed.substr(0, printed.find('e'))) {
      if (c >= '1' && c <= '9') leading = false;
      if (std::isdigit(static_cast<unsigned char>(c)) && !leading) ++digits;
    }
    EXPECT_LE(digits, 15u) << printed;
    const double half_unit = 0.55 * std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 14);
    EXPECT_LE(std::fabs(std::strtod(printed.c_str(), nullptr) - v), half_unit) << want[i] << " printed " << printed;
    rounded += printed != value;
  }
  EXPECT_GT(rounded, 100u);  // the fleet has values where the 16th digit shows
}

TEST(ExpositionText, ModuleUnitsPrintAsTheirShortDecimals) {
  // Vcc in 100 uV steps and bias in 2 uA steps, scaled to volts and amperes,
  // print as the register's decimal, not the conversion's binary rounding.
  LatestSamples cache;
  Sample s;
  s.port = "Ethernet1";
  s.module.set(ModuleMetric::kSupplyVoltageVolts, 32931 * 100e-6);  // 3.2931000000000004 as a double
  Lane lane;
  lane.number = 1;
  lane.values.set(LaneMetric::kTxBiasMilliamperes, 4278 * 2e-3);  // 8.556 mA
  s.lanes.push_back(lane);
  cache.replaceTarget("leaf-1", {s});
  std::string text;
  appendSampleExposition(cache.snapshot(), text);
  EXPECT_NE(text.find("opticsd_module_supply_voltage_volts{target=\"leaf-1\",port=\"Ethernet1\"} 3.2931\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("opticsd_lane_tx_bias_amperes{target=\"leaf-1\",port=\"Ethernet1\",lane=\"1\"} 0.008556\n"),
            std::string::npos)
      << text;
}

TEST(ExpositionText, SlicesOfFamiliesInOrderMakeTheSameText) {
  LatestSamples cache;
  const auto snapshot = awkwardFleet(cache);
  std::string whole;
  appendSampleExposition(snapshot, whole);
  for (const std::size_t step : {1u, 3u, 7u, 1000u}) {
    std::string sliced;
    for (std::size_t first = 0; first < sampleFamilyCount(); first += step) {
      std::vector<std::string> parts;
      appendSampleExpositionParts(snapshot, parts, first, first + step);
      appendJoined(parts, sliced);
    }
    EXPECT_EQ(sliced, whole) << "slices of " << step << " families";
  }
}

TEST(ExpositionText, SeriesCountsAreTheLinesOfEachFamily) {
  LatestSamples cache;
  const auto snapshot = awkwardFleet(cache);
  for (const SeriesSelection selection : {SeriesSelection{}, SeriesSelection{nullptr, true, false}}) {
    const std::vector<std::string> bodies = sampleFamilyBodies(snapshot, selection);
    const std::vector<std::size_t> counts = sampleFamilySeriesCounts(snapshot, selection);
    ASSERT_EQ(counts.size(), sampleFamilyCount());
    std::size_t empty = 0;
    for (std::size_t f = 0; f < counts.size(); ++f) {
      EXPECT_EQ(counts[f], static_cast<std::size_t>(std::count(bodies[f].begin(), bodies[f].end(), '\n')))
          << "family " << f;
      empty += counts[f] == 0 ? 1 : 0;
    }
    EXPECT_GT(empty, 0u);  // some families have no series: the plan skips them
    EXPECT_LT(empty, counts.size());
  }
  EXPECT_EQ(sampleFamilySeriesCounts({}), std::vector<std::size_t>(sampleFamilyCount(), 0));
}

TEST(ExpositionText, EmptySnapshotAppendsNothing) {
  std::string out = "prefix";
  appendSampleExposition({}, out);
  EXPECT_EQ(out, "prefix");
}

}  // namespace
}  // namespace opticsd
