#pragma once
// What a real fabric does to healthy modules, so that rules are tested
// against it: a room that cycles a fraction of a degree, jobs that warm a
// whole switch by several degrees when they start and cool it when they end,
// slow drift of each lane's received power (connector and fibre movement,
// polarisation), wandering pre-FEC BER, and read noise with Gaussian tails.
//
// Stateless like the rest of the sim: every value is a pure function of
// (seed, port, lane, time). The AR(1) processes are evaluated as a truncated
// sum of their past innovations at fixed steps, interpolated between steps.

#include <cstdint>

namespace opticsd::sim {

struct SimEnvironment {
  bool enabled = true;  // false: the quiet model (bounded read noise, no cycles or drift)

  // Room: the same sinusoid on every module of a switch (one room), phase per switch.
  double room_amplitude_c = 0.8;
  std::int64_t room_period_ms = 2 * 3'600'000;
  // Jobs: the switch's ports carry a job in a slot with probability `job_duty`;
  // modules approach +job_rise_c x their own gain (0.85..1) with time constant job_tau_ms.
  double job_rise_c = 8.0;
  std::int64_t job_slot_ms = 90 * 60'000;
  double job_duty = 0.5;
  std::int64_t job_tau_ms = 10 * 60'000;
  // AR(1) Rx power drift per lane: stationary sigma, step and per-step correlation.
  double rx_drift_sigma_db = 0.15;
  std::int64_t rx_drift_step_ms = 5 * 60'000;
  double rx_drift_phi = 0.7;
  // AR(1) wander of log10 pre-FEC BER per lane: ~1e-8 .. 5e-7 on a healthy PAM4 lane.
  double ber_wander_sigma_decades = 0.28;
  std::int64_t ber_wander_step_ms = 10 * 60'000;
  double ber_wander_phi = 0.7;
  // Read noise (one sigma) of the DDM values.
  double rx_read_sigma_db = 0.03;
  double temperature_read_sigma_c = 0.1;
};

// Approximately standard normal (sum of three uniforms from one hash): bounded
// at +-3 sigma, so a test can reason about its worst case.
double normalNoise(std::uint64_t h);

// A stationary AR(1) process with standard deviation `sigma`, sampled at `t_ms`.
double ar1At(std::uint64_t key, std::int64_t t_ms, std::int64_t step_ms, double phi, double sigma);

// The room's temperature offset for the switch seeded `seed`.
double roomOffsetC(const SimEnvironment& env, std::uint64_t seed, std::int64_t t_ms);
// How far into a job's warm-up the switch is, 0 (idle, cooled) .. 1 (warm).
double jobHeatFraction(const SimEnvironment& env, std::uint64_t seed, std::int64_t t_ms);
// Whether the switch carries a job in the slot holding `t_ms` (for tests).
bool jobActive(const SimEnvironment& env, std::uint64_t seed, std::int64_t t_ms);

}  // namespace opticsd::sim
