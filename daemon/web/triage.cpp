#include "daemon/web/triage.hpp"

#include <algorithm>
#include <cstdio>

#include "daemon/web/html_escape.hpp"
#include "daemon/web/optic_story.hpp"
#include "daemon/web/page_layout.hpp"

namespace opticsd::web {

std::vector<std::string> splitNames(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  for (const char c : text) {
    if (c == ',' || c == ' ' || c == '\n' || c == '\t') {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

bool matches(const TriageQuery& q, std::string_view target, const Endpoint& e) {
  if (q.empty()) return false;
  if (!q.target.empty() && target != q.target) return false;
  if (!q.hosts.empty() && std::find(q.hosts.begin(), q.hosts.end(), e.host) == q.hosts.end()) return false;
  if (!q.gpu.empty() && e.gpu != q.gpu) return false;
  if (!q.rail.empty() && e.rail != q.rail) return false;
  return true;
}

Triage buildTriage(const PageData& data, const TriageQuery& query) {
  Triage t;
  t.query = query;
  if (query.empty()) return t;
  const auto targets = data.targets();
  for (const auto& target : targets) {
    auto view = data.rules(target.name);
    if (!view) continue;
    for (const auto& row : view->ports) {
      const Endpoint endpoint = row.endpoint ? *row.endpoint : Endpoint{};
      if (!matches(query, target.name, endpoint)) continue;
      TriageRow r;
      r.near = {target.name, row.port, row.score, findingsReason(*view, row.port), endpoint};
      if (!endpoint.peer_target.empty()) {
        SuspectRow far{endpoint.peer_target, endpoint.peer_port, 0, {}, {}};
        if (auto peer = data.rules(endpoint.peer_target)) {
          if (const auto* p = findPortRow(*peer, endpoint.peer_port)) {
            far.score = p->score;
            far.reason = findingsReason(*peer, endpoint.peer_port);
          }
        }
        r.far = std::move(far);
      }
      t.rows.push_back(std::move(r));
    }
  }
  auto worse = [](const TriageRow& r) { return std::max(r.near.score, r.far ? r.far->score : 0.0); };
  std::stable_sort(t.rows.begin(), t.rows.end(), [&](const auto& a, const auto& b) { return worse(a) > worse(b); });
  return t;
}

namespace {

std::string cell(const SuspectRow& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", s.score);
  return "<td><a href=\"" + htmlEscape(opticPath(s.target, s.port)) + "\">" + htmlEscape(s.target) + " " +
         htmlEscape(s.port) + "</a></td><td class=\"num score\">" + buf + "</td><td>" + htmlEscape(s.reason) + "</td>";
}

}  // namespace

std::string renderTriagePage(const Triage& t) {
  std::string out;
  beginPage(out, "Triage");
  std::string hosts;
  for (const auto& h : t.query.hosts) hosts += (hosts.empty() ? "" : ", ") + h;
  out +=
      "<h1>Straggler triage</h1><p>Slow hosts, a GPU or a rail: every link on their paths, both ends' optics, "
      "worst first.</p><form class=\"triage\" method=\"get\" action=\"/triage\"><p><label>Hosts <input name=\"host\" "
      "value=\"" +
      htmlEscape(hosts) +
      "\" placeholder=\"gpu-node-118, gpu-node-7\"></label> <label>GPU <input "
      "name=\"gpu\" value=\"" +
      htmlEscape(t.query.gpu) + "\"></label> <label>Rail <input name=\"rail\" value=\"" + htmlEscape(t.query.rail) +
      "\"></label> <button>Show</button></p></form>";
  if (t.query.empty()) {
    out += "<p class=\"muted\">Name at least one host, GPU, rail or target.</p>";
  } else if (t.rows.empty()) {
    out += "<p>No link the topology knows is on these paths.</p>";
  } else {
    out +=
        "<div class=\"scroll\"><table id=\"paths\"><thead><tr><th>Host</th><th>NIC</th><th>GPU</th><th>Rail</th>"
        "<th>Optic</th><th class=\"num\">Score</th><th>Why</th><th>Far end</th><th class=\"num\">Score</th>"
        "<th>Why</th></tr></thead><tbody>";
    for (const auto& r : t.rows) {
      const auto& e = r.near.endpoint;
      out += "<tr><td>" + htmlEscape(e.host) + "</td><td>" + htmlEscape(e.nic) + "</td><td>" + htmlEscape(e.gpu) +
             "</td><td>" + htmlEscape(e.rail) + "</td>" + cell(r.near) +
             (r.far ? cell(*r.far) : std::string("<td class=\"muted\">not monitored</td><td></td><td></td>")) + "</tr>";
    }
    out += "</tbody></table></div>";
  }
  endPage(out);
  return out;
}

}  // namespace opticsd::web
