#pragma once
// Pre-FEC BER as a function of received power, and what it costs an RS FEC.
//
// Receiver model: 1/Q^2 = 1/Qt^2 + 1/Qf^2. Qt is thermal-noise limited and
// proportional to received power in mW (so BER falls off a cliff near the
// sensitivity); Qf is a per-lane floor from ISI, RIN and the DSP, which is why
// healthy PAM4 links sit near 1e-8..1e-7 instead of 0. BER = k/2 erfc(Q/sqrt2)
// with k = 1 for NRZ and 1.5 for Gray-coded PAM4 (three eyes, two bits).

#include <cstdint>

namespace opticsd::sim {

struct ReceiverModel {
  double sensitivity_dbm = -10.0;  // Rx power where BER reaches sensitivity_ber
  double sensitivity_ber = 2.4e-4;
  double q_floor = 5.6;  // nominal floor; lanes vary around it
  bool pam4 = true;
  double thermal_q_at_sensitivity = 0;  // derived by prepare()

  void prepare();
  double qFactor(double rx_dbm, double lane_q_floor) const;
  double ber(double rx_dbm, double lane_q_floor) const;
};

double berFromQ(double q, bool pam4);
double qFromBer(double ber, bool pam4);  // inverse of berFromQ (bisection)

// Reed-Solomon code over 10-bit symbols: RS(544,514) "KP4" (t = 15) or
// RS(528,514) "KR4" (t = 7), per IEEE 802.3 clauses 91 and 119.
struct FecCode {
  int n_symbols = 544;
  int t_correctable = 15;
  int symbol_bits = 10;
  int codewordBits() const { return n_symbols * symbol_bits; }
};

struct CodewordOutcome {
  double p_corrected = 0;      // 1..t symbol errors
  double p_uncorrectable = 0;  // more than t
};

// Independent bit errors: a symbol is wrong when any of its bits is; the
// number of wrong symbols per codeword is Poisson for small rates.
CodewordOutcome codewordOutcome(const FecCode& code, double ber);

// The share of codewords with exactly `symbols` symbol errors (Poisson, as
// above): the codeword histogram's bin `symbols` of a link with random errors.
double codewordBinShare(const FecCode& code, double ber, int symbols);

}  // namespace opticsd::sim
