#pragma once
// One simulated switch: a pure function from (seed, port, lane, time) to
// Samples, plus the noise-free "ground truth" behind them so that tests can
// ask when a scenario's true value crossed a rule's threshold.
//
// Nothing is remembered between calls: cumulative counters are integrals of
// the modelled rates, computed in closed form for healthy ports and from a
// small per-port table (built once, in the constructor) for ports that carry
// a scenario. A SimSwitch is immutable after construction; its const methods
// may be called from any thread.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/lane_limit.hpp"
#include "drivers/result.hpp"
#include "drivers/sample.hpp"
#include "drivers/sim/environment.hpp"
#include "drivers/sim/module_profile.hpp"
#include "drivers/sim/scenario.hpp"

namespace opticsd::sim {

inline constexpr int kMaxLanes = kMaxSampleLanes;  // the Sample model's one lane limit
inline constexpr int kMaxFecBins = 16;             // 0..15 symbol errors: RS(544,514) corrects 15

struct SimSwitchConfig {
  std::string name;  // the target name; Sample::target
  std::uint64_t seed = 0;
  int ports = 32;
  int lanes = 0;  // 0: the module's own lane count
  std::string module{kDefaultModuleProfile};
  std::string port_prefix = "Ethernet";  // ports are <prefix>1 .. <prefix>N
  std::optional<std::int64_t> epoch_ms;  // unset: the first poll's time (driver)
  std::vector<ScenarioSpec> scenarios;
  SimEnvironment environment;  // room, jobs, drift, wander, read noise
};

// Noise-free quantities behind a Sample. Lane signals take a 1-based lane;
// module signals ignore it. Counters are totals for the port unless a lane is
// given (kCorrectedBitsTotal only).
enum class TruthSignal : std::uint8_t {
  kTxBiasMilliamperes,
  kTxPowerDbm,
  kRxPowerDbm,
  kFarEndRxPowerDbm,  // what the peer's receiver sees of our laser
  kPreFecBerRatio,    // per lane; nullopt while the lane has no lock
  kTemperatureCelsius,
  kLinkDownEventsTotal,
  kCorrectedBitsTotal,
  kCorrectedBlocksTotal,
  kUncorrectableBlocksTotal,
};

enum class Crossing : std::uint8_t { kRising, kFalling };

class SimSwitch {
 public:
  // Fails when the module profile is unknown or a scenario names a port or
  // lane the switch does not have (the option reader reports these earlier,
  // with file and line; this guards programmatic use).
  static Result<SimSwitch> create(SimSwitchConfig config, std::int64_t epoch_ms);

  Sample sampleAt(int port_index, std::int64_t now_ms) const;
  // Appends one Sample per port.
  void sampleAll(std::int64_t now_ms, std::vector<Sample>& out) const;

  std::optional<double> truthAt(int port_index, int lane, TruthSignal signal, std::int64_t now_ms) const;
  // First instant in [from_ms, to_ms] at which the truth is at or beyond
  // `threshold` (>= when rising, <= when falling), found by a scan every
  // `step_ms` then bisection to the millisecond. Assumes no excursion shorter
  // than step_ms, which holds for every scenario's monotone ramp.
  std::optional<std::int64_t> firstCrossing(int port_index, int lane, TruthSignal signal, double threshold,
                                            Crossing direction, std::int64_t from_ms, std::int64_t to_ms,
                                            std::int64_t step_ms = 1000) const;

  std::string portName(int port_index) const;
  std::optional<int> portIndex(std::string_view name) const;
  int ports() const { return config_.ports; }
  int lanes() const { return lanes_; }
  std::int64_t epochMs() const { return epoch_ms_; }
  const SimSwitchConfig& config() const { return config_; }
  const ModuleProfile& profile() const { return *profile_; }
  // The scenarios on one port (empty for a healthy port).
  std::span<const ScenarioSpec> scenariosOn(int port_index) const;

  // Per-lane state and port-wide effects; public for tests and benchmarks.
  struct Effects {
    double ageing = 0;
    double connector_loss_db = 0;
    double temperature_rise_c = 0;
    double ber_log10_rise = 0;
    double flapping = 0;
    double post_fec = 0;
    double fec_tail = 0;  // fec_tail_climb's progress
    std::array<double, kMaxLanes> lane_failure{};
  };
  struct Counters {
    std::array<double, kMaxLanes> lane_bits{};
    double corrected_blocks = 0;
    double uncorrectable_blocks = 0;
    std::array<double, kMaxFecBins> bins{};  // codewords with k symbol errors, k = 0..t
  };

 private:
  struct LaneTruth {
    double bias_ma = 0;
    double tx_dbm = 0;
    double rx_dbm = 0;
    double far_rx_dbm = 0;
    std::optional<double> ber;
    double q = 0;
    bool los = false;
    bool tx_fault = false;
  };
  struct PortScenarios {
    int port_index = 0;
    std::vector<ScenarioSpec> specs;
    std::vector<std::int64_t> knots;  // ms since epoch
    std::vector<Counters> cumulative;
    Counters last_rate;
  };

  SimSwitch(SimSwitchConfig config, const ModuleProfile* profile, int lanes, std::int64_t epoch_ms);
  void buildTimeline(PortScenarios& ps) const;
  const PortScenarios* findScenarios(int port_index) const;
  Effects effectsAt(const PortScenarios* ps, std::int64_t since_epoch_ms) const;
  LaneTruth laneTruth(int port_index, int lane_index, const Effects& fx) const;
  // laneTruth with the environment at `now_ms`: what the lane really carries
  // then (the FEC counters integrate laneTruth, the mean).
  LaneTruth laneAt(int port_index, int lane_index, const Effects& fx, std::int64_t now_ms) const;
  double environmentTemperatureC(int port_index, std::int64_t now_ms) const;
  double temperatureTruth(int port_index, std::int64_t now_ms, const Effects& fx) const;
  bool anyLos(int port_index, const Effects& fx) const;
  Counters ratesAt(int port_index, const Effects& fx) const;
  Counters countersAt(int port_index, const PortScenarios* ps, std::int64_t since_epoch_ms) const;
  double downEventsAt(int port_index, const PortScenarios* ps, std::int64_t since_epoch_ms, bool lane_los) const;
  bool flapDownAt(int port_index, std::int64_t now_ms, const Effects& fx) const;

  // sampleAt's steps: the truth above, plus read noise, rendered into a Sample.
  struct ReadNoise;  // one port's read noise in one noise bucket (sim_switch.cpp)
  struct LaneTotals {
    bool los = false;  // some lane has lost its signal
    double ber_sum = 0;
    int ber_lanes = 0;  // lanes with a BER (locked)
  };
  void renderIdentity(int port_index, ModuleIdentity& identity) const;
  void renderModuleReadings(int port_index, std::int64_t now_ms, const Effects& fx, const ReadNoise& noise,
                            Sample& s) const;
  LaneTotals renderLaneReadings(int port_index, std::int64_t now_ms, const Effects& fx, const ReadNoise& noise,
                                Sample& s) const;
  void renderFecCounters(int port_index, const PortScenarios* ps, std::int64_t since_epoch_ms, bool up,
                         const LaneTotals& lanes, const ReadNoise& noise, Sample& s) const;
  double uptimeSeconds(int port_index) const;
  const Counters& healthyRates(int port_index) const;

  SimSwitchConfig config_;
  const ModuleProfile* profile_;
  int lanes_;
  std::int64_t epoch_ms_;
  std::vector<PortScenarios> scenario_ports_;  // sorted by port_index
  std::vector<Counters> healthy_rates_;        // per port; empty without FEC
  Sample template_;                            // identity, thresholds: what every port shares
};

}  // namespace opticsd::sim
