#include "drivers/sim/sim_switch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "drivers/sim/module_registers.hpp"
#include "drivers/sim/noise.hpp"

namespace opticsd::sim {
namespace {

// What a hash is for, so that two quantities never share noise.
enum Salt : std::uint64_t {
  kSaltBias = 1,
  kSaltTx,
  kSaltFarTx,
  kSaltLoss,
  kSaltQFloor,
  kSaltTemperature,
  kSaltTemperaturePhase,
  kSaltVcc,
  kSaltUptime,
  kSaltDownEvents,
  kSaltVendor,
  kSaltSerial,
  kSaltDate,
  kSaltHostBer,
  kSaltFlap,
  kSaltNoiseBias,
  kSaltNoiseTx,
  kSaltNoiseRx,
  kSaltNoiseBer,
  kSaltNoiseBerMin,
  kSaltNoiseBerMax,
  kSaltNoiseHostBer,
  kSaltNoiseEsnr,
  kSaltNoiseTemperature,
  kSaltNoiseVcc,
  kSaltNoiseLaserTemperature,
  kSaltJobGain,
  kSaltRxDrift,
  kSaltBerWander,
};

constexpr std::int64_t kNoiseBucketMs = 1000;  // values hold still within a second
constexpr int kKnotsPerRamp = 128;

// Scenario magnitudes at full effect.
constexpr double kAgeingBiasRise = 0.8;  // +80 % bias (APC loop compensating)
constexpr double kAgeingTxDropDb = 3.5;
constexpr double kConnectorLossDb = 8.0;  // takes a healthy lane near sensitivity
constexpr double kRunawayRiseC = 40.0;
constexpr double kBiasPerDegree = 0.012;  // relative bias rise per degree C
constexpr double kTxDropPerDegreeDb = 0.03;
constexpr double kLaneFailureDropDb = 45.0;  // past the -40 dBm floor
constexpr double kLaneFailureBiasRise = 0.5;
constexpr double kPostFecBerLog10Rise = 1.6;
constexpr double kPostFecUncorrectablePerSecond = 120.0;
constexpr double kFlapsPerSecond = 0.2;         // 6 per 30 s poll at full effect
constexpr double kFlapDownFraction = 0.4;       // share of instants seen down at full effect
constexpr double kRunawayLaserTempKnee = 60.0;  // case temperature where the TEC saturates
// fec_tail_climb: error bursts land in codeword bins from kTailFirstBin up to
// a top that climbs with the scenario's progress to the code's limit, at
// kTailBurstsPerSecond per bin, a few codewords a second: the mean BER does
// not see them. Late in the ramp the link's BER rises too (kTailBerLog10Rise
// decades from kTailBerOnset on), as a marginal equaliser finally does.
constexpr int kTailFirstBin = 4;
constexpr double kTailBurstsPerSecond = 0.5;
constexpr double kTailBerOnset = 0.7;
constexpr double kTailBerLog10Rise = 3.0;
// Why the kernel would say the link went down (uapi ethtool_link_ext_state
// 3 bad signal integrity; substates 1 many physical errors, 4 SerDes ALOS).
constexpr LinkDownReason kFlapReason{3, 1};
constexpr LinkDownReason kLosReason{3, 4};

constexpr std::array<std::string_view, 3> kVendors{"SIMOPTIX", "PHOTONSIM", "LIGHTLAB SIM"};
constexpr std::array<std::string_view, 3> kVendorOuis{"02:51:4d", "02:50:48", "02:4c:4c"};

AlarmFlags flagsFor(const ThresholdSet& t, double v) {
  AlarmFlags f;
  f.high_alarm = v >= t.high_alarm;
  f.high_warning = v >= t.high_warning;
  f.low_warning = v <= t.low_warning;
  f.low_alarm = v <= t.low_alarm;
  return f;
}

std::size_t idx(LaneMetric m) { return static_cast<std::size_t>(m); }
std::size_t idx(ModuleMetric m) { return static_cast<std::size_t>(m); }

}  // namespace

Result<SimSwitch> SimSwitch::create(SimSwitchConfig config, std::int64_t epoch_ms) {
  const ModuleProfile* profile = findModuleProfile(config.module);
  if (profile == nullptr) return fail("unknown sim module profile '" + config.module + "'");
  if (config.ports < 1) return fail("a sim switch needs at least one port");
  const int lanes = config.lanes > 0 ? config.lanes : profile->lanes;
  if (lanes > kMaxLanes) return fail("at most " + std::to_string(kMaxLanes) + " lanes per module");
  for (const auto& s : config.scenarios) {
    if (s.port_index < 0 || s.port_index >= config.ports) {
      return fail("scenario " + std::string(toString(s.kind)) + " names port " + std::to_string(s.port_index + 1) +
                  " of " + std::to_string(config.ports));
    }
    if (s.kind == ScenarioKind::kLaneFailure && (s.lane_index < 0 || s.lane_index >= lanes)) {
      return fail("lane_failure needs a lane from 1 to " + std::to_string(lanes));
    }
    if (s.onset_ms < 0 || s.ramp_ms < 0) return fail("scenario onset and ramp must not be negative");
  }
  return SimSwitch(std::move(config), profile, lanes, epoch_ms);
}

SimSwitch::SimSwitch(SimSwitchConfig config, const ModuleProfile* profile, int lanes, std::int64_t epoch_ms)
    : config_(std::move(config)), profile_(profile), lanes_(lanes), epoch_ms_(epoch_ms) {
  for (const auto& s : config_.scenarios) {
    auto it = std::find_if(scenario_ports_.begin(), scenario_ports_.end(),
                           [&](const PortScenarios& p) { return p.port_index == s.port_index; });
    if (it == scenario_ports_.end()) {
      scenario_ports_.push_back({});
      it = std::prev(scenario_ports_.end());
      it->port_index = s.port_index;
    }
    it->specs.push_back(s);
  }
  std::sort(scenario_ports_.begin(), scenario_ports_.end(),
            [](const PortScenarios& a, const PortScenarios& b) { return a.port_index < b.port_index; });
  // Healthy FEC rates per port, so a poll does not evaluate every lane's BER
  // twice (once for the lane, once for the counter integral).
  if (profile_->fec) {
    healthy_rates_.reserve(static_cast<std::size_t>(config_.ports));
    for (int i = 0; i < config_.ports; ++i) healthy_rates_.push_back(ratesAt(i, Effects{}));
  }
  for (auto& ps : scenario_ports_) buildTimeline(ps);

  // What every port shares, built once and copied into each Sample.
  const ModuleProfile& p = *profile_;
  template_.target = config_.name;
  ModuleIdentity& id = template_.mutableIdentity();
  id.family = p.family;
  id.sff8024_identifier = p.sff8024_identifier;
  id.form_factor = std::string(p.form_factor);
  id.media = std::string(p.media);
  id.part_number = std::string(p.part_number);
  id.revision = "A0";
  id.connector = std::string(p.connector);
  id.firmware_version = p.family == ModuleFamily::kCmis ? "5.2" : "";
  id.spec_revision = std::string(p.spec_revision);
  id.wavelength_nm = p.wavelength_nm;
  id.cable_length_m = p.cable_length_m;
  id.power_class = p.power_class;
  id.max_power_watts = p.max_power_watts;
  id.modulation = p.modulation;
  id.lane_rate_gbps = p.lane_rate_gbps;
  id.has_diagnostics = true;
  id.passive_copper = false;
  template_.mutableThresholds(ModuleMetric::kTemperatureCelsius) = p.temperature.toThresholds();
  template_.mutableThresholds(ModuleMetric::kSupplyVoltageVolts) = p.vcc.toThresholds();
  template_.mutableThresholds(LaneMetric::kTxBiasMilliamperes) = p.bias.toThresholds();
  template_.mutableThresholds(LaneMetric::kTxPowerDbm) = p.tx_power.toThresholds();
  template_.mutableThresholds(LaneMetric::kRxPowerDbm) = p.rx_power.toThresholds();
  template_.link.speed_gbps = lanes_ * p.lane_rate_gbps;
  template_.link.lanes = static_cast<std::uint16_t>(lanes_);
  template_.link.lane_line_rate_gbps = p.line_rate_gbps;
  if (p.fec) template_.fec.bits_per_block = static_cast<std::uint64_t>(p.fec->codewordBits());
}

std::string SimSwitch::portName(int port_index) const { return config_.port_prefix + std::to_string(port_index + 1); }

std::optional<int> SimSwitch::portIndex(std::string_view name) const {
  std::string_view digits = name;
  if (name.starts_with(config_.port_prefix)) digits.remove_prefix(config_.port_prefix.size());
  if (digits.empty() || digits.size() > 6) return std::nullopt;
  int number = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + (c - '0');
  }
  if (number < 1 || number > config_.ports) return std::nullopt;
  return number - 1;
}

const SimSwitch::PortScenarios* SimSwitch::findScenarios(int port_index) const {
  auto it = std::lower_bound(scenario_ports_.begin(), scenario_ports_.end(), port_index,
                             [](const PortScenarios& p, int i) { return p.port_index < i; });
  if (it == scenario_ports_.end() || it->port_index != port_index) return nullptr;
  return &*it;
}

std::span<const ScenarioSpec> SimSwitch::scenariosOn(int port_index) const {
  const PortScenarios* ps = findScenarios(port_index);
  if (ps == nullptr) return {};
  return ps->specs;
}

SimSwitch::Effects SimSwitch::effectsAt(const PortScenarios* ps, std::int64_t since_epoch_ms) const {
  Effects fx;
  if (ps == nullptr) return fx;
  for (const auto& s : ps->specs) {
    const double k = s.progress(since_epoch_ms);
    if (k <= 0) continue;
    switch (s.kind) {
      case ScenarioKind::kLaserAgeing:
        fx.ageing = std::max(fx.ageing, k);
        break;
      case ScenarioKind::kDirtyConnector:
        fx.connector_loss_db += k * kConnectorLossDb;
        break;
      case ScenarioKind::kLaneFailure:
        fx.lane_failure[static_cast<std::size_t>(s.lane_index)] =
            std::max(fx.lane_failure[static_cast<std::size_t>(s.lane_index)], k);
        break;
      case ScenarioKind::kThermalRunaway:
        fx.temperature_rise_c += k * kRunawayRiseC;
        break;
      case ScenarioKind::kLinkFlapping:
        fx.flapping = std::max(fx.flapping, k);
        break;
      case ScenarioKind::kPostFecErrors:
        fx.post_fec = std::max(fx.post_fec, k);
        fx.ber_log10_rise += k * kPostFecBerLog10Rise;
        break;
      case ScenarioKind::kFecTailClimb:
        fx.fec_tail = std::max(fx.fec_tail, k);
        fx.ber_log10_rise += kTailBerLog10Rise * std::max(0.0, (k - kTailBerOnset) / (1.0 - kTailBerOnset));
        break;
    }
  }
  return fx;
}

SimSwitch::LaneTruth SimSwitch::laneTruth(int port_index, int lane_index, const Effects& fx) const {
  const ModuleProfile& p = *profile_;
  const std::uint64_t seed = config_.seed;
  const auto key = [&](Salt salt) { return hashKey(seed, salt, port_index, lane_index); };
  const double lane_fail = fx.lane_failure[static_cast<std::size_t>(lane_index)];

  LaneTruth t;
  t.bias_ma = (p.bias_ma + p.bias_spread_ma * unitNoise(key(kSaltBias))) * (1.0 + kAgeingBiasRise * fx.ageing) *
              (1.0 + kBiasPerDegree * fx.temperature_rise_c) * (1.0 + kLaneFailureBiasRise * lane_fail);
  t.tx_dbm = p.tx_dbm + p.tx_spread_db * unitNoise(key(kSaltTx)) - kAgeingTxDropDb * fx.ageing -
             kTxDropPerDegreeDb * fx.temperature_rise_c - kLaneFailureDropDb * lane_fail;
  const double loss = p.link_loss_db + p.link_loss_spread_db * unitNoise(key(kSaltLoss));
  const double far_tx = p.tx_dbm + p.tx_spread_db * unitNoise(key(kSaltFarTx));
  // A dirty or failed connector on our side attenuates both directions.
  t.rx_dbm = far_tx - loss - fx.connector_loss_db - kLaneFailureDropDb * lane_fail;
  t.far_rx_dbm = t.tx_dbm - loss - fx.connector_loss_db;
  t.tx_fault = lane_fail >= 1.0;
  t.los = t.rx_dbm <= p.los_assert_dbm;
  if (!t.los) {
    const double q_floor = p.receiver.q_floor + p.q_floor_spread * unitNoise(key(kSaltQFloor));
    t.q = p.receiver.qFactor(t.rx_dbm, q_floor);
    double ber = berFromQ(t.q, p.receiver.pam4);
    if (fx.ber_log10_rise > 0) ber *= std::pow(10.0, fx.ber_log10_rise);
    t.ber = std::min(ber, 0.5);
  }
  return t;
}

double SimSwitch::temperatureTruth(int port_index, std::int64_t now_ms, const Effects& fx) const {
  const std::uint64_t seed = config_.seed;
  const double base = 42.0 + 4.0 * unitNoise(hashKey(seed, kSaltTemperature, port_index));
  // A slow, small daily-life wobble (airflow, load): 0.5 C over 6 h.
  const double phase = 2.0 * std::numbers::pi * unitInterval(hashKey(seed, kSaltTemperaturePhase, port_index));
  const double wobble = 0.5 * std::sin(2.0 * std::numbers::pi * static_cast<double>(now_ms) / 21'600'000.0 + phase);
  return base + wobble + environmentTemperatureC(port_index, now_ms) + fx.temperature_rise_c;
}

// The room and the switch's job, each module with its own share of the job's heat.
double SimSwitch::environmentTemperatureC(int port_index, std::int64_t now_ms) const {
  const SimEnvironment& env = config_.environment;
  if (!env.enabled) return 0;
  const double gain = 0.85 + 0.15 * unitInterval(hashKey(config_.seed, kSaltJobGain, port_index));
  return roomOffsetC(env, config_.seed, now_ms) + gain * env.job_rise_c * jobHeatFraction(env, config_.seed, now_ms);
}

SimSwitch::LaneTruth SimSwitch::laneAt(int port_index, int lane_index, const Effects& fx, std::int64_t now_ms) const {
  LaneTruth t = laneTruth(port_index, lane_index, fx);
  const SimEnvironment& env = config_.environment;
  if (!env.enabled) return t;
  const auto key = [&](Salt salt) { return hashKey(config_.seed, salt, port_index, lane_index); };
  // The laser's bias follows the case temperature (APC loop), as in a runaway.
  t.bias_ma *= 1.0 + kBiasPerDegree * environmentTemperatureC(port_index, now_ms);
  t.rx_dbm += ar1At(key(kSaltRxDrift), now_ms, env.rx_drift_step_ms, env.rx_drift_phi, env.rx_drift_sigma_db);
  if (t.ber) {
    const double wander =
        ar1At(key(kSaltBerWander), now_ms, env.ber_wander_step_ms, env.ber_wander_phi, env.ber_wander_sigma_decades);
    t.ber = std::min(0.5, *t.ber * std::pow(10.0, wander));
  }
  return t;
}

bool SimSwitch::anyLos(int port_index, const Effects& fx) const {
  for (int lane = 0; lane < lanes_; ++lane) {
    if (fx.lane_failure[static_cast<std::size_t>(lane)] <= 0 && fx.connector_loss_db <= 0) continue;
    if (laneTruth(port_index, lane, fx).los) return true;
  }
  return false;
}

SimSwitch::Counters SimSwitch::ratesAt(int port_index, const Effects& fx) const {
  Counters r;
  const ModuleProfile& p = *profile_;
  if (!p.fec) return r;
  // A multi-lane port is down when any lane has lost light: no traffic, no
  // FEC activity.
  if (anyLos(port_index, fx)) return r;
  const double line_bps = p.line_rate_gbps * 1e9;
  double ber_sum = 0;
  for (int lane = 0; lane < lanes_; ++lane) {
    const LaneTruth t = laneTruth(port_index, lane, fx);
    const double ber = t.ber.value_or(0.0);
    r.lane_bits[static_cast<std::size_t>(lane)] = ber * line_bps;
    ber_sum += ber;
  }
  const double codewords_per_s = lanes_ * line_bps / p.fec->codewordBits();
  const CodewordOutcome o = codewordOutcome(*p.fec, ber_sum / lanes_);
  r.corrected_blocks = codewords_per_s * o.p_corrected;
  r.uncorrectable_blocks = codewords_per_s * o.p_uncorrectable + kPostFecUncorrectablePerSecond * fx.post_fec;
  const int t = std::min(p.fec->t_correctable, kMaxFecBins - 1);
  for (int k = 0; k <= t; ++k) r.bins[k] = codewords_per_s * codewordBinShare(*p.fec, ber_sum / lanes_, k);
  if (fx.fec_tail > 0) {
    const int top = std::min(t, kTailFirstBin + static_cast<int>(fx.fec_tail * (t - kTailFirstBin + 1)));
    for (int k = kTailFirstBin; k <= top; ++k) {
      r.bins[k] += kTailBurstsPerSecond;
      r.corrected_blocks += kTailBurstsPerSecond;
    }
  }
  return r;
}

const SimSwitch::Counters& SimSwitch::healthyRates(int port_index) const {
  static const Counters kNone{};
  if (healthy_rates_.empty()) return kNone;  // no FEC on this module
  return healthy_rates_[static_cast<std::size_t>(port_index)];
}

double SimSwitch::uptimeSeconds(int port_index) const {
  // As if each link had been up for 1 to 30 days when the sim started.
  return 86400.0 * (1.0 + 29.0 * unitInterval(hashKey(config_.seed, kSaltUptime, port_index)));
}

void SimSwitch::buildTimeline(PortScenarios& ps) const {
  for (const auto& s : ps.specs) {
    ps.knots.push_back(s.onset_ms);
    for (int k = 1; k <= kKnotsPerRamp && s.ramp_ms > 0; ++k) {
      ps.knots.push_back(s.onset_ms + s.ramp_ms * k / kKnotsPerRamp);
    }
  }
  std::sort(ps.knots.begin(), ps.knots.end());
  ps.knots.erase(std::unique(ps.knots.begin(), ps.knots.end()), ps.knots.end());

  const Counters healthy = healthyRates(ps.port_index);
  const double t0 = uptimeSeconds(ps.port_index) + static_cast<double>(ps.knots.front()) / 1000.0;
  Counters cum;
  for (int l = 0; l < kMaxLanes; ++l) cum.lane_bits[l] = healthy.lane_bits[l] * t0;
  cum.corrected_blocks = healthy.corrected_blocks * t0;
  cum.uncorrectable_blocks = healthy.uncorrectable_blocks * t0;
  for (int k = 0; k < kMaxFecBins; ++k) cum.bins[k] = healthy.bins[k] * t0;

  // Just before each onset the rate is still healthy; at a zero-length ramp
  // it jumps. Trapezoids between knots keep the table monotone.
  Counters prev_rate = healthy;
  std::int64_t prev_t = ps.knots.front();
  ps.cumulative.reserve(ps.knots.size());
  for (std::size_t i = 0; i < ps.knots.size(); ++i) {
    const std::int64_t t = ps.knots[i];
    const Counters rate = ratesAt(ps.port_index, effectsAt(&ps, t));
    const double dt = static_cast<double>(t - prev_t) / 1000.0;
    for (int l = 0; l < kMaxLanes; ++l) cum.lane_bits[l] += 0.5 * (prev_rate.lane_bits[l] + rate.lane_bits[l]) * dt;
    cum.corrected_blocks += 0.5 * (prev_rate.corrected_blocks + rate.corrected_blocks) * dt;
    cum.uncorrectable_blocks += 0.5 * (prev_rate.uncorrectable_blocks + rate.uncorrectable_blocks) * dt;
    for (int k = 0; k < kMaxFecBins; ++k) cum.bins[k] += 0.5 * (prev_rate.bins[k] + rate.bins[k]) * dt;
    ps.cumulative.push_back(cum);
    prev_rate = rate;
    prev_t = t;
  }
  ps.last_rate = prev_rate;
}

SimSwitch::Counters SimSwitch::countersAt(int port_index, const PortScenarios* ps, std::int64_t since_epoch_ms) const {
  const std::int64_t t = std::max<std::int64_t>(0, since_epoch_ms);
  if (ps == nullptr || t <= ps->knots.front()) {
    const Counters& rate = healthyRates(port_index);
    // Before the epoch too (the driver's first FEC tail window looks one
    // poll back): each link has been up for days by then.
    const double secs = std::max(0.0, uptimeSeconds(port_index) + static_cast<double>(since_epoch_ms) / 1000.0);
    Counters c;
    for (int l = 0; l < kMaxLanes; ++l) c.lane_bits[l] = rate.lane_bits[l] * secs;
    c.corrected_blocks = rate.corrected_blocks * secs;
    c.uncorrectable_blocks = rate.uncorrectable_blocks * secs;
    for (int k = 0; k < kMaxFecBins; ++k) c.bins[k] = rate.bins[k] * secs;
    return c;
  }
  const auto it = std::upper_bound(ps->knots.begin(), ps->knots.end(), t);
  if (it == ps->knots.end()) {
    const double dt = static_cast<double>(t - ps->knots.back()) / 1000.0;
    Counters c = ps->cumulative.back();
    for (int l = 0; l < kMaxLanes; ++l) c.lane_bits[l] += ps->last_rate.lane_bits[l] * dt;
    c.corrected_blocks += ps->last_rate.corrected_blocks * dt;
    c.uncorrectable_blocks += ps->last_rate.uncorrectable_blocks * dt;
    for (int k = 0; k < kMaxFecBins; ++k) c.bins[k] += ps->last_rate.bins[k] * dt;
    return c;
  }
  const std::size_t hi = static_cast<std::size_t>(it - ps->knots.begin());
  const std::size_t lo = hi - 1;
  const double w = static_cast<double>(t - ps->knots[lo]) / static_cast<double>(ps->knots[hi] - ps->knots[lo]);
  const Counters& a = ps->cumulative[lo];
  const Counters& b = ps->cumulative[hi];
  Counters c;
  for (int l = 0; l < kMaxLanes; ++l) c.lane_bits[l] = a.lane_bits[l] + w * (b.lane_bits[l] - a.lane_bits[l]);
  c.corrected_blocks = a.corrected_blocks + w * (b.corrected_blocks - a.corrected_blocks);
  c.uncorrectable_blocks = a.uncorrectable_blocks + w * (b.uncorrectable_blocks - a.uncorrectable_blocks);
  for (int k = 0; k < kMaxFecBins; ++k) c.bins[k] = a.bins[k] + w * (b.bins[k] - a.bins[k]);
  return c;
}

double SimSwitch::downEventsAt(int port_index, const PortScenarios* ps, std::int64_t since_epoch_ms,
                               bool lane_los) const {
  double events = static_cast<double>(hashKey(config_.seed, kSaltDownEvents, port_index) % 4);
  if (lane_los) events += 1;  // the link went down once and stayed down
  if (ps == nullptr) return events;
  for (const auto& s : ps->specs) {
    if (s.kind != ScenarioKind::kLinkFlapping || since_epoch_ms <= s.onset_ms) continue;
    // Integral of a rate ramping linearly to kFlapsPerSecond.
    const double ramp = static_cast<double>(s.ramp_ms) / 1000.0;
    const double t = static_cast<double>(since_epoch_ms - s.onset_ms) / 1000.0;
    if (ramp > 0 && t < ramp) {
      events += kFlapsPerSecond * t * t / (2.0 * ramp);
    } else {
      events += kFlapsPerSecond * (ramp / 2.0 + (t - ramp));
    }
  }
  return std::floor(events);
}

bool SimSwitch::flapDownAt(int port_index, std::int64_t now_ms, const Effects& fx) const {
  if (fx.flapping <= 0) return false;
  const std::int64_t bucket = now_ms / kNoiseBucketMs;
  return unitInterval(hashKey(config_.seed, kSaltFlap, port_index, bucket)) < kFlapDownFraction * fx.flapping;
}

std::optional<double> SimSwitch::truthAt(int port_index, int lane, TruthSignal signal, std::int64_t now_ms) const {
  if (port_index < 0 || port_index >= config_.ports) return std::nullopt;
  const std::int64_t since = now_ms - epoch_ms_;
  const PortScenarios* ps = findScenarios(port_index);
  const Effects fx = effectsAt(ps, since);
  const bool lane_signal = signal == TruthSignal::kTxBiasMilliamperes || signal == TruthSignal::kTxPowerDbm ||
                           signal == TruthSignal::kRxPowerDbm || signal == TruthSignal::kFarEndRxPowerDbm ||
                           signal == TruthSignal::kPreFecBerRatio;
  if (lane_signal && (lane < 1 || lane > lanes_)) return std::nullopt;
  const auto fec_counter = [&]() -> std::optional<Counters> {
    if (!profile_->fec) return std::nullopt;
    return countersAt(port_index, ps, since);
  };
  switch (signal) {
    case TruthSignal::kTxBiasMilliamperes:
      return laneAt(port_index, lane - 1, fx, now_ms).bias_ma;
    case TruthSignal::kTxPowerDbm:
      return laneAt(port_index, lane - 1, fx, now_ms).tx_dbm;
    case TruthSignal::kRxPowerDbm:
      return laneAt(port_index, lane - 1, fx, now_ms).rx_dbm;
    case TruthSignal::kFarEndRxPowerDbm:
      return laneAt(port_index, lane - 1, fx, now_ms).far_rx_dbm;
    case TruthSignal::kPreFecBerRatio:
      return laneAt(port_index, lane - 1, fx, now_ms).ber;
    case TruthSignal::kTemperatureCelsius:
      return temperatureTruth(port_index, now_ms, fx);
    case TruthSignal::kLinkDownEventsTotal:
      return downEventsAt(port_index, ps, since, anyLos(port_index, fx));
    case TruthSignal::kCorrectedBitsTotal: {
      auto c = fec_counter();
      if (!c) return std::nullopt;
      if (lane >= 1 && lane <= lanes_) return std::floor(c->lane_bits[static_cast<std::size_t>(lane - 1)]);
      double total = 0;
      for (int l = 0; l < lanes_; ++l) total += std::floor(c->lane_bits[static_cast<std::size_t>(l)]);
      return total;
    }
    case TruthSignal::kCorrectedBlocksTotal: {
      auto c = fec_counter();
      if (!c) return std::nullopt;
      return std::floor(c->corrected_blocks);
    }
    case TruthSignal::kUncorrectableBlocksTotal: {
      auto c = fec_counter();
      if (!c) return std::nullopt;
      return std::floor(c->uncorrectable_blocks);
    }
  }
  return std::nullopt;
}

std::optional<std::int64_t> SimSwitch::firstCrossing(int port_index, int lane, TruthSignal signal, double threshold,
                                                     Crossing direction, std::int64_t from_ms, std::int64_t to_ms,
                                                     std::int64_t step_ms) const {
  if (step_ms < 1 || to_ms < from_ms) return std::nullopt;
  const auto crossed = [&](std::int64_t t) {
    const auto v = truthAt(port_index, lane, signal, t);
    if (!v) return false;
    return direction == Crossing::kRising ? *v >= threshold : *v <= threshold;
  };
  if (crossed(from_ms)) return from_ms;
  std::int64_t prev = from_ms;
  while (prev < to_ms) {
    const std::int64_t t = std::min(to_ms, prev + step_ms);
    if (crossed(t)) {
      std::int64_t lo = prev;  // not crossed
      std::int64_t hi = t;     // crossed
      while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (crossed(mid)) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
      return hi;
    }
    prev = t;
  }
  return std::nullopt;
}

// Read noise of one port within one noise bucket: the same salt and lane give
// the same value until the bucket changes.
struct SimSwitch::ReadNoise {
  std::uint64_t seed;
  int port_index;
  std::int64_t bucket;
  const SimEnvironment& env;

  double uniform(Salt salt, int lane) const { return unitNoise(hashKey(seed, salt, port_index, lane, bucket)); }
  // Bounded uniform in the quiet model, Gaussian-like with tails in the realistic one.
  double read(Salt salt, int lane, double quiet_bound, double sigma) const {
    return env.enabled ? sigma * normalNoise(hashKey(seed, salt, port_index, lane, bucket))
                       : quiet_bound * uniform(salt, lane);
  }
};

// Deterministic per (seed, port).
void SimSwitch::renderIdentity(int port_index, ModuleIdentity& identity) const {
  const std::uint64_t seed = config_.seed;
  const std::size_t vendor = hashKey(seed, kSaltVendor, port_index) % kVendors.size();
  identity.vendor = std::string(kVendors[vendor]);
  identity.vendor_oui = std::string(kVendorOuis[vendor]);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "SM%010llX",
                static_cast<unsigned long long>(hashKey(seed, kSaltSerial, port_index) & 0xFFFFFFFFFFULL));
  identity.serial = buf;
  const std::uint64_t date = hashKey(seed, kSaltDate, port_index);
  std::snprintf(buf, sizeof(buf), "20%02d-%02d-%02d", static_cast<int>(21 + date % 4),
                static_cast<int>(1 + (date >> 8) % 12), static_cast<int>(1 + (date >> 16) % 28));
  identity.date_code = buf;
}

void SimSwitch::renderModuleReadings(int port_index, std::int64_t now_ms, const Effects& fx, const ReadNoise& noise,
                                     Sample& s) const {
  const ModuleProfile& p = *profile_;
  const SimEnvironment& env = config_.environment;
  const double temperature =
      temperatureRegisterC(temperatureTruth(port_index, now_ms, fx) +
                           noise.read(kSaltNoiseTemperature, 0, 0.15, env.temperature_read_sigma_c));
  const double vcc = supplyVoltageRegisterV(3.30 + 0.025 * unitNoise(hashKey(config_.seed, kSaltVcc, port_index)) +
                                            0.004 * noise.uniform(kSaltNoiseVcc, 0));
  s.module.set(ModuleMetric::kTemperatureCelsius, temperature);
  s.module.set(ModuleMetric::kSupplyVoltageVolts, vcc);
  s.module_flags[idx(ModuleMetric::kTemperatureCelsius)] = flagsFor(p.temperature, temperature);
  s.module_flags[idx(ModuleMetric::kSupplyVoltageVolts)] = flagsFor(p.vcc, vcc);
  if (p.has_vdm) {
    // TEC-held laser; it only follows the case once the TEC saturates.
    const double laser = temperatureRegisterC(50.0 + 0.8 * std::max(0.0, temperature - kRunawayLaserTempKnee) +
                                              0.1 * noise.uniform(kSaltNoiseLaserTemperature, 0));
    s.module.set(ModuleMetric::kLaserTemperatureCelsius, laser);
  }
}

SimSwitch::LaneTotals SimSwitch::renderLaneReadings(int port_index, std::int64_t now_ms, const Effects& fx,
                                                    const ReadNoise& noise, Sample& s) const {
  const ModuleProfile& p = *profile_;
  const SimEnvironment& env = config_.environment;
  LaneTotals totals;
  s.lanes.resize(static_cast<std::size_t>(lanes_));
  for (int l = 0; l < lanes_; ++l) {
    const LaneTruth t = laneAt(port_index, l, fx, now_ms);
    Lane& lane = s.lanes[static_cast<std::size_t>(l)];
    lane.number = static_cast<std::uint16_t>(l + 1);
    const double bias = biasRegisterMa(t.bias_ma + 0.03 * p.bias_ma / 7.5 * noise.uniform(kSaltNoiseBias, l));
    const OpticalPower tx = powerRegister(t.tx_dbm + 0.05 * noise.uniform(kSaltNoiseTx, l));
    const OpticalPower rx = powerRegister(t.rx_dbm + noise.read(kSaltNoiseRx, l, 0.05, env.rx_read_sigma_db));
    lane.values.set(LaneMetric::kTxBiasMilliamperes, bias);
    lane.values.set(LaneMetric::kTxPowerDbm, tx.dbm);
    lane.values.set(LaneMetric::kRxPowerDbm, rx.dbm);
    lane.flags[idx(LaneMetric::kTxBiasMilliamperes)] = flagsFor(p.bias, bias);
    lane.flags[idx(LaneMetric::kTxPowerDbm)] = flagsFor(p.tx_power, tx.dbm);
    lane.flags[idx(LaneMetric::kRxPowerDbm)] = flagsFor(p.rx_power, rx.dbm);
    lane.status.rx_los = t.los;
    lane.status.tx_los = tx.no_light;
    lane.status.tx_fault = t.tx_fault;
    lane.status.tx_no_light = tx.no_light;
    lane.status.rx_no_light = rx.no_light;
    totals.los = totals.los || t.los;
    if (t.ber) {
      totals.ber_sum += *t.ber;
      ++totals.ber_lanes;
    }
    if (p.has_vdm) {
      lane.status.data_path_state = 4;  // CMIS DPActivated
      // VDM reads nothing meaningful without CDR lock: left unreported.
      if (t.ber) {
        const double ber = *t.ber;
        lane.values.set(LaneMetric::kPreFecBerRatio,
                        f16Register(ber * std::pow(10.0, 0.08 * noise.uniform(kSaltNoiseBer, l))));
        lane.values.set(LaneMetric::kPreFecBerAvgRatio, f16Register(ber));
        lane.values.set(LaneMetric::kPreFecBerMinRatio,
                        f16Register(ber * std::pow(10.0, -0.1 - 0.03 * std::abs(noise.uniform(kSaltNoiseBerMin, l)))));
        lane.values.set(LaneMetric::kPreFecBerMaxRatio,
                        f16Register(ber * std::pow(10.0, 0.1 + 0.03 * std::abs(noise.uniform(kSaltNoiseBerMax, l)))));
        // eSNR tracks the eye: 20log10(Q) plus the PAM4 level spacing.
        lane.values.set(LaneMetric::kEsnrDecibels,
                        decibelRegister(20.0 * std::log10(t.q) + 9.0 + 0.1 * noise.uniform(kSaltNoiseEsnr, l)));
      }
      // Host side (switch SerDes to module) is electrical and stays healthy.
      const double host = std::pow(10.0, -9.0 + 0.3 * unitNoise(hashKey(config_.seed, kSaltHostBer, port_index, l)) +
                                             0.05 * noise.uniform(kSaltNoiseHostBer, l));
      lane.values.set(LaneMetric::kHostPreFecBerRatio, f16Register(host));
    }
  }
  return totals;
}

// The noise slot of the port-wide BER reading: the lane count the sim held
// when the demo's values were fixed (16), kept so they do not move with
// kMaxSampleLanes.
constexpr int kPortBerNoiseSlot = 16;

void SimSwitch::renderFecCounters(int port_index, const PortScenarios* ps, std::int64_t since_epoch_ms, bool up,
                                  const LaneTotals& lanes, const ReadNoise& noise, Sample& s) const {
  if (up && lanes.ber_lanes > 0) {
    // The host's FEC gives it, to the digits of the lanes' F16 readings.
    s.module.set(ModuleMetric::kPreFecBerRatio,
                 f16Register(lanes.ber_sum / lanes.ber_lanes *
                             std::pow(10.0, 0.05 * noise.uniform(kSaltNoiseBer, kPortBerNoiseSlot))));
  }
  const Counters c = countersAt(port_index, ps, since_epoch_ms);
  std::uint64_t bits = 0;
  s.fec.lane_corrected_bits_total.resize(static_cast<std::size_t>(lanes_));
  for (int l = 0; l < lanes_; ++l) {
    const auto lane_bits = static_cast<std::uint64_t>(c.lane_bits[static_cast<std::size_t>(l)]);
    s.fec.lane_corrected_bits_total[static_cast<std::size_t>(l)] = lane_bits;
    bits += lane_bits;
  }
  s.fec.corrected_bits_total = bits;
  s.fec.corrected_blocks_total = static_cast<std::uint64_t>(c.corrected_blocks);
  s.fec.uncorrectable_blocks_total = static_cast<std::uint64_t>(c.uncorrectable_blocks);
  // The codeword histogram, one bin per symbol-error count up to the code's t.
  const int t = std::min(profile_->fec->t_correctable, kMaxFecBins - 1);
  s.fec.correctable_symbols = static_cast<std::uint16_t>(profile_->fec->t_correctable);
  s.fec.histogram.resize(static_cast<std::size_t>(t + 1));
  for (int k = 0; k <= t; ++k) {
    FecHistogramBin& bin = s.fec.histogram[static_cast<std::size_t>(k)];
    bin.low = bin.high = static_cast<std::uint16_t>(k);
    bin.codewords_total = static_cast<std::uint64_t>(c.bins[static_cast<std::size_t>(k)]);
  }
}

Sample SimSwitch::sampleAt(int port_index, std::int64_t now_ms) const {
  Sample s = template_;
  if (port_index < 0 || port_index >= config_.ports) {
    s.module_present = false;
    s.issues.push_back("no such port");
    return s;
  }
  const std::int64_t since = now_ms - epoch_ms_;
  const PortScenarios* ps = findScenarios(port_index);
  const Effects fx = effectsAt(ps, since);
  const ReadNoise noise{config_.seed, port_index, now_ms / kNoiseBucketMs, config_.environment};

  s.port = portName(port_index);
  s.timestamp_ms = now_ms;
  renderIdentity(port_index, s.mutableIdentity());
  renderModuleReadings(port_index, now_ms, fx, noise, s);
  const LaneTotals lanes = renderLaneReadings(port_index, now_ms, fx, noise, s);

  // Lock follows the signal, and a flapping link drops it on every lane.
  const bool flap_down = flapDownAt(port_index, now_ms, fx);
  const bool up = !lanes.los && !flap_down;
  for (int l = 0; l < lanes_ && profile_->family != ModuleFamily::kSff8472; ++l) {
    Lane& lane = s.lanes[static_cast<std::size_t>(l)];
    lane.status.rx_lol = lane.status.rx_los.value_or(false) || flap_down;
    lane.status.tx_lol = false;
  }

  if (profile_->fec) renderFecCounters(port_index, ps, since, up, lanes, noise, s);
  s.link.up = up;
  s.link.down_events_total = static_cast<std::uint64_t>(downEventsAt(port_index, ps, since, lanes.los));
  // The kernel's reason while down, and the last one once the link has gone
  // down in a scenario (a healthy port's few old flaps predate the sim).
  if (!up) s.link.down_reason = lanes.los ? kLosReason : kFlapReason;
  if (s.link.down_reason) {
    s.link.last_down_reason = s.link.down_reason;
  } else if (fx.flapping > 0) {
    s.link.last_down_reason = kFlapReason;
  }
  return s;
}

void SimSwitch::sampleAll(std::int64_t now_ms, std::vector<Sample>& out) const {
  out.reserve(out.size() + static_cast<std::size_t>(config_.ports));
  for (int i = 0; i < config_.ports; ++i) out.push_back(sampleAt(i, now_ms));
}

}  // namespace opticsd::sim
