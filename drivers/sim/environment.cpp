#include "drivers/sim/environment.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "drivers/sim/noise.hpp"

namespace opticsd::sim {
namespace {

constexpr std::uint64_t kSaltRoomPhase = 0x524f4f4d;  // "ROOM"
constexpr std::uint64_t kSaltJob = 0x4a4f42;          // "JOB"
constexpr int kAr1Terms = 12;                         // phi^12 < 2 % of the newest innovation for phi <= 0.72

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

double normalNoise(std::uint64_t h) {
  // Three 21-bit uniforms in [-1, 1]: their sum has variance 1.
  constexpr double kScale = 2.0 / 2097151.0;
  double sum = 0;
  for (int i = 0; i < 3; ++i) sum += static_cast<double>((h >> (21 * i)) & 0x1FFFFF) * kScale - 1.0;
  return sum;
}

double ar1At(std::uint64_t key, std::int64_t t_ms, std::int64_t step_ms, double phi, double sigma) {
  const std::int64_t step = std::max<std::int64_t>(1, step_ms);
  const std::int64_t k = floorDiv(t_ms, step);
  const double w = static_cast<double>(t_ms - k * step) / static_cast<double>(step);
  // x[k] = sum_j phi^j e[k-j] * sqrt(1 - phi^2): stationary variance sigma^2 (truncated).
  std::array<double, kAr1Terms + 1> e{};
  for (int j = 0; j <= kAr1Terms; ++j)
    e[static_cast<std::size_t>(j)] = normalNoise(hashCombine(key, static_cast<std::uint64_t>(k + 1 - j)));
  double now = 0, next = 0, weight = 1;
  for (int j = 0; j < kAr1Terms; ++j) {
    next += weight * e[static_cast<std::size_t>(j)];
    now += weight * e[static_cast<std::size_t>(j + 1)];
    weight *= phi;
  }
  const double scale = sigma * std::sqrt(1.0 - phi * phi);
  return scale * (now + w * (next - now));
}

double roomOffsetC(const SimEnvironment& env, std::uint64_t seed, std::int64_t t_ms) {
  if (!env.enabled || env.room_period_ms <= 0) return 0;
  const double phase = 2.0 * std::numbers::pi * unitInterval(hashKey(seed, kSaltRoomPhase));
  return env.room_amplitude_c *
         std::sin(2.0 * std::numbers::pi * static_cast<double>(t_ms) / static_cast<double>(env.room_period_ms) + phase);
}

bool jobActive(const SimEnvironment& env, std::uint64_t seed, std::int64_t t_ms) {
  if (!env.enabled || env.job_slot_ms <= 0) return false;
  const std::int64_t slot = floorDiv(t_ms, env.job_slot_ms);
  return unitInterval(hashKey(seed, kSaltJob, static_cast<std::uint64_t>(slot))) < env.job_duty;
}

double jobHeatFraction(const SimEnvironment& env, std::uint64_t seed, std::int64_t t_ms) {
  if (!env.enabled || env.job_slot_ms <= 0 || env.job_rise_c == 0) return 0;
  // First-order response to the slot's on/off input; a slot lasts many time
  // constants, so the previous slot is taken as settled.
  const std::int64_t slot_start = floorDiv(t_ms, env.job_slot_ms) * env.job_slot_ms;
  const double target = jobActive(env, seed, t_ms) ? 1.0 : 0.0;
  const double before = jobActive(env, seed, slot_start - 1) ? 1.0 : 0.0;
  const double tau = static_cast<double>(std::max<std::int64_t>(1, env.job_tau_ms));
  return target + (before - target) * std::exp(-static_cast<double>(t_ms - slot_start) / tau);
}

}  // namespace opticsd::sim
