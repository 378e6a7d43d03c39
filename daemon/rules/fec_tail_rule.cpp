// The FEC tail: the highest codeword bin (symbol errors) that grew in the
// poll window, against levels per FEC code. It climbs bin by bin while the
// averaged pre-FEC BER still looks healthy (a few codewords with many errors
// barely move the mean), and a tail at the code's limit (RS(544,514): 15
// symbols) is one symbol from losing frames. The worst of the port and its
// lanes is judged.
#include <algorithm>

#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

Outcome evaluateFecTail(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  const FecCounters& fec = in.s.fec;
  std::optional<std::uint16_t> worst = fec.tail.symbols;
  std::uint8_t worst_lane = 0;
  for (std::size_t i = 0; i < fec.tail.lane_symbols.size() && i < 0xFF; ++i) {
    const auto& lane = fec.tail.lane_symbols[i];
    if (lane && (!worst || *lane > *worst || (worst_lane == 0 && *lane == *worst))) {
      worst = lane;
      worst_lane = static_cast<std::uint8_t>(i + 1);
    }
  }
  if (!worst) return o;  // no histogram, or no window yet: nothing to judge
  o.value = *worst;
  o.lane = worst_lane;
  o.setLevel(r.level(o.value));
  o.what = "fec_tail_symbols";
  o.unit = " symbols";
  o.note = fec.correctable_symbols && *worst >= *fec.correctable_symbols
               ? "at the FEC's correction limit: the next worse codeword is a lost frame"
               : "the highest codeword error bin that grew since the previous poll";
  return o;
}

}  // namespace

extern const RuleType kFecTailRule{
    .name = "fec_tail",
    .evaluate = evaluateFecTail,
    // Harm: a tail at the limit is a symbol from lost frames; above the
    // warning level the margin is gone for any extra stress (heat, a dirtier
    // connector).
    .closeness = [](const ResolvedRule&, bool critical) { return critical ? 0.9 : 0.55; },
    .reason = [](const Finding& f) { return "FEC tail near the correction limit: " + f.detail; },
};

}  // namespace opticsd
