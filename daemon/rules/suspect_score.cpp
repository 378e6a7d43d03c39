#include "daemon/rules/suspect_score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "daemon/rules/rule_outcome.hpp"
#include "daemon/rules/rule_type.hpp"

namespace opticsd {
namespace {

// BER this far below the FEC limit scores 0: a healthy PAM4 lane wanders up
// to ~1e-6, 2.4 decades below the KP4 limit, and must not make a suspect.
constexpr double kBerHorizonDecades = 2.0;

double closenessOf(const ResolvedRule* rule, bool critical) {
  if (rule && rule->spec->type->closeness) return rule->spec->type->closeness(*rule, critical);
  return critical ? kDefaultCriticalCloseness : kDefaultWarningCloseness;
}

std::string reasonOf(const ResolvedRule* rule, const Finding& f) {
  if (rule && rule->spec->type->reason) return rule->spec->type->reason(f);
  return f.rule + ": " + f.detail;
}

}  // namespace

std::string berReason(double ber, double fec_limit) {
  const double decades = std::log10(fec_limit) - std::log10(ber);
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%.1f", std::fabs(decades));
  const std::string text = "pre-FEC BER " + formatNumber(ber, fec_limit);
  const std::string limit = "the FEC limit " + formatLimit(fec_limit);
  if (std::string_view(buf) == "0.0") return text + " is at " + limit;
  return text + " is " + buf + (decades > 0 ? " decades below " : " decades above ") + limit;
}

void scoreModule(ModuleRuleState& st, const RuleProfile& prof, const Aggregates& agg) {
  // Closeness to costing packets, times how sure we are, per piece of evidence.
  double best = 0;
  double others = 0;
  const ActiveFinding* best_finding = nullptr;
  const ResolvedRule* best_rule = nullptr;
  bool best_is_ber = false;
  const auto offer = [&](double closeness, double certainty) {
    const double s = std::clamp(closeness * certainty, 0.0, 1.0);
    if (s <= best) {
      others += s;
      return false;
    }
    others += best;
    best = s;
    return true;
  };
  if (agg.worst_ber && *agg.worst_ber > 0) {
    const double decades = std::log10(prof.fec_limit) - std::log10(*agg.worst_ber);
    const double closeness = std::clamp(1.0 - decades / kBerHorizonDecades, 0.0, 1.0);
    if (closeness > 0 && offer(0.9 * closeness, 0.9)) best_is_ber = true;
  }
  for (auto& a : st.active) {
    ++a.polls;
    if (a.finding.shadow) continue;  // a rule on trial: recorded, never evidence
    const ResolvedRule* rule = prof.ruleOfSlot(a.slot);
    const double certainty = 0.6 + 0.4 * std::min(1.0, a.polls / 5.0);
    if (offer(closenessOf(rule, a.finding.severity == Severity::kCritical), certainty)) {
      best_is_ber = false;
      best_finding = &a;
      best_rule = rule;
    }
  }
  st.score = best > 0 ? std::min(1.0, best + 0.05 * others) : 0.0;
  if (best_finding != nullptr) {
    st.reason = reasonOf(best_rule, best_finding->finding);
  } else if (best_is_ber) {
    st.reason = berReason(*agg.worst_ber, prof.fec_limit);
  } else {
    st.reason.clear();
  }
}

}  // namespace opticsd
