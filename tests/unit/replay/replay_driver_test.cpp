// The replay path end to end: fixture directories (tests/fixtures/replay,
// built from the specs by make_fixtures.py) through the ethtool driver's page
// reads and the EEPROM decoders, and FEC sequences through the pipeline's
// BER deriver. Expected values are worked out here from the bytes written.
#include "drivers/replay/replay_driver.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <boost/asio/io_context.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/pipeline/fec_ber_deriver.hpp"
#include "drivers/eeprom/decoder.hpp"
#include "drivers/eeprom/dump_file.hpp"
#include "drivers/link_down_reason.hpp"
#include "drivers/options/option_reader.hpp"
#include "drivers/units.hpp"

namespace opticsd::replay {
namespace {

namespace fs = std::filesystem;

const fs::path kHost = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/replay/synthetic-host";

// dBm as every conversion gives it: to 0.0001 dB (drivers/units.hpp).
double dbm(double mw) { return roundedDbm(10 * std::log10(mw)); }

const Sample& port(const PollResult& result, const std::string& name) {
  for (const auto& s : result.samples) {
    if (s.port == name) return s;
  }
  static const Sample none;
  ADD_FAILURE() << "no sample for " << name;
  return none;
}

const Lane* lane(const Sample& s, std::uint16_t number) {
  for (const auto& l : s.lanes) {
    if (l.number == number) return &l;
  }
  return nullptr;
}

class TempDir {
 public:
  TempDir() {
    path_ =
        fs::temp_directory_path() / ("opticsd-replay-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

ReplayDriver load(const fs::path& dir) {
  auto loaded = loadReplayDirectory(dir);
  EXPECT_TRUE(loaded) << (loaded ? "" : loaded.error().message);
  return ReplayDriver("host1", nullptr, loaded ? std::move(*loaded) : ReplayDirectory{});
}

TEST(ReplayDirectory, LoadsPortsSorted) {
  auto loaded = loadReplayDirectory(kHost);
  ASSERT_TRUE(loaded) << loaded.error().message;
  std::vector<std::string> names;
  for (const auto& p : loaded->ports) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"osfp0", "qsfp0", "sfp0", "trunc0"}));
  EXPECT_FALSE(loadReplayDirectory(kHost / "does-not-exist"));
}

TEST(ReplayDriver, Sff8472FullPath) {
  auto driver = load(kHost);
  const auto result = driver.step(1000);
  const auto& s = port(result, "sfp0");
  EXPECT_EQ(s.target, "host1");
  EXPECT_EQ(s.timestamp_ms, 1000);
  EXPECT_EQ(s.identity().family, ModuleFamily::kSff8472);
  EXPECT_EQ(s.identity().vendor, "OPTIX LABS");
  EXPECT_EQ(s.identity().part_number, "SFP-10G-LR");
  EXPECT_EQ(s.identity().serial, "SFPSER001");
  EXPECT_NEAR(*s.module[ModuleMetric::kTemperatureCelsius], 35.5, 1e-9);
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.3, 1e-9);
  const Lane* l1 = lane(s, 1);
  ASSERT_NE(l1, nullptr);
  EXPECT_NEAR(*l1->values[LaneMetric::kTxBiasMilliamperes], 6.0, 1e-9);
  EXPECT_NEAR(*l1->values[LaneMetric::kTxPowerDbm], dbm(0.5), 1e-6);
  EXPECT_NEAR(*l1->values[LaneMetric::kRxPowerDbm], dbm(0.25), 1e-6);
  ASSERT_TRUE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  EXPECT_NEAR(*s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 75.0, 1e-9);
  EXPECT_TRUE(s.fec.empty());  // no fec.seq for this port
  EXPECT_TRUE(s.issues.empty()) << s.issues.front();
}

TEST(ReplayDriver, Sff8636FullPathWithDarkLane) {
  auto driver = load(kHost);
  const auto result = driver.step(0);
  const auto& s = port(result, "qsfp0");
  EXPECT_EQ(s.identity().family, ModuleFamily::kSff8636);
  EXPECT_EQ(s.identity().serial, "QSFPSER01");
  EXPECT_NEAR(*s.module[ModuleMetric::kTemperatureCelsius], 41.0, 1e-9);
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.25, 1e-9);
  ASSERT_EQ(s.lanes.size(), 4u);
  const double rx[] = {0.8, 0.7, 0.6};
  const double bias[] = {7.0, 7.2, 7.4, 7.6};
  for (std::uint16_t i = 0; i < 4; ++i) {
    const Lane* l = lane(s, i + 1);
    ASSERT_NE(l, nullptr);
    EXPECT_NEAR(*l->values[LaneMetric::kTxBiasMilliamperes], bias[i], 1e-9);
    EXPECT_NEAR(*l->values[LaneMetric::kTxPowerDbm], dbm(0.9), 1e-6);
    if (i < 3) {
      EXPECT_NEAR(*l->values[LaneMetric::kRxPowerDbm], dbm(rx[i]), 1e-6);
    }
  }
  // Lane 4 is dark: the floor and the flag, never -inf or 0 dBm.
  EXPECT_EQ(*lane(s, 4)->values[LaneMetric::kRxPowerDbm], kNoLightFloorDbm);
  EXPECT_EQ(lane(s, 4)->status.rx_no_light, true);
  // Thresholds come from page 03h, which only the advertised-pages round reads.
  ASSERT_TRUE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  EXPECT_NEAR(*s.thresholds(ModuleMetric::kTemperatureCelsius)->low_alarm, -5.0, 1e-9);
  ASSERT_TRUE(s.thresholds(LaneMetric::kTxBiasMilliamperes));
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 15.0, 1e-9);
  EXPECT_EQ(s.link.speed_gbps, 100.0);
  EXPECT_EQ(s.fec.corrected_bits_total, 1000u);
}

TEST(ReplayDriver, CmisFullPath) {
  auto driver = load(kHost);
  const auto result = driver.step(0);
  const auto& s = port(result, "osfp0");
  EXPECT_EQ(s.identity().family, ModuleFamily::kCmis);
  EXPECT_EQ(s.identity().serial, "CMISSER01");
  EXPECT_EQ(s.identity().part_number, "QDD-400G-DR4");
  EXPECT_EQ(s.identity().firmware_version, "2.5");
  EXPECT_NEAR(*s.module[ModuleMetric::kTemperatureCelsius], 45.25, 1e-9);
  EXPECT_NEAR(*s.module[ModuleMetric::kSupplyVoltageVolts], 3.3, 1e-9);
  const double tx_mw[] = {1.5, 1.4, 1.3, 1.2};
  const double rx_mw[] = {1.1, 1.0, 0.9};
  for (std::uint16_t i = 0; i < 4; ++i) {
    const Lane* l = lane(s, i + 1);
    ASSERT_NE(l, nullptr) << "lane " << i + 1;
    EXPECT_NEAR(*l->values[LaneMetric::kTxPowerDbm], dbm(tx_mw[i]), 1e-6);
    EXPECT_NEAR(*l->values[LaneMetric::kTxBiasMilliamperes], (3000 + 100 * i) * 0.002, 1e-9);
    if (i < 3) {
      EXPECT_NEAR(*l->values[LaneMetric::kRxPowerDbm], dbm(rx_mw[i]), 1e-6);
    }
    EXPECT_EQ(l->status.data_path_state, 4);
  }
  ASSERT_TRUE(s.thresholds(LaneMetric::kTxBiasMilliamperes));
  EXPECT_NEAR(*s.thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm, 100.0, 1e-9);
  for (const auto& issue : s.issues) EXPECT_EQ(issue.find("read"), std::string::npos) << issue;
}

TEST(ReplayDriver, TruncatedPageIsAnIssueAndTheRestStillDecodes) {
  auto driver = load(kHost);
  const auto result = driver.step(0);
  const auto& s = port(result, "trunc0");
  EXPECT_EQ(s.identity().serial, "TRUNCSER1");
  bool short_read = false;
  for (const auto& issue : s.issues)
    short_read =
        short_read || (issue.find("short read") != std::string::npos && issue.find("page 0x03") != std::string::npos);
  EXPECT_TRUE(short_read);
  // The 48 bytes that are there (temperature and Vcc thresholds) decode; the
  // lane thresholds beyond the cut are not reported.
  ASSERT_TRUE(s.thresholds(ModuleMetric::kTemperatureCelsius));
  EXPECT_NEAR(*s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm, 75.0, 1e-9);
  EXPECT_FALSE(s.thresholds(LaneMetric::kTxPowerDbm));
  EXPECT_NEAR(*s.module[ModuleMetric::kTemperatureCelsius], 41.0, 1e-9);
}

TEST(ReplayDriver, ModuleSwapReportsTheNewSerial) {
  auto driver = load(kHost);
  std::vector<std::string> serials;
  std::vector<double> temps;
  for (int step = 0; step < 5; ++step) {
    const auto result = driver.step(step * 10'000);
    serials.push_back(port(result, "osfp0").identity().serial);
    temps.push_back(port(result, "osfp0").module[ModuleMetric::kTemperatureCelsius].value_or(-1));
  }
  EXPECT_EQ(serials, (std::vector<std::string>{"CMISSER01", "CMISSER01", "CMISSER01", "CMISSER02", "CMISSER02"}));
  EXPECT_NEAR(temps[3], 38.0, 1e-9);
}

TEST(ReplayDriver, StepIntervalStampsSamplesWithTheCapturesTimeNotTheClock) {
  auto loaded = loadReplayDirectory(kHost);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ReplayDriver driver("host1", nullptr, std::move(*loaded), 30'000);
  // Polled every 10 ms by the scheduler: the Samples still advance 30 s a step.
  for (int step = 0; step < 4; ++step) {
    const auto result = driver.step(1'700'000'000'000 + step * 10);
    ASSERT_FALSE(result.samples.empty());
    for (const auto& s : result.samples) EXPECT_EQ(s.timestamp_ms, 1'700'000'000'000 + step * 30'000LL) << s.port;
  }
  // Without it, the scheduler's clock.
  auto plain = load(kHost);
  EXPECT_EQ(plain.step(1234).samples.front().timestamp_ms, 1234);
}

TEST(ReplayDriver, FecSequenceWithResetThroughTheDeriver) {
  auto driver = load(kHost);
  FecBerDeriver deriver;
  std::vector<std::optional<double>> port_ber, lane1_ber, osfp_ber;
  for (int step = 0; step < 5; ++step) {
    auto result = driver.step(step * 10'000);  // polled every 10 s
    for (auto& s : result.samples) deriver.apply(s);
    const auto& q = port(result, "qsfp0");
    port_ber.push_back(q.module[ModuleMetric::kPreFecBerRatio]);
    lane1_ber.push_back(lane(q, 1) ? lane(q, 1)->values[LaneMetric::kPreFecBerRatio] : std::nullopt);
    osfp_ber.push_back(port(result, "osfp0").module[ModuleMetric::kPreFecBerRatio]);
  }
  const double carried = 4 * 25.78125e9 * 10;  // 100G: 4 lanes x 25.78125 Gb/s x 10 s
  EXPECT_FALSE(port_ber[0]);                   // first sample
  ASSERT_TRUE(port_ber[1]);
  EXPECT_NEAR(*port_ber[1], (1031250 - 1000) / carried, 1e-15);
  EXPECT_NEAR(*lane1_ber[1], (257812 - 250) / (carried / 4), 1e-15);
  EXPECT_FALSE(port_ber[2]);  // the reset: no negative rate, no spike
  EXPECT_FALSE(lane1_ber[2]);
  ASSERT_TRUE(port_ber[3]);
  EXPECT_NEAR(*port_ber[3], 1e-4, 1e-12);
  EXPECT_NEAR(*lane1_ber[3], 4e-4, 1e-12);
  ASSERT_TRUE(port_ber[4]);  // the sequence holds its last line: no errors since, a real 0
  EXPECT_EQ(*port_ber[4], 0.0);
  // osfp0: blocks only, 75 bits a block over 8 x 53.125 Gb/s.
  EXPECT_FALSE(osfp_ber[0]);
  ASSERT_TRUE(osfp_ber[1]);
  EXPECT_NEAR(*osfp_ber[1], 5666667.0 * 75 / (8 * 53.125e9 * 10), 1e-12);
  EXPECT_FALSE(osfp_ber[3]);  // swapped module (and its counters restarted)
  ASSERT_TRUE(osfp_ber[4]);
  EXPECT_EQ(*osfp_ber[4], 0.0);
}

TEST(ReplayDriver, CaptureRoundTripGivesIdenticalSamples) {
  auto loaded = loadReplayDirectory(kHost);
  ASSERT_TRUE(loaded);
  TempDir dir;
  for (const auto& p : loaded->ports) {
    std::vector<FecStep> steps;
    for (std::size_t i = 0; i < p.fec.size(); ++i) {
      const auto r = readingAt(p, i);
      steps.push_back({r.fec, r.link, {}, false});
    }
    ASSERT_TRUE(writeCapturePort(dir.path(), readingAt(p, 0), steps));
  }
  auto original = load(kHost);
  auto replayed = load(dir.path());
  const auto a = original.step(5);
  const auto b = replayed.step(5);
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    const auto& x = a.samples[i];
    const auto& y = b.samples[i];
    EXPECT_EQ(x.port, y.port);
    EXPECT_EQ(x.identity().serial, y.identity().serial);
    EXPECT_EQ(x.identity().media, y.identity().media);
    EXPECT_EQ(x.issues, y.issues);
    EXPECT_EQ(x.lanes.size(), y.lanes.size());
    for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
      EXPECT_EQ(x.module[static_cast<ModuleMetric>(m)], y.module[static_cast<ModuleMetric>(m)]);
    }
    for (std::size_t l = 0; l < std::min(x.lanes.size(), y.lanes.size()); ++l) {
      for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
        EXPECT_EQ(x.lanes[l].values[static_cast<LaneMetric>(m)], y.lanes[l].values[static_cast<LaneMetric>(m)]);
      }
    }
    EXPECT_EQ(x.fec.corrected_bits_total, y.fec.corrected_bits_total);
    EXPECT_EQ(x.link.speed_gbps, y.link.speed_gbps);
  }
}

// Every golden fixture of the EEPROM decoders, replayed, decodes to what the
// decoder makes of the whole dump at once: the page plan reads everything
// the decoder needs.
TEST(ReplayDriver, SameSamplesAsTheDecodersGoldenFixtures) {
  const fs::path golden = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/eeprom";
  if (!fs::is_directory(golden)) GTEST_SKIP() << "no decoder fixtures";
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(golden)) {
    const auto dump_path = entry.path() / "module.dump";
    if (!fs::exists(dump_path)) continue;
    SCOPED_TRACE(entry.path().filename().string());
    std::ifstream in(dump_path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto bytes = text.str();
    auto memory = eeprom::parseDumpFile(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(memory);
    Sample direct;
    eeprom::decodeModule(*memory, direct);

    TempDir dir;
    fs::create_directories(dir.path() / "p0");
    fs::copy_file(dump_path, dir.path() / "p0" / "module.dump");
    auto driver = load(dir.path());
    const auto result = driver.step(0);
    ASSERT_EQ(result.samples.size(), 1u);
    const auto& replayed = result.samples[0];
    EXPECT_EQ(replayed.identity().serial, direct.identity().serial);
    EXPECT_EQ(replayed.identity().part_number, direct.identity().part_number);
    EXPECT_EQ(replayed.identity().media, direct.identity().media);
    EXPECT_EQ(replayed.identity().family, direct.identity().family);
    EXPECT_EQ(replayed.issues, direct.issues);
    ASSERT_EQ(replayed.lanes.size(), direct.lanes.size());
    for (std::size_t m = 0; m < kModuleMetricCount; ++m) {
      EXPECT_EQ(replayed.module[static_cast<ModuleMetric>(m)], direct.module[static_cast<ModuleMetric>(m)]);
      EXPECT_EQ(replayed.shared_thresholds->module[m].has_value(), direct.shared_thresholds->module[m].has_value());
    }
    for (std::size_t l = 0; l < direct.lanes.size(); ++l) {
      for (std::size_t m = 0; m < kLaneMetricCount; ++m) {
        EXPECT_EQ(replayed.lanes[l].values[static_cast<LaneMetric>(m)],
                  direct.lanes[l].values[static_cast<LaneMetric>(m)])
            << "lane " << l + 1 << " metric " << m;
      }
    }
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

TEST(ReplayDriver, FactoryReadsDirectoryAndPostsResults) {
  std::vector<ConfigIssue> issues;
  YAML::Node good = YAML::Load("directory: " + kHost.string());
  OptionReader reader(good, "", "targets[0]", issues);
  boost::asio::io_context io;
  auto config = driverEntry().validate("host1", reader);
  ASSERT_NE(config, nullptr) << (issues.empty() ? "" : issues[0].format());
  auto driver = driverEntry().create(DriverContext{"host1", io}, *config);
  ASSERT_TRUE(driver) << driver.error().message;
  std::optional<PollResult> result;
  (*driver)->poll(42, [&](PollResult r) { result = std::move(r); });
  EXPECT_FALSE(result);  // posted, not called from inside poll()
  io.run();
  ASSERT_TRUE(result);
  EXPECT_EQ(result->samples.size(), 4u);
  EXPECT_TRUE(result->errors.empty());

  YAML::Node bad = YAML::Load("directory: /nonexistent/capture\nextra: 1");
  std::vector<ConfigIssue> bad_issues;
  OptionReader bad_reader(bad, "", "targets[1]", bad_issues);
  EXPECT_EQ(driverEntry().validate("host2", bad_reader), nullptr);
  EXPECT_GE(bad_issues.size(), 1u);
}

TEST(ReplayDirectory, RejectsBadSequenceWithFileName) {
  TempDir dir;
  fs::create_directories(dir.path() / "eth0");
  std::ofstream(dir.path() / "eth0" / "fec.seq") << "corrected_bits=1\nbogus=2\n";
  auto loaded = loadReplayDirectory(dir.path());
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find("fec.seq"), std::string::npos);
  EXPECT_NE(loaded.error().message.find("line 2"), std::string::npos);
}

// fec.seq `time_ms=`: Samples carry the capture's own (uneven) times from the
// first poll on, however fast the replay is polled, and keep its last
// interval once the sequence ends; they win over step_interval.
TEST(ReplayDriver, CaptureTimesStampSamplesAtTheirOwnUnevenIntervals) {
  TempDir dir;
  fs::create_directories(dir.path() / "eth0");
  std::ofstream(dir.path() / "eth0" / "fec.seq") << "time_ms=5000 up=1\ntime_ms=35000 up=1\ntime_ms=100000 up=1\n";
  auto loaded = loadReplayDirectory(dir.path());
  ASSERT_TRUE(loaded) << loaded.error().message;
  ReplayDriver driver("host1", nullptr, std::move(*loaded), 30'000);
  const std::int64_t first = 1'700'000'000'000;
  std::vector<std::int64_t> stamped;
  for (int step = 0; step < 4; ++step) {
    const auto result = driver.step(first + step * 10);
    ASSERT_EQ(result.samples.size(), 1u);
    stamped.push_back(result.samples[0].timestamp_ms - first);
  }
  EXPECT_EQ(stamped, (std::vector<std::int64_t>{0, 30'000, 95'000, 160'000}));
}

TEST(ReplayDirectory, RejectsCaptureTimesThatGoBack) {
  TempDir dir;
  fs::create_directories(dir.path() / "eth0");
  std::ofstream(dir.path() / "eth0" / "fec.seq") << "time_ms=30000 up=1\ntime_ms=29999 up=1\n";
  auto loaded = loadReplayDirectory(dir.path());
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find("line 2"), std::string::npos) << loaded.error().message;
}

// A capture carrying the FEC codeword histogram and link-down reasons
// (tests/fixtures/replay/synthetic-fec-histogram/NOTE.md): what a user's bug
// report replays.
const fs::path kHistogram = fs::path(OPTICSD_SOURCE_DIR) / "tests/fixtures/replay/synthetic-fec-histogram";

TEST(ReplayDriver, HistogramTailMarginReasonAndMaintenance) {
  auto loaded = loadReplayDirectory(kHistogram);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ReplayDriver driver("host1", nullptr, std::move(*loaded));
  std::vector<PollResult> steps;
  for (int step = 0; step < 6; ++step) steps.push_back(driver.step(1'700'000'000'000 + step * 30'000));

  const Sample& first = port(steps[0], "eth0");
  ASSERT_EQ(first.fec.histogram.size(), 5u);
  EXPECT_EQ(first.fec.histogram[4].low, 4);
  EXPECT_EQ(first.fec.histogram[4].high, 15);
  EXPECT_FALSE(first.fec.tail.symbols) << "no window on the first step";

  EXPECT_EQ(port(steps[1], "eth0").fec.tail.symbols, std::optional<std::uint16_t>(2));
  EXPECT_EQ(port(steps[1], "eth0").fec.margin(port(steps[1], "eth0").fec.tail.symbols),
            std::optional<std::uint16_t>(13));
  EXPECT_EQ(port(steps[2], "eth0").fec.tail.symbols, std::optional<std::uint16_t>(3));

  const Sample& down = port(steps[3], "eth0");
  EXPECT_EQ(down.link.up, std::optional<bool>(false));
  ASSERT_TRUE(down.link.down_reason);
  EXPECT_EQ(describeLinkDown(*down.link.down_reason).rfind("bad_signal_integrity/bsi_serdes_alos: ", 0), 0u);
  EXPECT_FALSE(down.fec.tail.symbols) << "nothing grew while down";

  const Sample& worst = port(steps[4], "eth0");
  EXPECT_EQ(worst.fec.tail.symbols, std::optional<std::uint16_t>(15));
  EXPECT_EQ(worst.fec.margin(worst.fec.tail.symbols), std::optional<std::uint16_t>(0));
  EXPECT_FALSE(worst.link.down_reason);
  ASSERT_TRUE(worst.link.last_down_reason);

  const Sample& busy = port(steps[5], "eth0");
  ASSERT_TRUE(busy.maintenance);
  EXPECT_EQ(busy.maintenance->reason, "firmware_flashing");
  EXPECT_TRUE(busy.module_present);
  EXPECT_TRUE(busy.issues.empty()) << busy.issues.front();

  // Per-lane bins: each lane its own tail; the port's is the worst.
  const Sample& lanes = port(steps[1], "eth1");
  EXPECT_EQ(lanes.fec.tail.symbols, std::optional<std::uint16_t>(1));
  ASSERT_EQ(lanes.fec.tail.lane_symbols.size(), 4u);
  EXPECT_EQ(lanes.fec.tail.lane_symbols[0], std::optional<std::uint16_t>(0));
  EXPECT_EQ(lanes.fec.tail.lane_symbols[1], std::optional<std::uint16_t>(1));
}

TEST(ReplayDirectory, CaptureWritesHistogramReasonsAndBusyBack) {
  auto loaded = loadReplayDirectory(kHistogram);
  ASSERT_TRUE(loaded) << loaded.error().message;
  TempDir dir;
  for (const auto& p : loaded->ports) {
    module::PortReading first = readingAt(p, 0);
    ASSERT_TRUE(writeCapturePort(dir.path(), first, p.fec));
  }
  auto again = loadReplayDirectory(dir.path());
  ASSERT_TRUE(again) << again.error().message;
  ASSERT_EQ(again->ports.size(), loaded->ports.size());
  for (std::size_t i = 0; i < again->ports.size(); ++i) {
    ASSERT_EQ(again->ports[i].fec.size(), loaded->ports[i].fec.size());
    for (std::size_t k = 0; k < again->ports[i].fec.size(); ++k) {
      const auto& a = again->ports[i].fec[k];
      const auto& b = loaded->ports[i].fec[k];
      EXPECT_EQ(a.fec.histogram, b.fec.histogram);
      EXPECT_EQ(a.fec.correctable_symbols, b.fec.correctable_symbols);
      EXPECT_EQ(a.link.down_reason, b.link.down_reason);
      EXPECT_EQ(a.link.last_down_reason, b.link.last_down_reason);
      EXPECT_EQ(a.busy, b.busy);
    }
  }
}

}  // namespace
}  // namespace opticsd::replay
