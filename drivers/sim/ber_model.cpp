#include "drivers/sim/ber_model.hpp"

#include <algorithm>
#include <cmath>

namespace opticsd::sim {

double berFromQ(double q, bool pam4) {
  const double k = pam4 ? 0.75 : 0.5;
  return k * std::erfc(q / std::sqrt(2.0));
}

double qFromBer(double ber, bool pam4) {
  double lo = 0.0;
  double hi = 40.0;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (berFromQ(mid, pam4) > ber) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

void ReceiverModel::prepare() {
  const double q_total = qFromBer(sensitivity_ber, pam4);
  const double inv = 1.0 / (q_total * q_total) - 1.0 / (q_floor * q_floor);
  // A floor below the sensitivity Q would make the sensitivity unreachable;
  // fall back to a purely thermal receiver.
  thermal_q_at_sensitivity = inv > 0 ? 1.0 / std::sqrt(inv) : q_total;
}

double ReceiverModel::qFactor(double rx_dbm, double lane_q_floor) const {
  const double qt = thermal_q_at_sensitivity * std::pow(10.0, (rx_dbm - sensitivity_dbm) / 10.0);
  return 1.0 / std::sqrt(1.0 / (qt * qt) + 1.0 / (lane_q_floor * lane_q_floor));
}

double ReceiverModel::ber(double rx_dbm, double lane_q_floor) const {
  return std::min(0.5, berFromQ(qFactor(rx_dbm, lane_q_floor), pam4));
}

CodewordOutcome codewordOutcome(const FecCode& code, double ber) {
  CodewordOutcome out;
  if (!(ber > 0)) return out;
  const double b = std::min(ber, 0.5);
  const double p_symbol = -std::expm1(code.symbol_bits * std::log1p(-b));
  const double lambda = code.n_symbols * p_symbol;
  const double p_any = -std::expm1(code.n_symbols * std::log1p(-p_symbol));
  // Poisson tail above t, summed term by term so tiny tails keep precision.
  double tail = 0;
  const double log_lambda = std::log(lambda);
  for (int k = code.t_correctable + 1; k <= code.t_correctable + 200; ++k) {
    const double term = std::exp(k * log_lambda - lambda - std::lgamma(k + 1.0));
    tail += term;
    if (k > lambda && term < tail * 1e-12) break;
  }
  out.p_uncorrectable = std::min(tail, p_any);
  out.p_corrected = std::max(0.0, p_any - out.p_uncorrectable);
  return out;
}

double codewordBinShare(const FecCode& code, double ber, int symbols) {
  const double b = std::clamp(ber, 0.0, 0.5);
  if (b == 0) return symbols == 0 ? 1.0 : 0.0;
  const double p_symbol = -std::expm1(code.symbol_bits * std::log1p(-b));
  const double lambda = code.n_symbols * p_symbol;
  return std::exp(symbols * std::log(lambda) - lambda - std::lgamma(symbols + 1.0));
}

}  // namespace opticsd::sim
