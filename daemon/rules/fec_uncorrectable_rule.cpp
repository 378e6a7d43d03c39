// Post-FEC uncorrectable codewords counted since the previous poll: each one
// is a lost frame.
#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

Outcome evaluateFecUncorrectable(const RuleInput& in, const ResolvedRule& r) {
  Outcome o;
  const auto& cur = in.s.fec.uncorrectable_blocks_total;
  const auto& last = in.st.last_uncorrectable;
  if (!cur || !last || *cur < *last) return o;  // a counter reset is not an error count
  o.value = static_cast<double>(*cur - *last);
  o.setLevel(r.level(o.value));
  o.what = "uncorrectable_codewords";
  o.unit = "";
  o.note = "counted since the previous poll";
  return o;
}

}  // namespace

extern const RuleType kFecUncorrectableRule{
    .name = "fec_uncorrectable",
    .evaluate = evaluateFecUncorrectable,
    .closeness = [](const ResolvedRule&, bool) { return 1.0; },  // frames are being lost
    .reason =
        [](const Finding& f) { return "post-FEC uncorrectable codewords: frames are being lost (" + f.detail + ")"; },
};

}  // namespace opticsd
