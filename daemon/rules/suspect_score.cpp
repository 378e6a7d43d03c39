#include "daemon/rules/suspect_score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "daemon/rules/rule_outcome.hpp"

namespace opticsd {
namespace {

// BER this far below the FEC limit scores 0: a healthy PAM4 lane wanders up
// to ~1e-6, 2.4 decades below the KP4 limit, and must not make a suspect.
constexpr double kBerHorizonDecades = 2.0;

double closenessOf(RuleKind kind, const ResolvedRule* rule, bool crit) {
  switch (kind) {
    case RuleKind::kFecUncorrectable: return 1.0;
    case RuleKind::kLaneDark: return 0.95;
    case RuleKind::kFlapping: return crit ? 0.9 : 0.7;
    // A forecast is a warning about the future: below any evidence of harm.
    case RuleKind::kForecast: return crit ? 0.3 : 0.2;
    case RuleKind::kLinkLoss: return crit ? 0.7 : 0.5;
    // The module's own alarm limits, set by who calibrated it: above the shipped levels.
    case RuleKind::kModuleAlarm: return crit ? 0.65 : 0.4;
    case RuleKind::kThreshold:
      if (rule && rule->spec->metric == "pre_fec_ber_ratio") return crit ? 0.8 : 0.5;
      break;
    default: break;
  }
  return crit ? 0.6 : 0.35;
}

std::string reasonOf(RuleKind kind, const Finding& f) {
  switch (kind) {
    case RuleKind::kFecUncorrectable: return "post-FEC uncorrectable codewords: frames are being lost (" + f.detail + ")";
    case RuleKind::kLaneDark:
      return "lane failure: lane " + std::to_string(f.lane) + " has no light while the others do (" + f.detail + ")";
    case RuleKind::kFlapping: return "link flapping: " + f.detail;
    case RuleKind::kForecast: return "forecast: " + f.detail;
    default: return f.rule + ": " + f.detail;
  }
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
  RuleKind best_kind = RuleKind::kThreshold;
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
    const ResolvedRule* rule = prof.ruleOfSlot(a.slot);
    const RuleKind kind = rule ? rule->spec->kind : RuleKind::kThreshold;
    const double certainty = 0.6 + 0.4 * std::min(1.0, a.polls / 5.0);
    if (offer(closenessOf(kind, rule, a.finding.severity == Severity::kCritical), certainty)) {
      best_is_ber = false;
      best_finding = &a;
      best_kind = kind;
    }
  }
  st.score = best > 0 ? std::min(1.0, best + 0.05 * others) : 0.0;
  if (best_finding != nullptr) {
    st.reason = reasonOf(best_kind, best_finding->finding);
  } else if (best_is_ber) {
    st.reason = berReason(*agg.worst_ber, prof.fec_limit);
  } else {
    st.reason.clear();
  }
}

}  // namespace opticsd
