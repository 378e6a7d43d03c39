#include "daemon/web/fleet_overview.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace opticsd::web {

std::string findingsReason(const TargetRulesView& view, std::string_view port) {
  std::string out;
  for (const auto& f : view.findings) {
    if (f.port != port) continue;
    if (!out.empty()) out += ", ";
    out += f.rule + " (" + std::string(toString(f.severity)) + ")";
    if (f.lane != 0) out += " on lane " + std::to_string(f.lane);
  }
  return out;
}

FleetOverview buildFleetOverview(const PageData& data) {
  FleetOverview o;
  o.now_ms = data.nowMs();
  o.targets = data.targets();
  std::vector<std::pair<const TargetRulesView::PortRow*, std::string>> scored;  // row, target
  std::vector<std::shared_ptr<const TargetRulesView>> views;                    // keeps the rows alive
  std::vector<Finding> live_findings;
  for (const auto& t : o.targets) {
    o.modules += t.modules;
    auto view = data.rules(t.name);
    if (!view) continue;
    std::map<std::string_view, Severity> worst;
    for (const auto& f : view->findings) {
      auto& w = worst[f.port];
      w = std::max(w, f.severity);
      Finding finding;
      finding.target = t.name;
      finding.port = f.port;
      finding.lane = f.lane;
      finding.rule = f.rule;
      finding.severity = f.severity;
      live_findings.push_back(std::move(finding));
    }
    for (const auto& [port, severity] : worst) {
      if (severity == Severity::kCritical) ++o.modules_critical;
      if (severity == Severity::kWarning) ++o.modules_warning;
    }
    for (const auto& row : view->ports) {
      if (row.score > 0) scored.emplace_back(&row, t.name);
    }
    views.push_back(std::move(view));
  }
  o.suspects_total = scored.size();
  const auto top = std::min(kMaxSuspects, scored.size());
  std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(top), scored.end(),
                    [](const auto& a, const auto& b) {
                      if (a.first->score != b.first->score) return a.first->score > b.first->score;
                      return std::tie(a.second, a.first->port) < std::tie(b.second, b.first->port);
                    });
  scored.resize(top);
  std::map<std::pair<std::string, std::string>, std::string> reasons;
  if (auto stored = data.storedSuspects()) {
    for (auto& s : *stored) reasons[{s.target, s.port}] = std::move(s.reason);
  }
  for (const auto& [row, target] : scored) {
    SuspectRow s{target, row->port, row->score, {}, row->endpoint ? *row->endpoint : Endpoint{}};
    if (auto it = reasons.find({target, row->port}); it != reasons.end()) s.reason = it->second;
    if (s.reason.empty()) {
      if (auto view = data.rules(target)) s.reason = findingsReason(*view, row->port);
    }
    o.suspects.push_back(std::move(s));
  }
  FindingsFilter filter;
  filter.active_only = true;
  if (auto stored = data.findings(filter)) {
    o.findings = std::move(*stored);
  } else {
    o.history_error = stored.error().message;
    o.findings = std::move(live_findings);
  }
  std::stable_sort(o.findings.begin(), o.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.start_ms > b.start_ms; });
  if (o.findings.size() > kMaxFindings) o.findings.resize(kMaxFindings);
  return o;
}

}  // namespace opticsd::web
