#include "daemon/web/fleet_page.hpp"

#include <cstdio>

#include "daemon/web/html_escape.hpp"
#include "daemon/web/optic_story.hpp"
#include "daemon/web/page_layout.hpp"

namespace opticsd::web {
namespace {

std::string opticLink(std::string_view target, std::string_view port) {
  return "<a href=\"" + htmlEscape(opticPath(target, port)) + "\">" + htmlEscape(target) + " " + htmlEscape(port) +
         "</a>";
}

std::string triageLink(std::string_view key, std::string_view v) {
  return "<a href=\"/triage?" + std::string(key) + "=" + htmlEscape(urlComponent(v)) + "\">" + htmlEscape(v) + "</a>";
}

}  // namespace

std::string renderFleetPage(const FleetOverview& f) {
  std::string out;
  out.reserve(32 * 1024 + f.targets.size() * 256);
  beginPage(out, "Fleet");
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu modules on %zu targets: %zu with a critical finding, %zu with a warning.",
                f.modules, f.targets.size(), f.modules_critical, f.modules_warning);
  out += "<h1>Fleet</h1><p id=\"health\">" + std::string(buf) + "</p>";
  if (!f.history_error.empty()) {
    out += "<p class=\"note error\" id=\"history-state\">History is unavailable (" + htmlEscape(f.history_error) +
           "): findings are the rules engine's live ones, without their start times.</p>";
  }

  out += "<section id=\"suspects\"><h2>Straggler suspects</h2>";
  if (f.suspects.empty()) {
    out += "<p>No module is a suspect.</p>";
  } else {
    out +=
        "<div class=\"scroll\"><table><thead><tr><th>#</th><th>Optic</th><th class=\"num\">Score</th><th>Why</th>"
        "<th>Host</th><th>NIC</th><th>GPU</th><th>Rail</th></tr></thead><tbody>";
    int rank = 0;
    for (const auto& s : f.suspects) {
      std::snprintf(buf, sizeof buf, "%.2f", s.score);
      out += "<tr class=\"suspect\"><td>" + std::to_string(++rank) + "</td><td>" + opticLink(s.target, s.port) +
             "</td><td class=\"num score\">" + buf + "</td><td>" + htmlEscape(s.reason) + "</td><td>" +
             (s.endpoint.host.empty() ? "" : triageLink("host", s.endpoint.host)) + "</td><td>" +
             htmlEscape(s.endpoint.nic) + "</td><td>" + htmlEscape(s.endpoint.gpu) + "</td><td>" +
             (s.endpoint.rail.empty() ? "" : triageLink("rail", s.endpoint.rail)) + "</td></tr>";
    }
    out += "</tbody></table></div>";
    if (f.suspects_total > f.suspects.size()) {
      out += "<p class=\"muted\">" + std::to_string(f.suspects_total - f.suspects.size()) +
             " more with a lower score.</p>";
    }
  }
  out += "</section><section id=\"findings\"><h2>Active findings, newest first</h2>";
  if (f.findings.empty()) {
    out += "<p>No active findings.</p>";
  } else {
    out +=
        "<div class=\"scroll\"><table><thead><tr><th>Since</th><th>Optic</th><th>Rule</th><th>Severity</th>"
        "<th>Evidence</th></tr></thead><tbody>";
    for (const auto& x : f.findings) {
      const std::string sev(toString(x.severity));
      out += "<tr><td>" + (x.start_ms ? ageText(x.start_ms, f.now_ms) : std::string("—")) + "</td><td>" +
             opticLink(x.target, x.port) + (x.lane ? " lane " + std::to_string(x.lane) : "") + "</td><td>" +
             htmlEscape(x.rule) + "</td><td class=\"sev-" + sev + "\">" + sev + "</td><td>" + htmlEscape(x.detail) +
             "</td></tr>";
    }
    out += "</tbody></table></div>";
  }
  out +=
      "</section><section id=\"targets\"><h2>Targets</h2><div class=\"scroll\"><table><thead><tr><th>Target</th>"
      "<th>Driver</th><th>State</th><th>Last good poll</th><th class=\"num\">Modules</th></tr></thead><tbody>";
  for (const auto& t : f.targets) {
    std::string state = !t.has_samples ? "<span class=\"state-alarm\">no data</span>"
                        : t.stale      ? "<span class=\"state-warning\">kept (polls failing)</span>"
                                       : "<span class=\"state-ok\">up</span>";
    out += "<tr><td><a href=\"/triage?target=" + htmlEscape(urlComponent(t.name)) + "\">" + htmlEscape(t.name) +
           "</a></td><td>" + htmlEscape(t.driver) + "</td><td>" + state + "</td><td>" +
           (t.last_success_ms ? ageText(*t.last_success_ms, f.now_ms) : std::string("never")) +
           "</td><td class=\"num\">" + std::to_string(t.modules) + "</td></tr>";
  }
  out += "</tbody></table></div></section>";
  endPage(out);
  return out;
}

}  // namespace opticsd::web
