#include "drivers/sim/sim_switch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

namespace opticsd::sim {
namespace {

constexpr std::int64_t kEpoch = 1'700'000'000'000;
constexpr std::int64_t kMinute = 60'000;

SimSwitch makeSwitch(SimSwitchConfig config) {
  if (config.name.empty()) config.name = "leaf1";
  auto sw = SimSwitch::create(std::move(config), kEpoch);
  if (!sw) ADD_FAILURE() << sw.error().message;
  return std::move(*sw);
}

SimSwitchConfig withScenario(ScenarioKind kind, int port_index, std::int64_t onset_ms, std::int64_t ramp_ms,
                             int lane_index = -1) {
  SimSwitchConfig c;
  c.seed = 7;
  c.ports = 8;
  c.environment.enabled = false;  // the scenario's effect alone, checked analytically
  ScenarioSpec s;
  s.kind = kind;
  s.port_index = port_index;
  s.lane_index = lane_index;
  s.onset_ms = onset_ms;
  s.ramp_ms = ramp_ms;
  c.scenarios.push_back(s);
  return c;
}

// Every value a Sample carries, printed exactly, so that two Samples compare
// equal only when every field does.
std::string fingerprint(const Sample& s) {
  std::string out = s.target + "|" + s.port + "|" + std::to_string(s.timestamp_ms) + "|" + s.identity().vendor + "|" +
                    s.identity().serial + "|" + s.identity().date_code + "|";
  char buf[40];
  const auto num = [&](const std::optional<double>& v) {
    if (!v) {
      out += "-,";
      return;
    }
    std::snprintf(buf, sizeof(buf), "%.17g,", *v);
    out += buf;
  };
  for (std::size_t m = 0; m < kModuleMetricCount; ++m) num(s.module[static_cast<ModuleMetric>(m)]);
  for (const auto& lane : s.lanes) {
    out += "L" + std::to_string(lane.number) + ":";
    for (std::size_t m = 0; m < kLaneMetricCount; ++m) num(lane.values[static_cast<LaneMetric>(m)]);
    out += lane.status.rx_los.value_or(false) ? "los," : "ok,";
  }
  const auto count = [&](const std::optional<std::uint64_t>& v) { out += v ? std::to_string(*v) + "," : "-,"; };
  count(s.fec.corrected_bits_total);
  count(s.fec.corrected_blocks_total);
  count(s.fec.uncorrectable_blocks_total);
  for (const auto& l : s.fec.lane_corrected_bits_total) count(l);
  count(s.link.down_events_total);
  out += s.link.up.value_or(false) ? "up" : "down";
  return out;
}

double lane(const Sample& s, int lane_number, LaneMetric m) {
  const auto& v = s.lanes.at(static_cast<std::size_t>(lane_number - 1)).values[m];
  EXPECT_TRUE(v.has_value()) << info(m).key;
  return v.value_or(NAN);
}

TEST(SimSwitch, SameSeedGivesTheSameSamplesWhateverTheQueryOrder) {
  SimSwitchConfig c;
  c.seed = 42;
  c.ports = 16;
  const SimSwitch a = makeSwitch(c);
  const SimSwitch b = makeSwitch(c);
  const std::int64_t t1 = kEpoch + 90'000;
  const std::int64_t t2 = kEpoch + 3 * 3600'000;
  for (int p = 0; p < c.ports; ++p) {
    const std::string later = fingerprint(b.sampleAt(p, t2));  // b is asked out of order
    EXPECT_EQ(fingerprint(a.sampleAt(p, t1)), fingerprint(b.sampleAt(p, t1)));
    EXPECT_EQ(fingerprint(a.sampleAt(p, t2)), later);
  }
}

TEST(SimSwitch, DifferentSeedsDifferentPortsAndTimesDiffer) {
  SimSwitchConfig c;
  c.seed = 1;
  c.ports = 16;
  const SimSwitch a = makeSwitch(c);
  c.seed = 2;
  const SimSwitch b = makeSwitch(c);
  std::set<std::string> serials;
  for (int p = 0; p < c.ports; ++p) {
    const Sample sa = a.sampleAt(p, kEpoch);
    const Sample sb = b.sampleAt(p, kEpoch);
    EXPECT_NE(lane(sa, 1, LaneMetric::kTxPowerDbm), lane(sb, 1, LaneMetric::kTxPowerDbm)) << p;
    EXPECT_NE(sa.identity().serial, sb.identity().serial);
    serials.insert(sa.identity().serial);
    // Noise moves a value from one second to the next, but only a little.
    const Sample later = a.sampleAt(p, kEpoch + 1000);
    EXPECT_NE(lane(sa, 1, LaneMetric::kRxPowerDbm), lane(later, 1, LaneMetric::kRxPowerDbm));
    EXPECT_NEAR(lane(sa, 1, LaneMetric::kRxPowerDbm), lane(later, 1, LaneMetric::kRxPowerDbm), 0.11);
  }
  EXPECT_EQ(serials.size(), 16u);
}

TEST(SimSwitch, DefaultModuleIsAnEightLanePam4CmisModuleWithIdentity) {
  const SimSwitch sw = makeSwitch({});
  const Sample s = sw.sampleAt(2, kEpoch);
  EXPECT_EQ(s.target, "leaf1");
  EXPECT_EQ(s.port, "Ethernet3");
  EXPECT_EQ(s.timestamp_ms, kEpoch);
  EXPECT_TRUE(s.module_present);
  ASSERT_EQ(s.lanes.size(), 8u);
  EXPECT_EQ(s.lanes[7].number, 8);
  EXPECT_EQ(s.identity().family, ModuleFamily::kCmis);
  EXPECT_EQ(s.identity().form_factor, "OSFP");
  EXPECT_EQ(s.identity().modulation, Modulation::kPam4);
  EXPECT_EQ(s.identity().lane_rate_gbps, 100.0);
  EXPECT_EQ(s.link.lane_line_rate_gbps, 106.25);
  EXPECT_EQ(s.link.speed_gbps, 800.0);
  EXPECT_FALSE(s.identity().vendor.empty());
  EXPECT_FALSE(s.identity().part_number.empty());
  EXPECT_EQ(s.identity().serial.size(), 12u);
  EXPECT_EQ(s.fec.bits_per_block, 5440u);
  ASSERT_TRUE(s.thresholds(LaneMetric::kRxPowerDbm));
  EXPECT_EQ(s.thresholds(LaneMetric::kRxPowerDbm)->low_alarm, -10.4);
  EXPECT_EQ(s.thresholds(LaneMetric::kRxPowerDbm)->low_warning, -8.4);
  EXPECT_TRUE(s.thresholds(LaneMetric::kTxBiasMilliamperes)->high_alarm);
  EXPECT_TRUE(s.thresholds(ModuleMetric::kTemperatureCelsius)->high_alarm);
  EXPECT_EQ(sw.portIndex("Ethernet3"), 2);
  EXPECT_EQ(sw.portIndex("3"), 2);
  EXPECT_FALSE(sw.portIndex("Ethernet33"));
  EXPECT_FALSE(sw.portIndex("Ethernet0"));
  EXPECT_FALSE(sw.portIndex("eth3"));
  EXPECT_FALSE(sw.sampleAt(32, kEpoch).module_present);
}

// Healthy modules over many ports and times stay in the ranges real CMIS
// PAM4 optics show, and raise no flag of their own.
TEST(SimSwitch, HealthyValuesArePlausibleAndRaiseNoFlags) {
  SimSwitchConfig c;
  c.seed = 2024;
  c.ports = 64;
  const SimSwitch sw = makeSwitch(c);
  for (std::int64_t t = kEpoch - 3600'000; t < kEpoch + 48 * 3600'000; t += 3 * 3600'000 + 17'123) {
    for (int p = 0; p < c.ports; ++p) {
      const Sample s = sw.sampleAt(p, t);
      SCOPED_TRACE(s.port + " t=" + std::to_string(t));
      const double temp = *s.module[ModuleMetric::kTemperatureCelsius];
      EXPECT_GE(temp, 35.0);
      EXPECT_LE(temp, 60.0);  // +8 C during a job
      const double vcc = *s.module[ModuleMetric::kSupplyVoltageVolts];
      EXPECT_GE(vcc, 3.25);
      EXPECT_LE(vcc, 3.35);
      EXPECT_TRUE(s.link.up.value_or(false));
      EXPECT_LT(s.link.down_events_total.value_or(99), 4u);
      EXPECT_FALSE(s.module_flags[0]->any());
      for (const Lane& l : s.lanes) {
        const double bias = *l.values[LaneMetric::kTxBiasMilliamperes];
        const double tx = *l.values[LaneMetric::kTxPowerDbm];
        const double rx = *l.values[LaneMetric::kRxPowerDbm];
        const double ber = *l.values[LaneMetric::kPreFecBerRatio];
        EXPECT_GE(bias, 6.0);
        EXPECT_LE(bias, 10.0);  // bias follows a job's heat
        EXPECT_GE(tx, 0.5);
        EXPECT_LE(tx, 2.0);
        EXPECT_GE(rx, -4.5);  // +-3 sigma of AR(1) drift around -1..-4
        EXPECT_LE(rx, -0.5);
        EXPECT_GE(ber, 1e-9);  // BER wander: +-3 sigma of 0.28 decade
        EXPECT_LE(ber, 1e-6);
        EXPECT_LE(*l.values[LaneMetric::kPreFecBerMinRatio], ber);
        EXPECT_GE(*l.values[LaneMetric::kPreFecBerMaxRatio], ber);
        EXPECT_GE(*l.values[LaneMetric::kEsnrDecibels], 19.0);  // FBOSS link-test minimum
        EXPECT_FALSE(l.status.rx_los.value_or(true));
        EXPECT_FALSE(l.status.rx_no_light.value_or(true));
        for (const auto& f : l.flags) EXPECT_FALSE(f && f->any());
      }
      EXPECT_EQ(s.fec.uncorrectable_blocks_total, 0u);
    }
  }
}

TEST(SimSwitch, EveryProfileIsHealthyWithinItsOwnThresholds) {
  for (const ModuleProfile& profile : moduleProfiles()) {
    SCOPED_TRACE(std::string(profile.name));
    SimSwitchConfig c;
    c.module = std::string(profile.name);
    c.ports = 32;
    const SimSwitch sw = makeSwitch(c);
    for (int p = 0; p < c.ports; ++p) {
      const Sample s = sw.sampleAt(p, kEpoch + p * 61'000);
      ASSERT_EQ(s.lanes.size(), static_cast<std::size_t>(profile.lanes));
      EXPECT_EQ(s.identity().media, profile.media);
      for (const Lane& l : s.lanes) {
        for (const auto& f : l.flags) EXPECT_FALSE(f && f->any());
        EXPECT_EQ(l.values[LaneMetric::kPreFecBerRatio].has_value(), profile.has_vdm);
      }
      EXPECT_EQ(s.fec.empty(), !profile.fec.has_value());
      EXPECT_EQ(s.module[ModuleMetric::kPreFecBerRatio].has_value(), profile.fec.has_value());
    }
  }
}

TEST(SimSwitch, NothingChangesBeforeOnset) {
  const SimSwitch healthy = makeSwitch(withScenario(ScenarioKind::kLaserAgeing, 0, 0, 0));  // other ports
  for (const ScenarioInfo& info : scenarioCatalogue()) {
    SCOPED_TRACE(std::string(info.name));
    const SimSwitch sw = makeSwitch(withScenario(info.kind, 3, 10 * kMinute, 5 * kMinute, 2));
    for (std::int64_t t = kEpoch - kMinute; t <= kEpoch + 10 * kMinute; t += 30'000) {
      EXPECT_EQ(fingerprint(sw.sampleAt(3, t)), fingerprint(healthy.sampleAt(3, t))) << t;
    }
    EXPECT_NE(fingerprint(sw.sampleAt(3, kEpoch + 16 * kMinute)),
              fingerprint(healthy.sampleAt(3, kEpoch + 16 * kMinute)));
    // Other ports never change.
    EXPECT_EQ(fingerprint(sw.sampleAt(4, kEpoch + 60 * kMinute)),
              fingerprint(healthy.sampleAt(4, kEpoch + 60 * kMinute)));
  }
}

// Samples a truth signal every 30 s across the ramp and checks its direction.
void expectMonotone(const SimSwitch& sw, int port, int lane_number, TruthSignal signal, bool rising, std::int64_t onset,
                    std::int64_t ramp) {
  std::optional<double> prev;
  for (std::int64_t t = kEpoch + onset; t <= kEpoch + onset + ramp; t += 30'000) {
    const auto v = sw.truthAt(port, lane_number, signal, t);
    ASSERT_TRUE(v);
    if (prev) {
      if (rising) {
        EXPECT_GT(*v, *prev) << "t=" << t - kEpoch;
      } else {
        EXPECT_LT(*v, *prev) << "t=" << t - kEpoch;
      }
    }
    prev = v;
  }
}

TEST(SimSwitch, LaserAgeingRaisesBiasLowersTxAndTheFarEndsRx) {
  const std::int64_t onset = 2 * kMinute, ramp = 30 * kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kLaserAgeing, 1, onset, ramp));
  for (int l = 1; l <= 8; ++l) {
    expectMonotone(sw, 1, l, TruthSignal::kTxBiasMilliamperes, true, onset, ramp);
    expectMonotone(sw, 1, l, TruthSignal::kTxPowerDbm, false, onset, ramp);
    expectMonotone(sw, 1, l, TruthSignal::kFarEndRxPowerDbm, false, onset, ramp);
    // Our own receiver is not affected.
    EXPECT_EQ(sw.truthAt(1, l, TruthSignal::kRxPowerDbm, kEpoch),
              sw.truthAt(1, l, TruthSignal::kRxPowerDbm, kEpoch + onset + ramp));
  }
  const Sample before = sw.sampleAt(1, kEpoch + onset);
  const Sample after = sw.sampleAt(1, kEpoch + onset + ramp);
  EXPECT_GT(lane(after, 1, LaneMetric::kTxBiasMilliamperes), 1.6 * lane(before, 1, LaneMetric::kTxBiasMilliamperes));
  EXPECT_LT(lane(after, 1, LaneMetric::kTxPowerDbm), lane(before, 1, LaneMetric::kTxPowerDbm) - 3.0);
  EXPECT_TRUE(after.lanes[0].flags[0]->high_warning);  // bias past the module's own warning
}

TEST(SimSwitch, DirtyConnectorLowersRxOnAllLanesAndBerRisesSteeply) {
  const std::int64_t onset = 2 * kMinute, ramp = 30 * kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kDirtyConnector, 5, onset, ramp));
  for (int l = 1; l <= 8; ++l) {
    expectMonotone(sw, 5, l, TruthSignal::kRxPowerDbm, false, onset, ramp);
    expectMonotone(sw, 5, l, TruthSignal::kPreFecBerRatio, true, onset, ramp);
  }
  const double ber0 = *sw.truthAt(5, 1, TruthSignal::kPreFecBerRatio, kEpoch + onset);
  const double ber_half = *sw.truthAt(5, 1, TruthSignal::kPreFecBerRatio, kEpoch + onset + ramp / 2);
  const double ber_full = *sw.truthAt(5, 1, TruthSignal::kPreFecBerRatio, kEpoch + onset + ramp);
  // Steep: the second half of the ramp costs far more decades than the first.
  EXPECT_GT(std::log10(ber_full / ber_half), 2.0 * std::log10(ber_half / ber0));
  EXPECT_GT(ber_full, 2e-5);
  const Sample s = sw.sampleAt(5, kEpoch + onset + ramp);
  for (const Lane& l : s.lanes) {
    EXPECT_TRUE(l.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]->low_warning);
  }
  EXPECT_TRUE(s.link.up.value_or(false));
}

TEST(SimSwitch, LaneFailureDarkensOneLaneRaisesLosAndTakesTheLinkDown) {
  const std::int64_t onset = 5 * kMinute, ramp = kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kLaneFailure, 2, onset, ramp, 3));
  expectMonotone(sw, 2, 4, TruthSignal::kRxPowerDbm, false, onset, ramp);
  expectMonotone(sw, 2, 4, TruthSignal::kTxPowerDbm, false, onset, ramp);
  const Sample before = sw.sampleAt(2, kEpoch + onset);
  const Sample s = sw.sampleAt(2, kEpoch + onset + ramp);
  const Lane& dead = s.lanes[3];
  EXPECT_EQ(lane(s, 4, LaneMetric::kRxPowerDbm), kNoLightFloorDbm);
  EXPECT_EQ(lane(s, 4, LaneMetric::kTxPowerDbm), kNoLightFloorDbm);
  EXPECT_TRUE(dead.status.rx_no_light.value_or(false));
  EXPECT_TRUE(dead.status.tx_no_light.value_or(false));
  EXPECT_TRUE(dead.status.rx_los.value_or(false));
  EXPECT_TRUE(dead.status.rx_lol.value_or(false));
  EXPECT_TRUE(dead.status.tx_fault.value_or(false));
  EXPECT_FALSE(dead.values[LaneMetric::kPreFecBerRatio].has_value());  // no lock, no BER
  EXPECT_TRUE(dead.flags[static_cast<std::size_t>(LaneMetric::kRxPowerDbm)]->low_alarm);
  EXPECT_FALSE(s.link.up.value_or(true));
  EXPECT_EQ(*s.link.down_events_total, *before.link.down_events_total + 1);
  for (int l : {1, 2, 3, 5, 6, 7, 8}) {
    EXPECT_NEAR(lane(s, l, LaneMetric::kRxPowerDbm), lane(before, l, LaneMetric::kRxPowerDbm), 0.11) << l;
    EXPECT_FALSE(s.lanes[static_cast<std::size_t>(l - 1)].status.rx_los.value_or(true));
  }
  // A down link carries no traffic: the FEC counters stand still.
  const Sample later = sw.sampleAt(2, kEpoch + onset + ramp + 10 * kMinute);
  EXPECT_EQ(later.fec.corrected_bits_total, s.fec.corrected_bits_total);
}

TEST(SimSwitch, ThermalRunawayClimbsAndBiasFollows) {
  const std::int64_t onset = 2 * kMinute, ramp = 20 * kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kThermalRunaway, 0, onset, ramp));
  expectMonotone(sw, 0, 0, TruthSignal::kTemperatureCelsius, true, onset, ramp);
  expectMonotone(sw, 0, 1, TruthSignal::kTxBiasMilliamperes, true, onset, ramp);
  const Sample s = sw.sampleAt(0, kEpoch + onset + ramp);
  EXPECT_GT(*s.module[ModuleMetric::kTemperatureCelsius], 75.0);
  EXPECT_TRUE(s.module_flags[0]->high_alarm);
  EXPECT_GT(*s.module[ModuleMetric::kLaserTemperatureCelsius], 55.0);  // the TEC gave up
}

TEST(SimSwitch, LinkFlappingCountsSeveralDownEventsPerPollInterval) {
  const std::int64_t onset = 2 * kMinute, ramp = 5 * kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kLinkFlapping, 6, onset, ramp));
  const auto events = [&](std::int64_t t) { return *sw.sampleAt(6, kEpoch + t).link.down_events_total; };
  EXPECT_EQ(events(0), events(onset));
  std::uint64_t prev = events(onset);
  int seen_down = 0;
  for (std::int64_t t = onset + 30'000; t <= onset + ramp + 30 * kMinute; t += 30'000) {
    const std::uint64_t now = events(t);
    EXPECT_GE(now, prev);
    if (t >= onset + ramp + 30'000) {
      EXPECT_GE(now - prev, 5u) << t;
      EXPECT_LE(now - prev, 7u) << t;
    }
    if (!sw.sampleAt(6, kEpoch + t).link.up.value_or(true)) ++seen_down;
    prev = now;
  }
  EXPECT_GT(seen_down, 5);
  EXPECT_LT(seen_down, 60);
}

TEST(SimSwitch, PostFecErrorsCountUncorrectableBlocksOnlyAfterOnset) {
  const std::int64_t onset = 2 * kMinute, ramp = 10 * kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kPostFecErrors, 4, onset, ramp));
  const auto uncorrectable = [&](std::int64_t t) { return *sw.sampleAt(4, kEpoch + t).fec.uncorrectable_blocks_total; };
  EXPECT_EQ(uncorrectable(0), 0u);
  EXPECT_EQ(uncorrectable(onset), 0u);
  expectMonotone(sw, 4, 0, TruthSignal::kUncorrectableBlocksTotal, true, onset + 30'000, ramp);
  const std::uint64_t per_minute = uncorrectable(onset + ramp + 2 * kMinute) - uncorrectable(onset + ramp + kMinute);
  EXPECT_NEAR(static_cast<double>(per_minute), 120.0 * 60, 60);
  expectMonotone(sw, 4, 2, TruthSignal::kPreFecBerRatio, true, onset, ramp);
}

TEST(SimSwitch, CountersAreMonotoneAndMatchTheBerTheyReport) {
  for (const ScenarioInfo& info : scenarioCatalogue()) {
    SCOPED_TRACE(std::string(info.name));
    const SimSwitch sw = makeSwitch(withScenario(info.kind, 1, 3 * kMinute, 20 * kMinute, 0));
    for (int port : {0, 1}) {
      Sample prev = sw.sampleAt(port, kEpoch);
      for (std::int64_t t = 17'000; t <= 40 * kMinute; t += 29'000) {
        const Sample s = sw.sampleAt(port, kEpoch + t);
        EXPECT_GE(*s.fec.corrected_bits_total, *prev.fec.corrected_bits_total);
        EXPECT_GE(*s.fec.corrected_blocks_total, *prev.fec.corrected_blocks_total);
        EXPECT_GE(*s.fec.uncorrectable_blocks_total, *prev.fec.uncorrectable_blocks_total);
        EXPECT_GE(*s.link.down_events_total, *prev.link.down_events_total);
        for (std::size_t l = 0; l < s.fec.lane_corrected_bits_total.size(); ++l) {
          EXPECT_GE(*s.fec.lane_corrected_bits_total[l], *prev.fec.lane_corrected_bits_total[l]);
        }
        prev = s;
      }
    }
  }
  // Derived BER = corrected bits / (line rate x seconds) equals the lane's
  // reported (average) BER, healthy and at full effect of a dirty connector.
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kDirtyConnector, 1, 0, 10 * kMinute));
  for (int port : {0, 1}) {
    const std::int64_t t0 = kEpoch + 20 * kMinute, t1 = t0 + 30'000;
    const Sample a = sw.sampleAt(port, t0);
    const Sample b = sw.sampleAt(port, t1);
    for (std::size_t l = 0; l < 8; ++l) {
      const double bits =
          static_cast<double>(*b.fec.lane_corrected_bits_total[l] - *a.fec.lane_corrected_bits_total[l]);
      const double derived = bits / (106.25e9 * 30.0);
      const double reported = *b.lanes[l].values[LaneMetric::kPreFecBerAvgRatio];
      EXPECT_NEAR(derived / reported, 1.0, 0.01) << "port " << port << " lane " << l + 1;
    }
    // Low BER: nearly every errored codeword carries one bit error.
    const double blocks = static_cast<double>(*b.fec.corrected_blocks_total - *a.fec.corrected_blocks_total);
    const double bits = static_cast<double>(*b.fec.corrected_bits_total - *a.fec.corrected_bits_total);
    if (port == 0) {
      EXPECT_NEAR(blocks / bits, 1.0, 0.05);
    }
  }
}

TEST(SimSwitch, GroundTruthCrossingMatchesTheRampAnalytically) {
  const std::int64_t onset = 2 * kMinute, ramp = 30 * kMinute;
  const SimSwitch sw = makeSwitch(withScenario(ScenarioKind::kDirtyConnector, 3, onset, ramp));
  const double base = *sw.truthAt(3, 2, TruthSignal::kRxPowerDbm, kEpoch);
  const auto t = sw.firstCrossing(3, 2, TruthSignal::kRxPowerDbm, -8.4, Crossing::kFalling, kEpoch, kEpoch + 3600'000);
  ASSERT_TRUE(t);
  // Rx = base - 8 dB x progress: crosses where progress = (base + 8.4) / 8.
  const double expected = static_cast<double>(kEpoch + onset) + (base + 8.4) / 8.0 * static_cast<double>(ramp);
  EXPECT_NEAR(static_cast<double>(*t), expected, 2.0);
  EXPECT_LE(*sw.truthAt(3, 2, TruthSignal::kRxPowerDbm, *t), -8.4);
  EXPECT_GT(*sw.truthAt(3, 2, TruthSignal::kRxPowerDbm, *t - 1), -8.4);
  // BER crosses 1e-6 too, after onset and within the ramp.
  const auto tb =
      sw.firstCrossing(3, 2, TruthSignal::kPreFecBerRatio, 1e-6, Crossing::kRising, kEpoch, kEpoch + 3600'000);
  ASSERT_TRUE(tb);
  EXPECT_GT(*tb, kEpoch + onset);
  EXPECT_LT(*tb, kEpoch + onset + ramp);
  // A healthy port never crosses.
  EXPECT_FALSE(
      sw.firstCrossing(0, 2, TruthSignal::kPreFecBerRatio, 1e-6, Crossing::kRising, kEpoch, kEpoch + 3600'000));
  EXPECT_FALSE(sw.truthAt(3, 9, TruthSignal::kRxPowerDbm, kEpoch));  // no lane 9
  EXPECT_FALSE(sw.truthAt(99, 1, TruthSignal::kRxPowerDbm, kEpoch));
}

TEST(SimSwitch, SffProfilesReportWhatThoseModulesHave) {
  SimSwitchConfig c;
  c.module = "sfp-10g-lr";
  const SimSwitch sfp = makeSwitch(c);
  const Sample s = sfp.sampleAt(0, kEpoch);
  EXPECT_EQ(s.identity().family, ModuleFamily::kSff8472);
  EXPECT_EQ(s.identity().modulation, Modulation::kNrz);
  ASSERT_EQ(s.lanes.size(), 1u);
  EXPECT_TRUE(s.fec.empty());                                    // 10GBASE-LR runs without FEC
  EXPECT_GT(lane(s, 1, LaneMetric::kTxBiasMilliamperes), 25.0);  // a DFB, not a VCSEL
  c.module = "qsfp28-100g-cwdm4";
  const Sample q = makeSwitch(c).sampleAt(0, kEpoch);
  EXPECT_EQ(q.identity().family, ModuleFamily::kSff8636);
  ASSERT_EQ(q.lanes.size(), 4u);
  EXPECT_EQ(q.fec.bits_per_block, 5280u);                        // RS(528,514)
  EXPECT_FALSE(q.lanes[0].values[LaneMetric::kPreFecBerRatio]);  // no VDM in SFF-8636
  EXPECT_TRUE(q.module[ModuleMetric::kPreFecBerRatio]);
}

TEST(SimSwitch, CreateRejectsWhatCannotBeSimulated) {
  SimSwitchConfig c;
  c.module = "cfp2-dco";
  EXPECT_FALSE(SimSwitch::create(c, kEpoch));
  c = withScenario(ScenarioKind::kDirtyConnector, 8, 0, 0);  // 8 ports: 0..7
  EXPECT_FALSE(SimSwitch::create(c, kEpoch));
  c = withScenario(ScenarioKind::kLaneFailure, 0, 0, 0, 8);  // lanes 0..7
  EXPECT_FALSE(SimSwitch::create(c, kEpoch));
  c = {};
  c.lanes = kMaxSampleLanes + 1;  // the Sample model's one lane limit
  EXPECT_FALSE(SimSwitch::create(c, kEpoch));
  c.lanes = kMaxSampleLanes;
  auto sw = SimSwitch::create(c, kEpoch);
  ASSERT_TRUE(sw);
  EXPECT_EQ(sw->sampleAt(0, kEpoch).lanes.size(), static_cast<std::size_t>(kMaxSampleLanes));
}

}  // namespace
}  // namespace opticsd::sim
